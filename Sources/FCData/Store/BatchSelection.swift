// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Copies of batches with fewer rows or moved coordinates: what a reader's
/// page becomes after a local filter (rows a server could not filter) or a
/// local projection (a server that cannot serve the table's spatial reference).
extension FeatureBatch {
    /// The given rows (ascending), in a new batch; `self` when every row is kept.
    package func selecting(_ rows: [Int]) -> FeatureBatch {
        guard rows.count != count else { return self }
        return gathering(rows, spatial: isInSpatialOrder)  // ascending rows keep the order
    }

    /// The batch with only the columns `outFields` names (ignoring case; `*`,
    /// empty or nil: all), and the object-id column always: what a server sends
    /// for a query's out fields. `self` when every column is kept.
    package func projecting(_ outFields: [String]?) -> FeatureBatch {
        guard let outFields, !outFields.isEmpty, !outFields.contains("*") else { return self }
        let wanted = Set(outFields.map { $0.lowercased() })
        let kept = columns.indices.filter { $0 == objectIdColumn || wanted.contains(columns[$0].field.name.lowercased()) }
        guard kept.count != columns.count else { return self }
        return FeatureBatch(
            columns: kept.map { columns[$0] }, geometry: geometry, count: count,
            objectIdColumn: objectIdColumn.flatMap { kept.firstIndex(of: $0) }, objectIds: objectIds,
            geometryTolerance: geometryTolerance, isInSpatialOrder: isInSpatialOrder)
    }

    /// The given rows, in the order given (any order, each row once), in a new
    /// batch; `spatial` says whether they are in spatial order.
    package func gathering(_ rows: [Int], spatial: Bool) -> FeatureBatch {
        Self.gathering(RowAddress.rows(rows), from: [self], spatial: spatial)
    }

    /// Every row of `parts` (batches of one layout), part after part, in one new batch.
    package static func concatenating(_ parts: consuming [FeatureBatch]) -> FeatureBatch {
        let rows = RowAddress.everyRow(ofParts: parts.map(\.count))
        return gathering(rows, from: consume parts, spatial: false)
    }

    /// The addressed rows of `parts` (batches of one layout, `hasLayout(of:)`),
    /// in the order given, in one new batch: each value copied once, with no
    /// concatenation of the parts in between. The parts are taken apart first
    /// and each column of theirs is let go as soon as it is gathered: when the
    /// caller hands them over (a compaction's pages, `consume`), the rows are
    /// held about once during the copy (the new batch's columns so far, the
    /// pages' columns still to go), not twice. A part something else holds
    /// simply stays until that goes.
    package static func gathering(_ rows: [RowAddress], from parts: consuming [FeatureBatch], spatial: Bool) -> FeatureBatch {
        let objectIdColumn = parts[0].objectIdColumn, tolerance = parts[0].geometryTolerance
        var columns = parts.map(\.columns)
        var geometries = parts.map(\.geometry)
        var objectIds = parts[0].objectIds.isEmpty ? [] : parts.map(\.objectIds)
        _ = consume parts  // the batches go; their storage is held by the lists above alone
        let geometry = GeometryColumn.gathering(rows, from: geometries)
        geometries = []
        var gathered: [Column] = []
        gathered.reserveCapacity(columns[0].count)
        for index in columns[0].indices {
            gathered.append(Column.gathering(rows, from: columns.map { $0[index] }))
            for part in columns.indices { columns[part][index] = columns[part][index].emptied }
        }
        let ids = objectIds.isEmpty ? ColumnBuffer() : ColumnBuffer(gathering: rows) { objectIds[$0.part][$0.row] }
        objectIds = []
        return FeatureBatch(
            columns: gathered, geometry: geometry, count: rows.count, objectIdColumn: objectIdColumn,
            objectIds: ids, geometryTolerance: tolerance, isInSpatialOrder: spatial)
    }

