// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Reads what `BinaryWriter` wrote, from bytes the caller keeps alive. Every
/// length is checked against what is left before anything is allocated or
/// copied, so a truncated or corrupted file is an error, never a crash or a
/// huge allocation.
package struct BinaryReader {
    private let base: UnsafeRawPointer?
    private let end: Int
    package private(set) var position: Int
    /// What the error messages call the bytes ("the cache file …").
    private let what: String
    /// Immutable bytes that hold the ones read, and live as long as they are
    /// needed: column buffers borrow from them (`values`, `frozenRaw`) instead
    /// of copying. nil: the bytes are the caller's for now, and are copied.
    private let owner: FrozenBytes?

    package init(_ bytes: UnsafeRawBufferPointer, what: String, within owner: FrozenBytes? = nil) {
        base = bytes.baseAddress
        end = bytes.count
        position = 0
        self.what = what
        if let owner, let start = bytes.baseAddress {
            precondition(start >= owner.base && start + bytes.count <= owner.base + owner.count, "the bytes are not the owner's")
        }
        self.owner = owner
    }

    /// A reader of `bytes` (a record this reader returned) that lends from the same owner.
    package func reader(of bytes: UnsafeRawBufferPointer) -> BinaryReader {
        BinaryReader(bytes, what: what, within: owner)
    }

    package var remaining: Int { end - position }
    package var isAtEnd: Bool { position == end }

    package func corrupt(_ detail: String) -> FeatureCacheError {
        FeatureCacheError(.storage, "\(what) is corrupt: \(detail) (at byte \(position))")
    }

    private mutating func take(_ count: Int) throws(FeatureCacheError) -> UnsafeRawPointer {
        guard count >= 0, count <= remaining, let base else { throw corrupt("it ends too early") }
        defer { position += count }
        return base + position
    }

    package mutating func u8() throws(FeatureCacheError) -> UInt8 { try take(1).load(as: UInt8.self) }

    package mutating func bool() throws(FeatureCacheError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let other: throw corrupt("\(other) is not a flag")
        }
    }

    package mutating func u32() throws(FeatureCacheError) -> UInt32 { UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self)) }
    package mutating func i32() throws(FeatureCacheError) -> Int32 { Int32(bitPattern: try u32()) }
    package mutating func u64() throws(FeatureCacheError) -> UInt64 { UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self)) }
    package mutating func i64() throws(FeatureCacheError) -> Int64 { Int64(bitPattern: try u64()) }
    package mutating func f64() throws(FeatureCacheError) -> Double { Double(bitPattern: try u64()) }

    /// A count or size: never negative, never more than `limit`.
    package mutating func int(limit: Int = .max) throws(FeatureCacheError) -> Int {
        let value = try i64()
        guard value >= 0, value <= limit else { throw corrupt("\(value) is out of range") }
        return Int(value)
    }

    package mutating func string() throws(FeatureCacheError) -> String {
        let count = Int(try u32())
        let start = try take(count)
        return String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    }

    package mutating func optionalString() throws(FeatureCacheError) -> String? {
        try bool() ? try string() : nil
    }

    package mutating func optionalI64() throws(FeatureCacheError) -> Int64? {
        let present = try bool()
        let value = try i64()
        return present ? value : nil
    }

    package mutating func strings() throws(FeatureCacheError) -> [String] {
        let count = Int(try u32())
        guard count <= remaining / 4 else { throw corrupt("\(count) strings cannot fit") }
        var values: [String] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try string()) }
        return values
    }

    package mutating func align() throws(FeatureCacheError) {
        let padding = (8 - position & 7) & 7
        _ = try take(padding)
    }

    /// Where the values of a buffer written by `BinaryWriter.buffer` lie, and how many.
    private mutating func span<T: BitwiseCopyable>(
        of _: T.Type, expecting expected: Int?
    ) throws(FeatureCacheError) -> (source: UnsafeRawPointer, count: Int) {
        let count = try int(limit: remaining / max(1, MemoryLayout<T>.stride))
        if let expected, count != expected { throw corrupt("a buffer holds \(count) values, not \(expected)") }
        try align()
        let source = try take(count * MemoryLayout<T>.stride)
        try align()
        return (source, count)
    }

    /// A buffer written by `BinaryWriter.buffer`, copied in one move.
    package mutating func buffer<T: BitwiseCopyable>(of _: T.Type, expecting expected: Int? = nil) throws(FeatureCacheError) -> [T] {
        let (source, count) = try span(of: T.self, expecting: expected)
        // Not for none: the standard library then writes the count into the one
        // shared empty array, which ThreadSanitizer reports as a race between
        // two threads reading empty buffers (seen in a release TSan run).
        guard count > 0 else { return [] }
        return [T](unsafeUninitializedCapacity: count) { target, initialized in
            UnsafeMutableRawPointer(target.baseAddress!).copyMemory(from: source, byteCount: count * MemoryLayout<T>.stride)
            initialized = count
        }
    }

    /// A buffer written by `BinaryWriter.buffer`, borrowed from the owner
    /// where it lies when there is one (copied otherwise).
    package mutating func values<T: BitwiseCopyable>(
        of _: T.Type, expecting expected: Int? = nil
    ) throws(FeatureCacheError) -> ColumnBuffer<T> {
        guard let owner else { return ColumnBuffer(try buffer(of: T.self, expecting: expected)) }
        let (source, count) = try span(of: T.self, expecting: expected)
        return ColumnBuffer(borrowing: source, count: count, in: owner)
    }

    /// Raw bytes written by `BinaryWriter.raw`, as immutable bytes: borrowed
    /// from the owner when there is one (copied otherwise).
    package mutating func frozenRaw() throws(FeatureCacheError) -> FrozenBytes {
        let bytes = try raw()
        // Nothing to borrow gets an address of its own (C and Arrow readers are handed `base`).
        if let owner, bytes.count > 0 { return FrozenBytes(borrowing: bytes, from: owner) }
        return FrozenBytes(copying: bytes)
    }

    /// The next `count` bytes, borrowed.
    package mutating func raw(count: Int) throws(FeatureCacheError) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: try take(count), count: count)
    }

    /// Raw bytes written by `BinaryWriter.raw`, borrowed (valid while the caller's bytes are).
    package mutating func raw() throws(FeatureCacheError) -> UnsafeRawBufferPointer {
        let count = try int(limit: remaining)
        try align()
        let start = try take(count)
        try align()
        return UnsafeRawBufferPointer(start: start, count: count)
    }
}
