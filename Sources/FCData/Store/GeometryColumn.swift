// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The geometries of a batch: ISO WKB bytes, row offsets into them and a bounding
/// box per row. A batch of points only needs neither offsets (every point is 21
/// bytes) nor boxes (a point is its own box), which keeps a cached point at 21 bytes.
public struct GeometryColumn: Sendable {
    public static let pointSize = 21

    package let bytes: FrozenBytes
    /// Row `i` is `bytes[offsets[i] ..< offsets[i+1]]`, empty for no geometry. nil
    /// when every row is a 21-byte point.
    package let offsets: ColumnBuffer<UInt32>?
    /// xmin, ymin, xmax, ymax per row; nil when every row is a point. NaN for no geometry.
    package let boxes: ColumnBuffer<Double>?
    public let count: Int

    /// The WKB of a row; empty when the row has no geometry.
    @inline(__always)
    public func wkb(_ row: Int) -> UnsafeRawBufferPointer {
        guard let offsets else { return bytes[row * Self.pointSize..<(row + 1) * Self.pointSize] }
        return bytes[Int(offsets[row])..<Int(offsets[row + 1])]
    }

    @inline(__always)
    public func box(_ row: Int) -> (xmin: Double, ymin: Double, xmax: Double, ymax: Double) {
        if let boxes { return (boxes[4 * row], boxes[4 * row + 1], boxes[4 * row + 2], boxes[4 * row + 3]) }
        let x = bytes.loadDouble(at: row * Self.pointSize + 5), y = bytes.loadDouble(at: row * Self.pointSize + 13)
        return (x, y, x, y)
    }

    /// Widens `bounds` by row `row`'s box; a row without geometry adds nothing.
    @inline(__always)
    package func addBox(of row: Int, to bounds: inout BoundingBox) {
        let box = box(row)
        guard !box.xmin.isNaN else { return }
        bounds.add(box.xmin, box.ymin)
        bounds.add(box.xmax, box.ymax)
    }

    package func prefix(_ n: Int) -> GeometryColumn {
        GeometryColumn(
            bytes: bytes, offsets: offsets?.first(n + 1), boxes: boxes?.first(4 * n), count: n)
    }

    /// Every row is a point (or empty): no offsets or boxes are stored.
    package var isPointsOnly: Bool { offsets == nil }

    /// A column of points only, every point transformed in one call (PROJ's
    /// array path: no per-row WKB rewriting); nil for any other column, or when
    /// a point cannot be projected (the row-by-row path then leaves it without
    /// geometry).
    package func projectingPoints(_ transform: CoordinateTransform) -> GeometryColumn? {
        guard isPointsOnly, count > 0 else { return nil }
        var xy = [Double](repeating: 0, count: 2 * count)
        for row in 0..<count {
            xy[2 * row] = bytes.loadDouble(at: row * Self.pointSize + 5)
            xy[2 * row + 1] = bytes.loadDouble(at: row * Self.pointSize + 13)
        }
        xy.withUnsafeMutableBufferPointer { transform.transform($0.baseAddress!, count: count) }
        guard xy.allSatisfy(\.isFinite) else { return nil }
        let moved = FrozenBytes(count: bytes.count) { target in
            target.copyMemory(from: bytes.base, byteCount: bytes.count)
            for row in 0..<count {
                target.storeBytes(of: xy[2 * row].bitPattern.littleEndian, toByteOffset: row * Self.pointSize + 5, as: UInt64.self)
                target.storeBytes(of: xy[2 * row + 1].bitPattern.littleEndian, toByteOffset: row * Self.pointSize + 13, as: UInt64.self)
            }
        }
        return GeometryColumn(bytes: moved, offsets: nil, boxes: nil, count: count)
    }

    public var byteSize: Int { bytes.count + (offsets?.byteSize ?? 0) + (boxes?.byteSize ?? 0) }
}

