// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The immutable values of one of a batch's buffers (a column's integers or
/// doubles, string or geometry offsets, boxes, object ids) at a fixed address:
/// memory of their own, or borrowed where a cache file read whole holds them
/// (`BatchCodec`: a reopened table's columns are used in place, not copied).
/// Indexed like an array, bounds checked.
package struct ColumnBuffer<Element: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
    /// Keeps `base` alive: nil only when empty.
    private let storage: FrozenBytes?
    private let base: UnsafePointer<Element>?
    package let count: Int

    package init() {
        storage = nil
        base = nil
        count = 0
    }

    /// A copy of `values`.
    package init(_ values: [Element]) {
        guard !values.isEmpty else {
            self.init()
            return
        }
        let storage = values.withUnsafeBytes { FrozenBytes(copying: $0) }
        self.init(storage, base: storage.base, count: values.count)
    }

    /// `count` values written in place by `fill` (every one of them), with no array in between.
    package init(count: Int, fill: (UnsafeMutableBufferPointer<Element>) -> Void) {
        guard count > 0 else {
            self.init()
            return
        }
        let storage = FrozenBytes(count: count * MemoryLayout<Element>.stride) { target in
            fill(UnsafeMutableBufferPointer(start: target.bindMemory(to: Element.self, capacity: count), count: count))
        }
        self.init(storage, base: storage.base, count: count)
    }

    /// `count` values at `base`, inside `storage`; copied when `base` is not
    /// aligned for them.
    package init(borrowing base: UnsafeRawPointer, count: Int, in storage: FrozenBytes) {
        guard count > 0 else {
            self.init()
            return
        }
        guard Int(bitPattern: base) % MemoryLayout<Element>.alignment == 0 else {
            let copy = FrozenBytes(copying: UnsafeRawBufferPointer(start: base, count: count * MemoryLayout<Element>.stride))
            self.init(copy, base: copy.base, count: count)
            return
        }
        self.init(storage, base: base, count: count)
    }

    private init(_ storage: FrozenBytes, base: UnsafeRawPointer, count: Int) {
        self.storage = storage
        self.base = base.assumingMemoryBound(to: Element.self)
        self.count = count
    }

    @inline(__always) package var startIndex: Int { 0 }
    @inline(__always) package var endIndex: Int { count }

    @inline(__always)
    package subscript(index: Int) -> Element {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "ColumnBuffer index out of range")
        return base.unsafelyUnwrapped[index]
    }

    /// The first `n` values, sharing this buffer's memory.
    package func first(_ n: Int) -> ColumnBuffer {
        let n = Swift.max(0, Swift.min(n, count))
        guard n > 0, let storage, let base else { return ColumnBuffer() }
        return ColumnBuffer(storage, base: UnsafeRawPointer(base), count: n)
    }

    @inline(__always)
    package func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    package var byteSize: Int { count * MemoryLayout<Element>.stride }
}

extension ColumnBuffer: Equatable where Element: Equatable {
    package static func == (lhs: ColumnBuffer, rhs: ColumnBuffer) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension ColumnBuffer {
    /// `value(address)` for each of `rows`, in order.
    package init(gathering rows: [RowAddress], _ value: (RowAddress) -> Element) {
        self.init(count: rows.count) { target in
            for (index, address) in rows.enumerated() { target[index] = value(address) }
        }
    }
}
