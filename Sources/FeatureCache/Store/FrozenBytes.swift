// SPDX-License-Identifier: Apache-2.0
/// Immutable bytes at a fixed address for the life of the object, so C callers can
/// borrow pointers into them (strings as `const char *`, geometry as WKB) for as
/// long as they hold the result that owns them.
public final class FrozenBytes: @unchecked Sendable {
    public let base: UnsafeRawPointer
    public let count: Int

    init(_ bytes: [UInt8]) {
        let storage = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { if let source = $0.baseAddress { storage.copyMemory(from: source, byteCount: $0.count) } }
        base = UnsafeRawPointer(storage)
        count = bytes.count
    }

    /// `count` bytes written in place by `fill`, with no array in between.
    init(count: Int, fill: (UnsafeMutableRawPointer) -> Void) {
        let storage = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 8)
        fill(storage)
        base = UnsafeRawPointer(storage)
        self.count = count
    }

    /// The slices `offsets[row] ..< offsets[row + 1]` of `rows`, in that order,
    /// back to back (each copied once, into its place), with their offsets.
    func gatheringSlices(_ rows: [Int], offsets: [UInt32]) -> (bytes: FrozenBytes, offsets: [UInt32]) {
        var gathered: [UInt32] = [0]
        gathered.reserveCapacity(rows.count + 1)
        var total = 0
        for row in rows {
            total += Int(offsets[row + 1] - offsets[row])
            gathered.append(UInt32(total))
        }
        let bytes = FrozenBytes(count: total) { target in
            for (index, row) in rows.enumerated() {
                (target + Int(gathered[index])).copyMemory(from: base + Int(offsets[row]), byteCount: Int(offsets[row + 1] - offsets[row]))
            }
        }
        return (bytes, gathered)
    }

    deinit { UnsafeMutableRawPointer(mutating: base).deallocate() }

    @inline(__always)
    public subscript(range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    @inline(__always)
    func loadDouble(at offset: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }
}
