// SPDX-License-Identifier: Apache-2.0
/// Copies of batches with fewer rows or moved coordinates: what a reader's
/// page becomes after a local filter (rows a server could not filter) or a
/// local projection (a server that cannot serve the table's spatial reference).
extension FeatureBatch {
    /// The given rows (ascending), in a new batch; `self` when every row is kept.
    func selecting(_ rows: [Int]) -> FeatureBatch {
        guard rows.count != count else { return self }
        return gathering(rows, spatial: isInSpatialOrder)  // ascending rows keep the order
    }

    /// The given rows, in the order given (any order, each row once), in a new
    /// batch; `spatial` says whether they are in spatial order.
    func gathering(_ rows: [Int], spatial: Bool) -> FeatureBatch {
        return FeatureBatch(columns: columns.map { $0.selecting(rows) }, geometry: geometry.selecting(rows),
                            count: rows.count, objectIdColumn: objectIdColumn,
                            objectIds: objectIds.isEmpty ? [] : rows.map { objectIds[$0] }, geometryTolerance: geometryTolerance,
                            isInSpatialOrder: spatial)
    }

    /// The batch with every coordinate passed through `transform` (x, y → x, y).
    func mappingCoordinates(_ transform: (Double, Double) -> (Double, Double)) -> FeatureBatch {
        var mapped = GeometryColumnBuilder()
        for row in 0..<count { mapped.appendMapped(geometry.wkb(row), transform) }
        return FeatureBatch(columns: columns, geometry: mapped.finish(), count: count,
                            objectIdColumn: objectIdColumn, objectIds: objectIds, geometryTolerance: geometryTolerance,
                            isInSpatialOrder: isInSpatialOrder)
    }
}

extension Column {
    func selecting(_ rows: [Int]) -> Column {
        var validity: Bitmap? = nil
        if let source = self.validity {
            var kept = Bitmap()
            kept.reserveCapacity(rows.count)
            for row in rows { kept.append(source[row]) }
            validity = kept
        }
        switch kind {
        case .int64, .boolean:
            return Column(field: field, kind: kind, integers: rows.map { integers[$0] }, validity: validity)
        case .double:
            return Column(field: field, kind: kind, doubles: rows.map { doubles[$0] }, validity: validity)
        case .string:
            guard let source = bytes else {
                return Column(field: field, kind: kind, offsets: [UInt32](repeating: 0, count: rows.count + 1),
                              bytes: FrozenBytes([]), validity: validity)
            }
            let gathered = source.gatheringSlices(rows, offsets: offsets)
            return Column(field: field, kind: kind, offsets: gathered.offsets, bytes: gathered.bytes, validity: validity)
        }
    }
}

extension GeometryColumn {
    /// The given rows, in the order given, in a new column of the same layout.
    func selecting(_ rows: [Int]) -> GeometryColumn {
        if isPointsOnly {
            let size = Self.pointSize
            let points = FrozenBytes(count: rows.count * size) { target in
                for (index, row) in rows.enumerated() {
                    (target + index * size).copyMemory(from: bytes.base + row * size, byteCount: size)
                }
            }
            return GeometryColumn(bytes: points, offsets: nil, boxes: nil, count: rows.count)
        }
        let storedBoxes = boxes!
        var boxes: [Double] = []
        boxes.reserveCapacity(4 * rows.count)
        for row in rows { boxes.append(contentsOf: storedBoxes[4 * row ..< 4 * row + 4]) }
        let wkb = bytes.gatheringSlices(rows, offsets: offsets!)
        return GeometryColumn(bytes: wkb.bytes, offsets: wkb.offsets, boxes: boxes, count: rows.count)
    }
}

extension GeometryColumnBuilder {
    /// Appends `wkb` (little-endian ISO, as the library's readers write it) with
    /// every x and y transformed; a row that is not such WKB is kept empty.
    mutating func appendMapped(_ wkb: UnsafeRawBufferPointer, _ transform: (Double, Double) -> (Double, Double)) {
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
