// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Immutable bytes at a fixed address for the life of the object, so C callers can
/// borrow pointers into them (strings as `const char *`, geometry as WKB) for as
/// long as they hold the result that owns them. The bytes are the object's own,
/// or borrowed from an owner that keeps them (a cache file read whole: its
/// columns are used where they lie, not copied).
public final class FrozenBytes: @unchecked Sendable {
    public let base: UnsafeRawPointer
    public let count: Int
    /// What keeps borrowed bytes alive; nil when they are this object's own.
    private let owner: (any AnyObject & Sendable)?

    package convenience init(_ bytes: [UInt8]) {
        self.init(count: bytes.count) { target in bytes.withUnsafeBytes { FrozenBytes.copy($0, to: target) } }
    }

    /// A copy of `bytes`, in memory of its own.
    package convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(count: bytes.count) { FrozenBytes.copy(bytes, to: $0) }
    }

    private static func copy(_ bytes: UnsafeRawBufferPointer, to target: UnsafeMutableRawPointer) {
        if let source = bytes.baseAddress { target.copyMemory(from: source, byteCount: bytes.count) }
    }

    /// `count` bytes written in place by `fill`, with no array in between.
    package init(count: Int, fill: (UnsafeMutableRawPointer) -> Void) {
        let storage = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 8)
        fill(storage)
        base = UnsafeRawPointer(storage)
        self.count = count
        owner = nil
    }

    /// Bytes that stay where they are, alive and unchanged as long as `owner` is
    /// (at least one: an empty value needs an address of its own).
    package init(borrowing bytes: UnsafeRawBufferPointer, from owner: any AnyObject & Sendable) {
        precondition(bytes.count > 0, "nothing to borrow")
        base = bytes.baseAddress!
        count = bytes.count
        self.owner = owner
    }

    /// The slices `offsets[row] ..< offsets[row + 1]` of the addressed rows of
    /// `parts` (bytes and their offsets; no bytes: every slice empty), in that
    /// order, back to back (each copied once, into its place), with their offsets.
    package static func gatheringSlices(
        _ rows: [RowAddress], from parts: [(bytes: FrozenBytes?, offsets: ColumnBuffer<UInt32>)]
    ) -> (bytes: FrozenBytes, offsets: ColumnBuffer<UInt32>) {
        var gathered: [UInt32] = [0]
        gathered.reserveCapacity(rows.count + 1)
        var total = 0
        for address in rows {
            let offsets = parts[address.part].offsets
            total += Int(offsets[address.row + 1] - offsets[address.row])
            gathered.append(UInt32(total))
        }
        let bytes = FrozenBytes(count: total) { target in
            for (index, address) in rows.enumerated() {
                let part = parts[address.part]
                let start = Int(part.offsets[address.row]), length = Int(part.offsets[address.row + 1]) - start
                guard length > 0, let source = part.bytes else { continue }
                (target + Int(gathered[index])).copyMemory(from: source.base + start, byteCount: length)
            }
        }
        return (bytes, ColumnBuffer(gathered))
    }

    deinit { if owner == nil { UnsafeMutableRawPointer(mutating: base).deallocate() } }

    @inline(__always)
    public subscript(range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    @inline(__always)
    package func loadDouble(at offset: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }
}
