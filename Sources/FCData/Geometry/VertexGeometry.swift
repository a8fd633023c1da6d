// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A geometry as a caller writes it for an edit: ISO WKB read whole, with its
/// Z and M kept (the 2-D `Geometry` of queries drops them), so an edit can be
/// checked against the table's type and dimensions and written in each
/// protocol's own form (Esri JSON, GeoJSON, GML). Collections are refused: no
/// feature service stores one in a feature.
package struct VertexGeometry: Sendable {
    package var type: WKBType
    package var layout: VertexLayout
    /// The vertices of each point, path or ring, flat: x, y, then Z and/or M.
    package var paths: [[Double]]
    /// For polygons: the index in `paths` of each polygon's outer ring (one
    /// entry for a polygon, one per member for a multipolygon).
    package var polygonStarts: [Int]
    package var box: BoundingBox

    package var stride: Int { 2 + layout.extra }
    package var isEmpty: Bool { paths.allSatisfy(\.isEmpty) }

    /// The geometry type of a table this geometry may be stored in.
    package var tableType: GeometryType {
        switch type {
        case .point: return .point
        case .multiPoint: return .multipoint
        case .lineString, .multiLineString: return .polyline
        case .polygon, .multiPolygon: return .polygon
        case .geometryCollection: return .unknown
        }
    }

    /// The most vertices one edit's geometry may hold.
    package static let maxVertices = 10_000_000

    /// Reads ISO WKB (either byte order; Z, M and ZM as ISO codes 1001…3007
    /// or EWKB's flag bits). `.invalidArgument` naming the byte offset for
    /// anything malformed, truncated or with bytes left over.
    package init(wkb: UnsafeRawBufferPointer) throws(FeatureCacheError) {
        var reader = Reader(bytes: wkb)
        let (type, layout, little) = try reader.header()
        self.type = type
        self.layout = layout
        paths = []
        polygonStarts = []
        box = BoundingBox()
        let stride = 2 + layout.extra
        switch type {
        case .point:
            let point = try reader.vertices(1, stride, little)
            if !point[0].isNaN { paths = [point] }
        case .lineString:
            paths = [try reader.vertices(try reader.count(little, stride * 8), stride, little)]
        case .polygon:
            polygonStarts = [0]
            paths = try reader.rings(little, stride)
        case .multiPoint, .multiLineString, .multiPolygon:
            let members = try reader.count(little, 9)
            for _ in 0..<members {
                let (member, memberLayout, memberLittle) = try reader.header()
                guard memberLayout == layout, member == Self.memberType(of: type) else {
                    throw reader.fail("a \(type) member is a \(member)\(memberLayout == layout ? "" : " of other dimensions")")
                }
                switch member {
                case .point: paths.append(try reader.vertices(1, stride, memberLittle))
                case .lineString: paths.append(try reader.vertices(try reader.count(memberLittle, stride * 8), stride, memberLittle))
                default:
                    polygonStarts.append(paths.count)
                    paths += try reader.rings(memberLittle, stride)
                }
            }
        case .geometryCollection:
            throw FeatureCacheError.invalidArgument("a geometry collection cannot be stored in a feature")
        }
        guard reader.offset == wkb.count else { throw reader.fail("\(wkb.count - reader.offset) bytes follow the geometry") }
        for path in paths {
            for start in Swift.stride(from: 0, to: path.count, by: stride) {
                guard path[start].isFinite, path[start + 1].isFinite else { throw reader.fail("a coordinate is not finite") }
                box.add(path[start], path[start + 1])
            }
        }
    }

    /// The same from an array of WKB bytes.
    package init(wkb: [UInt8]) throws(FeatureCacheError) {
        let result = wkb.withUnsafeBytes { bytes in Result { () throws(FeatureCacheError) in try VertexGeometry(wkb: bytes) } }
        self = try result.get()
    }

    private static func memberType(of type: WKBType) -> WKBType {
        switch type {
        case .multiPoint: return .point
        case .multiLineString: return .lineString
        default: return .polygon
        }
    }

    /// The geometry as little-endian ISO WKB (what the cache stores).
    package var wkb: [UInt8] {
        var writer = WKBWriter()
        func path(_ vertices: [Double]) {
            writer.uint32(UInt32(vertices.count / stride))
            vertex(vertices)
        }
        func vertex(_ vertices: [Double]) {
            for start in Swift.stride(from: 0, to: vertices.count, by: stride) {
                writer.vertex(vertices[start], vertices[start + 1], vertices[(start + 2)..<(start + stride)])
            }
        }
        func polygon(_ rings: ArraySlice<[Double]>) {
            writer.header(.polygon, layout)
            writer.uint32(UInt32(rings.count))
            for ring in rings { path(ring) }
        }
        switch type {
        case .point:
            writer.header(.point, layout)
            if let point = paths.first { vertex(point) } else { vertex([Double](repeating: .nan, count: stride)) }
        case .lineString:
            writer.header(.lineString, layout)
            path(paths.first ?? [])
        case .polygon:
            polygon(paths[...])
        case .multiPoint, .multiLineString:
            writer.header(type, layout)
            writer.uint32(UInt32(paths.count))
            for member in paths {
                writer.header(type == .multiPoint ? .point : .lineString, layout)
                if type == .multiPoint { vertex(member) } else { path(member) }
            }
        case .multiPolygon, .geometryCollection:
            writer.header(.multiPolygon, layout)
            writer.uint32(UInt32(polygonStarts.count))
            for (index, start) in polygonStarts.enumerated() {
                polygon(paths[start..<(index + 1 < polygonStarts.count ? polygonStarts[index + 1] : paths.count)])
            }
        }
        return writer.bytes
    }

    /// The rings of each polygon (one group for a polygon, one per member).
    package var polygons: [ArraySlice<[Double]>] {
        polygonStarts.enumerated().map { index, start in
            paths[start..<(index + 1 < polygonStarts.count ? polygonStarts[index + 1] : paths.count)]
        }
    }

    /// Reads WKB with a bounds check before every read.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        var vertices = 0

        func fail(_ what: String) -> FeatureCacheError {
            .invalidArgument("malformed WKB at byte \(offset): \(what)")
        }

        mutating func header() throws(FeatureCacheError) -> (WKBType, VertexLayout, Bool) {
            guard offset + 5 <= bytes.count else { throw fail("the geometry is cut short") }
            let order = bytes[offset]
            guard order <= 1 else { throw fail("byte order \(order) is neither 0 nor 1") }
            offset += 1
            var code = try uint32(order == 1)
            // EWKB: Z = 0x80000000, M = 0x40000000, SRID = 0x20000000 (an SRID follows).
            var layout = VertexLayout()
            if code & 0xE000_0000 != 0 {
                layout = VertexLayout(hasZ: code & 0x8000_0000 != 0, hasM: code & 0x4000_0000 != 0)
                if code & 0x2000_0000 != 0 { _ = try uint32(order == 1) }
                code &= 0x0FFF_FFFF
            } else {
                layout = VertexLayout(wkbType: code)
                code %= 1000
            }
            guard let type = WKBType(rawValue: code) else { throw fail("geometry type \(code) is not one of 1–7") }
            return (type, layout, order == 1)
        }

        mutating func uint32(_ little: Bool) throws(FeatureCacheError) -> UInt32 {
            guard offset + 4 <= bytes.count else { throw fail("the geometry is cut short") }
            let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            offset += 4
            return little ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw)
        }

        /// A count of items, each at least `itemBytes` long: never more than the bytes left can hold.
        mutating func count(_ little: Bool, _ itemBytes: Int) throws(FeatureCacheError) -> Int {
            let count = Int(try uint32(little))
            guard count <= (bytes.count - offset) / max(1, itemBytes) else {
                throw fail("a count of \(count) is more than the bytes left hold")
            }
            return count
        }

        mutating func vertices(_ count: Int, _ stride: Int, _ little: Bool) throws(FeatureCacheError) -> [Double] {
            guard offset + count * stride * 8 <= bytes.count else { throw fail("the geometry is cut short") }
            vertices += count
            guard vertices <= VertexGeometry.maxVertices else { throw fail("more than \(VertexGeometry.maxVertices) vertices") }
            var values = [Double]()
            values.reserveCapacity(count * stride)
            for _ in 0..<(count * stride) {
                let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset += 8
                values.append(Double(bitPattern: little ? UInt64(littleEndian: raw) : UInt64(bigEndian: raw)))
            }
            return values
        }

        mutating func rings(_ little: Bool, _ stride: Int) throws(FeatureCacheError) -> [[Double]] {
            let count = try count(little, 4)
            var rings: [[Double]] = []
            for _ in 0..<count { rings.append(try vertices(try self.count(little, stride * 8), stride, little)) }
            return rings
        }
    }
}