/// Builds a `GeometryColumn` from coordinates as readers find them.
package struct GeometryColumnBuilder {
    private var writer = WKBWriter()
    private var offsets: [UInt32] = [0]
    private var boxes: [Double] = []
    private var onlyPoints = true
    package private(set) var count = 0

    package init() {}

    package mutating func reserveCapacity(_ rows: Int) {
        writer.bytes.reserveCapacity(rows * GeometryColumn.pointSize)
    }

    package mutating func appendNull() {
        leavePointsOnly()
        endRow(BoundingBox())
    }

    /// A point from coordinates the library computed (a copy, a projection):
    /// one that is not finite (a pole in Web Mercator) has no place, so no geometry.
    package mutating func appendComputedPoint(_ x: Double, _ y: Double) {
        guard x.isFinite, y.isFinite else { return appendNull() }
        writePoint(x, y)
    }

    /// A point; NaN in either coordinate is an empty point (Esri JSON writes
    /// `"NaN"` or null for one). An infinite coordinate is an error.
    @inline(__always)
    package mutating func appendPoint(_ x: Double, _ y: Double) throws(FeatureCacheError) {
        guard x.isFinite, y.isFinite else {
            if x.isNaN || y.isNaN { return appendNull() }
            throw nonFinite()
        }
        writePoint(x, y)
    }

    @inline(__always)
    private mutating func writePoint(_ x: Double, _ y: Double) {
        writer.header(.point)
        writer.point(x, y)
        var box = BoundingBox()
        box.add(x, y)
        endRow(box)
    }

    /// Writes the scratch coordinates as `type`, checking they have its shape.
    /// An Esri `rings` array arrives as `.polygon` with `ringsByOrientation`.
    /// Errors are FC_E_PARSE without a place: the reader calling it adds where.
    package mutating func append(_ type: WKBType, _ scratch: CoordinateScratch, ringsByOrientation: Bool = false) throws(FeatureCacheError)
    {
        if scratch.pointCount == 0 { return appendNull() }
        // The box first: it also checks every coordinate is finite before any byte is written.
        var box = BoundingBox()
        for index in 0..<scratch.pointCount {
            let x = scratch.xy[2 * index], y = scratch.xy[2 * index + 1]
            guard x.isFinite, y.isFinite else {
                throw nonFinite()
            }
            box.add(x, y)
        }
        // Z and M may be missing (NaN), not infinite.
        for value in scratch.extras where value.isInfinite { throw nonFinite() }
        let layout = scratch.layout
        func shape(_ expected: Int) throws(FeatureCacheError) {
            guard scratch.depth == expected else {
                let message = "\(type) coordinates must be nested \(expected) levels deep, not \(scratch.depth)"
                throw .parse(message)
            }
        }
        if type != .point || layout != .xy { leavePointsOnly() }
        switch type {
        case .point:
            try shape(1)
            guard layout != .xy else { return try appendPoint(scratch.xy[0], scratch.xy[1]) }
            writer.header(.point, layout)
            writer.vertex(scratch.xy[0], scratch.xy[1], scratch.extra(of: 0))
        case .multiPoint:
            try shape(2)
            writer.header(.multiPoint, layout)
            writer.uint32(UInt32(scratch.pointCount))
            for index in 0..<scratch.pointCount {
                writer.header(.point, layout)
                writer.vertex(scratch.xy[2 * index], scratch.xy[2 * index + 1], layout == .xy ? [] : scratch.extra(of: index))
            }
        case .lineString:
            try shape(2)
            writer.header(.lineString, layout)
            writeList(scratch, 0)
        case .multiLineString:
            try shape(3)
            let parts = scratch.nonEmptyLists(scratch.listEnds.indices)
            if parts.count == 1 {
                writer.header(.lineString, layout)
                writeList(scratch, parts[0])
            } else {
                writer.header(.multiLineString, layout)
                writer.uint32(UInt32(parts.count))
                for list in parts {
                    writer.header(.lineString, layout)
                    writeList(scratch, list)
                }
            }
        case .polygon where ringsByOrientation:
            try shape(3)
            guard writeEsriRings(scratch) else { return appendNull() }
        case .polygon:
            try shape(3)
            let rings = scratch.nonEmptyLists(scratch.listEnds.indices)
            writer.header(.polygon, layout)
            writer.uint32(UInt32(rings.count))
            for list in rings { writeList(scratch, list, closing: true) }
        case .multiPolygon:
            try shape(4)
            let polygons = scratch.groupEnds.indices.map { scratch.nonEmptyLists(scratch.groupRange($0)) }.filter { !$0.isEmpty }
            writer.header(.multiPolygon, layout)
            writer.uint32(UInt32(polygons.count))
            for rings in polygons {
                writer.header(.polygon, layout)
                writer.uint32(UInt32(rings.count))
                for list in rings { writeList(scratch, list, closing: true) }
            }
        case .geometryCollection:
            throw .parse("a geometry collection has no coordinates")
        }
        endRow(box)
    }

    /// Infinity (a number such as 1e999 that overflows a double) is no place on
    /// any map, and would poison every box and index built on it.
    private func nonFinite() -> FeatureCacheError {
        .parse("feature \(count + 1) of the response has a coordinate that is not a finite number")
    }

    /// Appends WKB written elsewhere (a GeoJSON GeometryCollection) with its box.
    package mutating func appendWKB(_ wkb: [UInt8], _ box: BoundingBox) {
        guard !wkb.isEmpty else { return appendNull() }
        leavePointsOnly()
        writer.bytes.append(contentsOf: wkb)
        endRow(box)
    }

    /// Takes back the last row, for a reader that read part of a row ahead and
    /// reads it again another way.
    package mutating func removeLastRow() {
        precondition(count > 0)
        count -= 1
        if onlyPoints {
            writer.bytes.removeLast(GeometryColumn.pointSize)  // every row is a point here
        } else {
            offsets.removeLast()
            writer.bytes.removeSubrange(Int(offsets.last!)...)
            boxes.removeLast(4)
        }
    }

    package func finish() -> GeometryColumn {
        GeometryColumn(
            bytes: FrozenBytes(writer.bytes), offsets: onlyPoints ? nil : ColumnBuffer(offsets),
            boxes: onlyPoints ? nil : ColumnBuffer(boxes), count: count)
    }

    // MARK: - Helpers

    /// While every row is a point, offsets and boxes are implied; the first other
    /// row makes them explicit for the rows so far.
    private mutating func leavePointsOnly() {
        guard onlyPoints else { return }
        onlyPoints = false
        offsets.reserveCapacity(count + 1)
        boxes.reserveCapacity(4 * count)
        writer.bytes.withUnsafeBytes { bytes in
            for row in 0..<count {
                let base = row * GeometryColumn.pointSize
                offsets.append(UInt32(base + GeometryColumn.pointSize))
                let x = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 5, as: UInt64.self)))
                let y = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 13, as: UInt64.self)))
                boxes.append(x); boxes.append(y); boxes.append(x); boxes.append(y)
            }
        }
    }

    private mutating func endRow(_ box: BoundingBox) {
        count += 1
        guard !onlyPoints else { return }
        offsets.append(UInt32(truncatingIfNeeded: writer.bytes.count))
        if box.isEmpty {
            boxes.append(contentsOf: [.nan, .nan, .nan, .nan])
        } else {
            boxes.append(box.xmin); boxes.append(box.ymin); boxes.append(box.xmax); boxes.append(box.ymax)
        }
    }

    /// Writes one path or ring; `closing` repeats the first point of a ring whose
    /// writer left it open.
    private mutating func writeList(_ scratch: CoordinateScratch, _ list: Int, closing: Bool = false) {
        let range = scratch.listRange(list)
        let open = closing && !range.isEmpty && !scratch.isClosed(list)
        writer.uint32(UInt32(range.count + (open ? 1 : 0)))
        if scratch.layout == .xy {
            for index in range { writer.point(scratch.xy[2 * index], scratch.xy[2 * index + 1]) }
            if open { writer.point(scratch.xy[2 * range.lowerBound], scratch.xy[2 * range.lowerBound + 1]) }
            return
        }
        for index in range { writer.vertex(scratch.xy[2 * index], scratch.xy[2 * index + 1], scratch.extra(of: index)) }
        if open {
            let first = range.lowerBound
            writer.vertex(scratch.xy[2 * first], scratch.xy[2 * first + 1], scratch.extra(of: first))
        }
    }

    /// Esri polygons list all rings flat: clockwise rings are outer boundaries,
    /// counter-clockwise rings are holes in the outer ring that contains them.
    /// Written as a Polygon (one outer ring) or a MultiPolygon.
    /// Rings of fewer than three distinct points (real servers send them) enclose
    /// nothing and are dropped; returns false when no ring is left.
    private mutating func writeEsriRings(_ scratch: CoordinateScratch) -> Bool {
        let rings = scratch.listEnds.indices.filter { scratch.listRange($0).count + (scratch.isClosed($0) ? 0 : 1) >= 4 }
        guard !rings.isEmpty else { return false }
        var areas = [Double](repeating: 0, count: scratch.listEnds.count)
        for ring in rings { areas[ring] = scratch.signedArea2(ring) }
        // Sloppy writers use one orientation for everything: then every ring is an outer ring.
        var outers = rings.filter { areas[$0] < 0 }
        if outers.isEmpty { outers = rings }
        var holesOf = [[Int]](repeating: [], count: outers.count)
        if outers.count < rings.count {
            for ring in rings where areas[ring] >= 0 {
                let first = scratch.listRange(ring).lowerBound
                let x = scratch.xy[2 * first], y = scratch.xy[2 * first + 1]
                // The smallest outer ring that contains the hole's first vertex.
                var owner = outers.count - 1
                var ownerArea = Double.infinity
                for (slot, outer) in outers.enumerated() where -areas[outer] < ownerArea && scratch.ringContains(outer, x, y) {
                    owner = slot
                    ownerArea = -areas[outer]
                }
                holesOf[owner].append(ring)
            }
        }
        if outers.count > 1 {
            writer.header(.multiPolygon, scratch.layout)
            writer.uint32(UInt32(outers.count))
        }
        for (slot, outer) in outers.enumerated() {
            writer.header(.polygon, scratch.layout)
            writer.uint32(UInt32(1 + holesOf[slot].count))
            writeList(scratch, outer, closing: true)
            for hole in holesOf[slot] { writeList(scratch, hole, closing: true) }
        }
        return true
    }
}
