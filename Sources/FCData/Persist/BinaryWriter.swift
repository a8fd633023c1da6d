// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Writes the cache files' little-endian layout: scalars, length-prefixed
/// strings, and raw buffers padded to 8 bytes so a reader can copy each one
/// into its column in a single move (no per-value decoding).
package struct BinaryWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    package mutating func u8(_ value: UInt8) { bytes.append(value) }
    package mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    package mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    package mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
    package mutating func int(_ value: Int) { i64(Int64(value)) }
    package mutating func f64(_ value: Double) { u64(value.bitPattern) }

    package mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            u32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    package mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    /// Whether there is a value (bool), then the value, 0 when there is none:
    /// the same 9 bytes either way.
    package mutating func optionalI64(_ value: Int64?) {
        bool(value != nil)
        i64(value ?? 0)
    }

    package mutating func strings(_ values: [String]) {
        u32(UInt32(values.count))
        for value in values { string(value) }
    }

    /// Zero bytes up to the next multiple of 8.
    package mutating func align() {
        while bytes.count & 7 != 0 { bytes.append(0) }
    }

    /// A buffer of plain values: its element count, then its bytes from an
    /// 8-byte boundary (the host is little-endian: x86_64 and arm64 Linux).
    package mutating func buffer<T: BitwiseCopyable>(_ values: [T]) {
        values.withUnsafeBufferPointer { buffer($0) }
    }

    package mutating func buffer<T: BitwiseCopyable>(_ values: ColumnBuffer<T>) {
        values.withUnsafeBufferPointer { buffer($0) }
    }

    private mutating func buffer<T: BitwiseCopyable>(_ values: UnsafeBufferPointer<T>) {
        int(values.count)
        align()
        bytes.append(contentsOf: UnsafeRawBufferPointer(values))
        align()
    }

    /// Raw bytes from an 8-byte boundary, with their length.
    package mutating func raw(_ source: UnsafeRawBufferPointer) {
        int(source.count)
        align()
        bytes.append(contentsOf: source)
        align()
    }

    /// Starts a nested record, read back like `raw` bytes (its length, then
    /// its bytes from an 8-byte boundary): write its content, then `endRecord`
    /// with what this returned, which fills in the length.
    package mutating func beginRecord() -> Int {
        let lengthAt = bytes.count
        int(0)
        align()
        return lengthAt
    }

    package mutating func endRecord(_ lengthAt: Int) {
        let start = lengthAt + 8 + (8 - (lengthAt + 8) & 7) & 7
        let length = UInt64(bytes.count - start).littleEndian
        withUnsafeBytes(of: length) { value in
            for index in 0..<8 { bytes[lengthAt + index] = value[index] }
        }
        align()
    }
}
