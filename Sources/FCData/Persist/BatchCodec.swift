// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A `FeatureBatch` in a cache file: its schema, then each column's buffers as
/// the batch holds them in memory (Arrow's layout: values, 32-bit string
/// offsets, validity bits least significant first), the geometry's WKB, offsets
/// and boxes, and the object ids. Reading parses no value: each buffer becomes
/// its column where it lies, borrowed from the file read whole when the reader
/// has an owner for it (copied once otherwise), then what later code relies on
/// without checking again is checked (offsets in range and ordered, strings
/// NUL-terminated, WKB well formed), so a file that lies fails here, not in a query.
package enum BatchCodec {
    /// Writes `batch`; returns where each column's part lies in `out` (read
    /// back alone by `readColumn`: a segment's directory names them).
    @discardableResult
    package static func write(_ batch: FeatureBatch, to out: inout BinaryWriter) -> [Range<Int>] {
        var columnRanges: [Range<Int>] = []
        out.int(batch.count)
        out.i64(Int64(batch.objectIdColumn ?? -1))
        out.f64(batch.geometryTolerance)
        out.bool(batch.isInSpatialOrder)
        out.u32(UInt32(batch.columns.count))
        for column in batch.columns {
            let start = out.bytes.count
            defer { columnRanges.append(start..<out.bytes.count) }
            MetadataCodec.write(column.field, to: &out)
            out.u8(kindCode(column.kind))
            switch column.kind {
            case .int64, .boolean: out.buffer(column.integers)
            case .double: out.buffer(column.doubles)
            case .string:
                out.buffer(column.offsets)
                out.raw(column.bytes.map { $0[0..<$0.count] } ?? UnsafeRawBufferPointer(start: nil, count: 0))
            }
            out.bool(column.validity != nil)
            if let validity = column.validity { out.buffer(validity.words) }
        }
        let geometry = batch.geometry
        out.raw(geometry.bytes[0..<geometry.bytes.count])
        out.bool(geometry.offsets != nil)
        if let offsets = geometry.offsets { out.buffer(offsets) }
        out.bool(geometry.boxes != nil)
        if let boxes = geometry.boxes { out.buffer(boxes) }
        if batch.objectIdColumn == nil { out.buffer(batch.objectIds) }
        return columnRanges
    }

    package static func read(from input: inout BinaryReader) throws(FeatureCacheError) -> FeatureBatch {
        let count = try input.int(limit: Int(UInt32.max) - 1)
        let oidColumn = try input.i64()
        let tolerance = try input.f64()
        let spatialOrder = try input.bool()
        let columnCount = Int(try input.u32())
        guard columnCount <= input.remaining / 16 else { throw input.corrupt("\(columnCount) columns cannot fit") }
        guard tolerance.isFinite, tolerance >= 0 else { throw input.corrupt("a geometry tolerance of \(tolerance)") }
        guard oidColumn >= -1, oidColumn < Int64(columnCount) else { throw input.corrupt("object id column \(oidColumn)") }
        var columns: [Column] = []
        columns.reserveCapacity(columnCount)
        for _ in 0..<columnCount { columns.append(try readColumn(&input, rows: count)) }
        if oidColumn >= 0, columns[Int(oidColumn)].kind != .int64 { throw input.corrupt("the object id column holds no integers") }
        let geometry = try readGeometry(&input, rows: count)
        let objectIds = oidColumn < 0 ? try input.values(of: Int64.self, expecting: count) : ColumnBuffer()
        return FeatureBatch(
            columns: columns, geometry: geometry, count: count, objectIdColumn: oidColumn < 0 ? nil : Int(oidColumn),
            objectIds: objectIds, geometryTolerance: tolerance, isInSpatialOrder: spatialOrder)
    }

    private static func kindCode(_ kind: ColumnKind) -> UInt8 {
        switch kind {
        case .int64: 0
        case .double: 1
        case .string: 2
        case .boolean: 3
        }
    }

    /// One column's part, as `write` put it between the ranges it returned
    /// (`input` positioned at its start, 8-byte aligned as it was written).
    package static func readColumn(_ input: inout BinaryReader, rows: Int) throws(FeatureCacheError) -> Column {
        let field = try MetadataCodec.readField(&input)
        let code = try input.u8()
        let kind: ColumnKind
        switch code {
        case 0: kind = .int64
        case 1: kind = .double
        case 2: kind = .string
        case 3: kind = .boolean
        default: throw input.corrupt("column kind \(code)")
        }
        var integers = ColumnBuffer<Int64>(), doubles = ColumnBuffer<Double>(), offsets = ColumnBuffer<UInt32>()
        var bytes: FrozenBytes?
        switch kind {
        case .int64, .boolean: integers = try input.values(of: Int64.self, expecting: rows)
        case .double: doubles = try input.values(of: Double.self, expecting: rows)
        case .string:
            offsets = try input.values(of: UInt32.self, expecting: rows + 1)
            let raw = try input.frozenRaw()
            try checkStrings(offsets, raw[0..<raw.count], &input)
            bytes = raw
        }
        var validity: Bitmap?
        if try input.bool() {
            guard let bits = Bitmap(words: try input.buffer(of: UInt64.self), count: rows) else {
                throw input.corrupt("the validity of column \(field.name) does not fit its \(rows) rows")
            }
            validity = bits
        }
        return Column(field: field, kind: kind, integers: integers, doubles: doubles, offsets: offsets, bytes: bytes, validity: validity)
    }

    /// Every value is at least its NUL, in order, inside the bytes.
    private static func checkStrings(
        _ offsets: ColumnBuffer<UInt32>, _ bytes: UnsafeRawBufferPointer, _ input: inout BinaryReader
    ) throws(FeatureCacheError) {
        guard offsets.first == 0, Int(offsets.last!) == bytes.count else { throw input.corrupt("string offsets do not span their bytes") }
        for index in 1..<offsets.count {
            let end = Int(offsets[index])
            guard end <= bytes.count, offsets[index - 1] < offsets[index], bytes[end - 1] == 0 else {
                throw input.corrupt("string value \(index - 1) is out of order or not terminated")
            }
        }
    }

    private static func readGeometry(_ input: inout BinaryReader, rows: Int) throws(FeatureCacheError) -> GeometryColumn {
        let bytes = try input.frozenRaw()
        let raw = bytes[0..<bytes.count]
        let offsets = try input.bool() ? try input.values(of: UInt32.self, expecting: rows + 1) : nil
        let boxes = try input.bool() ? try input.values(of: Double.self, expecting: 4 * rows) : nil
        if let offsets {
            guard boxes != nil, offsets.first == 0, Int(offsets.last!) == raw.count else {
                throw input.corrupt("geometry offsets do not span their bytes")
            }
            for row in 0..<rows {
                let start = Int(offsets[row]), end = Int(offsets[row + 1])
                guard start <= end, end <= raw.count else { throw input.corrupt("geometry \(row) is out of order") }
                if end > start {
                    do { _ = try VertexGeometry(wkb: UnsafeRawBufferPointer(rebasing: raw[start..<end])) } catch {
                        throw input.corrupt("geometry \(row) is not well-formed WKB")
                    }
                }
            }
        } else {
            guard boxes == nil, raw.count == rows * GeometryColumn.pointSize else {
                throw input.corrupt("a column of points must hold 21 bytes a row")
            }
        }
        return GeometryColumn(bytes: bytes, offsets: offsets, boxes: boxes, count: rows)
    }
}