    /// The batch with every coordinate passed through `transform` (x, y → x, y).
    package func mappingCoordinates(_ transform: CoordinateTransform) -> FeatureBatch {
        let moved: GeometryColumn
        if let points = geometry.projectingPoints(transform) {
            moved = points
        } else {
            var mapped = GeometryColumnBuilder()
            transform.withPointFunction { point in
                for row in 0..<count { mapped.appendMapped(geometry.wkb(row), point) }
            }
            moved = mapped.finish()
        }
        return FeatureBatch(
            columns: columns, geometry: moved, count: count,
            objectIdColumn: objectIdColumn, objectIds: objectIds, geometryTolerance: geometryTolerance,
            isInSpatialOrder: isInSpatialOrder)
    }
}

/// A row of one of several batches (or columns) being gathered into one:
/// the part's index and the row's, packed in one word.
package struct RowAddress {
    private let bits: Int

    package init(part: Int, row: Int) { bits = part << 32 | row }

    @inline(__always) package var part: Int { bits >> 32 }
    @inline(__always) package var row: Int { bits & 0xFFFF_FFFF }

    /// Rows of part 0.
    package static func rows(_ rows: [Int]) -> [RowAddress] { rows.map { RowAddress(part: 0, row: $0) } }

    /// Every row of parts of these row counts, part after part.
    package static func everyRow(ofParts counts: [Int]) -> [RowAddress] {
        var rows: [RowAddress] = []
        rows.reserveCapacity(counts.reduce(0, +))
        for (part, count) in counts.enumerated() {
            for row in 0..<count { rows.append(RowAddress(part: part, row: row)) }
        }
        return rows
    }
}

extension Column {
    /// The same field with no values: what a column taken apart leaves behind.
    package var emptied: Column { Column(field: field, kind: kind, validity: nil) }

    /// The addressed rows of `parts` (one field, one kind) in a new column.
    package static func gathering(_ rows: [RowAddress], from parts: [Column]) -> Column {
        let first = parts[0]
        var validity: Bitmap? = nil
        if parts.contains(where: { $0.validity != nil }) {
            let bits = parts.map(\.validity)
            var kept = Bitmap()
            kept.reserveCapacity(rows.count)
            for address in rows { kept.append(bits[address.part]?[address.row] ?? true) }
            validity = kept
        }
        // Each part's values by address, read with no Column copied per value
        // (a copy retains and releases each of its buffers). The parts outlive the loop.
        func gathered<T: BitwiseCopyable>(_ buffers: [ColumnBuffer<T>]) -> ColumnBuffer<T> {
            let bases = buffers.map { buffer in buffer.withUnsafeBufferPointer { $0 } }
            return withExtendedLifetime(buffers) {
                ColumnBuffer(gathering: rows) { bases[$0.part][$0.row] }
            }
        }
        switch first.kind {
        case .int64, .boolean:
            return Column(field: first.field, kind: first.kind, integers: gathered(parts.map(\.integers)), validity: validity)
        case .double:
            return Column(field: first.field, kind: first.kind, doubles: gathered(parts.map(\.doubles)), validity: validity)
        case .string:
            let gathered = FrozenBytes.gatheringSlices(rows, from: parts.map { ($0.bytes, $0.offsets) })
            return Column(field: first.field, kind: first.kind, offsets: gathered.offsets, bytes: gathered.bytes, validity: validity)
        }
    }
}

extension GeometryColumn {
    /// The addressed rows of `parts` in a new column: points only (no offsets,
    /// no boxes) when every part is.
    package static func gathering(_ rows: [RowAddress], from parts: [GeometryColumn]) -> GeometryColumn {
        if parts.allSatisfy(\.isPointsOnly) {
            let size = pointSize
            let points = FrozenBytes(count: rows.count * size) { target in
                for (index, address) in rows.enumerated() {
                    (target + index * size).copyMemory(from: parts[address.part].bytes.base + address.row * size, byteCount: size)
                }
            }
            return GeometryColumn(bytes: points, offsets: nil, boxes: nil, count: rows.count)
        }
        let boxes = ColumnBuffer<Double>(count: 4 * rows.count) { boxes in
            for (index, address) in rows.enumerated() {
                let box = parts[address.part].box(address.row)
                boxes[4 * index] = box.xmin; boxes[4 * index + 1] = box.ymin; boxes[4 * index + 2] = box.xmax;
                boxes[4 * index + 3] = box.ymax
            }
        }
        let wkb = FrozenBytes.gatheringSlices(rows, from: parts.map { part in (part.bytes, part.offsets ?? part.pointOffsets) })
        return GeometryColumn(bytes: wkb.bytes, offsets: wkb.offsets, boxes: boxes, count: rows.count)
    }

