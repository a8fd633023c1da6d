// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Memory for the buffers of an Arrow export. Arrow consumers read raw pointers
/// until they release what they imported, so every buffer handed out is either
/// owned here (`ArrowBuffer`, freed when the last array using it is released) or
/// borrowed from the store and kept alive by retaining the batch that holds it.

/// A buffer the export allocated: a copy or a conversion of store data.
/// 64-byte aligned, as the Arrow format recommends; zero-filled.
package final class ArrowBuffer: @unchecked Sendable {
    package let base: UnsafeMutableRawPointer

    package init(byteCount: Int) {
        base = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 64)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 1))
    }

    deinit { base.deallocate() }

    @inline(__always)
    package func typed<T>(_: T.Type) -> UnsafeMutablePointer<T> { base.assumingMemoryBound(to: T.self) }
}

/// 64 zero bytes: the buffer of an empty array, where Arrow wants a pointer
/// but there is nothing to point at (a zero-length offsets buffer still needs
/// its one 0). Never written.
nonisolated(unsafe) let arrowZeros: UnsafeRawPointer = {
    let block = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
    block.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
    return UnsafeRawPointer(block)
}()

extension Array where Element: BitwiseCopyable {
    /// The address of the elements of an array that is never mutated again and
    /// that the caller keeps alive (a column of an immutable batch). A native
    /// array's elements live in one heap object that Swift never moves; with no
    /// mutation there is no copy-on-write, so the address stays valid for as long
    /// as the array's storage is retained. Empty arrays give `arrowZeros`.
    package var frozenAddress: UnsafeRawPointer {
        withUnsafeBufferPointer { buffer in buffer.isEmpty ? arrowZeros : UnsafeRawPointer(buffer.baseAddress!) }
    }
}

extension ColumnBuffer {
    /// The address of the values, for as long as the buffer is kept alive
    /// (its batch is an owner of the exported array). Empty buffers give `arrowZeros`.
    package var frozenAddress: UnsafeRawPointer {
        withUnsafeBufferPointer { buffer in buffer.isEmpty ? arrowZeros : UnsafeRawPointer(buffer.baseAddress!) }
    }
}
