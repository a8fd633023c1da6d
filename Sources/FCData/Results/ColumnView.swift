// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A stored column's buffers as bare addresses, for reading a result's cells
/// one at a time (the C accessors: a million calls for a million values) with
/// no reference counted in or out: a `Column` copied per cell retains and
/// releases each of its buffers. Valid while the column's batch lives — a
/// `FeatureResult` keeps its batches, and so its views, alive.
package struct ColumnView: @unchecked Sendable {
    package let kind: ColumnKind
    /// False for a column the row's batch lacks: every value NULL.
    private let present: Bool
    private let integers: UnsafePointer<Int64>?
    private let doubles: UnsafePointer<Double>?
    private let offsets: UnsafePointer<UInt32>?
    private let bytes: UnsafeRawPointer?
    /// The validity bits (nil: no value is NULL), and how many rows they cover.
    private let validity: UnsafePointer<UInt64>?
    private let validityCount: Int

    /// A batch's column; nil = the batch lacks the field.
    package init(_ column: Column?) {
        guard let column else {
            (kind, present, integers, doubles, offsets, bytes, validity, validityCount) = (.int64, false, nil, nil, nil, nil, nil, 0)
            return
        }
        kind = column.kind
        present = true
        integers = column.integers.withUnsafeBufferPointer { $0.baseAddress }
        doubles = column.doubles.withUnsafeBufferPointer { $0.baseAddress }
        offsets = column.offsets.withUnsafeBufferPointer { $0.baseAddress }
        bytes = column.bytes?.base
        // A Bitmap's words never move while it is not mutated (the batch's
        // columns never are), as ArrowBuffer's frozenAddress relies on too.
        validity = column.validity.flatMap { bitmap in bitmap.words.withUnsafeBufferPointer { $0.baseAddress } }
        validityCount = column.validity?.count ?? 0
    }

    @inline(__always)
    package func isNull(_ row: Int) -> Bool {
        guard present else { return true }
        guard let validity else { return false }
        return row >= validityCount || validity[row >> 6] & (1 << UInt64(row & 63)) == 0
    }

    /// The value of a non-NULL row of an integer or boolean column.
    @inline(__always)
    package func int64(_ row: Int) -> Int64 { integers.unsafelyUnwrapped[row] }

    /// The value of a non-NULL row of a numeric column, integers converted.
    @inline(__always)
    package func double(_ row: Int) -> Double { kind == .double ? doubles.unsafelyUnwrapped[row] : Double(int64(row)) }

    /// The UTF-8 bytes of a non-NULL row of a text column, without its NUL.
    @inline(__always)
    package func stringBytes(_ row: Int) -> UnsafeRawBufferPointer {
        let start = Int(offsets.unsafelyUnwrapped[row]), end = Int(offsets.unsafelyUnwrapped[row + 1]) - 1
        return UnsafeRawBufferPointer(start: bytes.unsafelyUnwrapped + start, count: end - start)
    }

    /// The same as a C string (the column keeps a NUL after each value).
    @inline(__always)
    package func cString(_ row: Int) -> UnsafePointer<CChar> {
        (bytes.unsafelyUnwrapped + Int(offsets.unsafelyUnwrapped[row])).assumingMemoryBound(to: CChar.self)
    }
}

/// A batch's object ids and geometry as bare addresses, as `ColumnView` keeps a column's.
package struct RowView: @unchecked Sendable {
    private let objectIds: UnsafePointer<Int64>?
    private let geometry: UnsafeRawPointer?
    /// nil: points only, `GeometryColumn.pointSize` bytes each.
    private let geometryOffsets: UnsafePointer<UInt32>?
    private let geometryCount: Int

    package init(_ batch: FeatureBatch) {
        objectIds = batch.objectIdValues.withUnsafeBufferPointer { $0.baseAddress }
        geometry = batch.geometry.bytes.base
        geometryOffsets = batch.geometry.offsets?.withUnsafeBufferPointer { $0.baseAddress }
        geometryCount = batch.geometry.count
    }

    @inline(__always)
    package func objectId(_ row: Int) -> Int64 { objectIds.unsafelyUnwrapped[row] }

    @inline(__always)
    package func wkb(_ row: Int) -> UnsafeRawBufferPointer {
        guard let geometry, row < geometryCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        guard let offsets = geometryOffsets else {
            return UnsafeRawBufferPointer(start: geometry + row * GeometryColumn.pointSize, count: GeometryColumn.pointSize)
        }
        let start = Int(offsets[row])
        return UnsafeRawBufferPointer(start: geometry + start, count: Int(offsets[row + 1]) - start)
    }
}