    /// The offsets a points-only column implies.
    package var pointOffsets: ColumnBuffer<UInt32> {
        ColumnBuffer(count: count + 1) { for row in 0...count { $0[row] = UInt32(row * Self.pointSize) } }
    }
}

extension GeometryColumnBuilder {
    /// Appends `wkb` (little-endian ISO, as the library's readers write it) with
    /// every x and y transformed; a row that is not such WKB is kept empty.
    package mutating func appendMapped(_ wkb: UnsafeRawBufferPointer, _ transform: (Double, Double) -> (Double, Double)) {
        guard !wkb.isEmpty else { return appendNull() }
        var bytes = Array(wkb)
        var box = BoundingBox()
        var walker = WKBCoordinateWalker(count: bytes.count)
        let ok = bytes.withUnsafeMutableBytes { buffer in
            walker.walk(buffer) { x, y in
                let moved = transform(x, y)
                box.add(moved.0, moved.1)
                return moved
            }
        }
        guard ok, box.xmin.isFinite, box.ymin.isFinite, box.xmax.isFinite, box.ymax.isFinite else { return appendNull() }
        if bytes.count == GeometryColumn.pointSize, bytes[1] == 1, bytes[2] == 0 {
            return appendComputedPoint(box.xmin, box.ymin)
        }
        appendWKB(bytes, box)
    }
}

/// Visits the XY coordinates of little-endian ISO WKB in place (Z and M kept
/// as they are).
private struct WKBCoordinateWalker {
    let count: Int
    private var offset = 0
    /// Bytes per vertex of the geometry being walked: 16, 24 or 32.
    private var vertexBytes = 16

    init(count: Int) { self.count = count }

    mutating func walk(_ bytes: UnsafeMutableRawBufferPointer, _ visit: (Double, Double) -> (Double, Double)) -> Bool {
        offset = 0
        return geometry(bytes, visit) && offset == count
    }

    private mutating func uint32(_ bytes: UnsafeMutableRawBufferPointer) -> UInt32? {
        guard offset + 4 <= count else { return nil }
        defer { offset += 4 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    private mutating func points(_ bytes: UnsafeMutableRawBufferPointer, _ n: Int, _ visit: (Double, Double) -> (Double, Double)) -> Bool {
        guard n >= 0, n <= (count - offset) / vertexBytes else { return false }
        for _ in 0..<n {
            let x = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            let y = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
            let moved = visit(x, y)
            bytes.storeBytes(of: moved.0.bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
            bytes.storeBytes(of: moved.1.bitPattern.littleEndian, toByteOffset: offset + 8, as: UInt64.self)
            offset += vertexBytes
        }
        return true
    }

    private mutating func geometry(_ bytes: UnsafeMutableRawBufferPointer, _ visit: (Double, Double) -> (Double, Double)) -> Bool {
        guard offset < count, bytes[offset] == 1 else { return false }
        offset += 1
        guard let code = uint32(bytes), code < 4000 else { return false }
        vertexBytes = 16 + 8 * VertexLayout(wkbType: code).extra
        switch code % 1000 {
        case 1: return points(bytes, 1, visit)
        case 2: return uint32(bytes).map { points(bytes, Int($0), visit) } ?? false
        case 3:
            guard let rings = uint32(bytes) else { return false }
            for _ in 0..<rings {
                guard let n = uint32(bytes), points(bytes, Int(n), visit) else { return false }
            }
            return true
        case 4, 5, 6, 7:
            guard let members = uint32(bytes) else { return false }
            for _ in 0..<members where !geometry(bytes, visit) { return false }
            return true
        default: return false
        }
    }
}
