// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A query as the persisted cache keeps it (the last populate's, which a
/// synchronize without change tracking asks again): every field that decides
/// what the service answers.
package enum QueryCodec {
    package static func write(_ query: QueryParameters, to out: inout BinaryWriter) {
        out.string(query.whereClause)
        switch query.geometry {
        case nil: out.u8(0)
        case let .envelope(box)?:
            out.u8(1)
            for value in [box.xmin, box.ymin, box.xmax, box.ymax] { out.f64(value) }
            out.i32(box.spatialReference?.effectiveWkid ?? 0)
        case let .geometry(shape, wkid)?:
            out.u8(2)
            write(shape, to: &out)
            out.i32(wkid)
        }
        out.i32(query.spatialRelationship.rawValue)
        out.string(query.relationParameter)
        out.bool(query.outFields != nil)
        if let fields = query.outFields { out.strings(fields) }
        out.bool(query.returnGeometry)
        out.int(query.maxFeatures)
        out.int(query.resultOffset)
        out.buffer(query.objectIds)
        out.string(query.orderBy)
        out.f64(query.maxAllowableOffset)
        out.i32(query.outWkid)
    }

    package static func read(from input: inout BinaryReader) throws(FeatureCacheError) -> QueryParameters {
        var query = QueryParameters()
        query.whereClause = try input.string()
        switch try input.u8() {
        case 0: break
        case 1:
            let (xmin, ymin, xmax, ymax) = (try input.f64(), try input.f64(), try input.f64(), try input.f64())
            let wkid = try input.i32()
            query.geometry = .envelope(
                Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, spatialReference: wkid == 0 ? nil : SpatialReference(wkid: wkid)))
        case 2:
            let shape = try readGeometry(&input, depth: 0)
            query.geometry = .geometry(shape, wkid: try input.i32())
        case let other: throw input.corrupt("query geometry kind \(other)")
        }
        let relation = try input.i32()
        guard let relationship = SpatialRelationship(rawValue: relation) else { throw input.corrupt("spatial relationship \(relation)") }
        query.spatialRelationship = relationship
        query.relationParameter = try input.string()
        if try input.bool() { query.outFields = try input.strings() }
        query.returnGeometry = try input.bool()
        query.maxFeatures = try input.int()
        query.resultOffset = try input.int()
        query.objectIds = try input.buffer(of: Int64.self)
        query.orderBy = try input.string()
        query.maxAllowableOffset = try input.f64()
        query.outWkid = try input.i32()
        return query
    }

    // MARK: - Geometry: a kind, then its parts' counts and coordinates.

    private static func write(_ shape: Geometry, to out: inout BinaryWriter) {
        func points(_ list: [Geometry.XY]) {
            out.u32(UInt32(list.count))
            for point in list {
                out.f64(point.x)
                out.f64(point.y)
            }
        }
        switch shape {
        case let .point(x, y):
            out.u8(1)
            points([Geometry.XY(x, y)])
        case let .multiPoint(list):
            out.u8(2)
            points(list)
        case let .lineString(list):
            out.u8(3)
            points(list)
        case let .multiLineString(lists), let .polygon(lists):
            if case .polygon = shape { out.u8(5) } else { out.u8(4) }
            out.u32(UInt32(lists.count))
            lists.forEach(points)
        case let .multiPolygon(polygons):
            out.u8(6)
            out.u32(UInt32(polygons.count))
            for rings in polygons {
                out.u32(UInt32(rings.count))
                rings.forEach(points)
            }
        case let .collection(members):
            out.u8(7)
            out.u32(UInt32(members.count))
            for member in members { write(member, to: &out) }
        }
    }

    /// Collections nest at most this deep (a corrupt file must not recurse without end).
    private static let maxDepth = 32

    private static func readGeometry(_ input: inout BinaryReader, depth: Int) throws(FeatureCacheError) -> Geometry {
        func count(_ each: Int) throws(FeatureCacheError) -> Int {
            let n = Int(try input.u32())
            guard n <= input.remaining / each else { throw input.corrupt("\(n) parts cannot fit") }
            return n
        }
        func points() throws(FeatureCacheError) -> [Geometry.XY] {
            var list: [Geometry.XY] = []
            for _ in 0..<(try count(16)) { list.append(Geometry.XY(try input.f64(), try input.f64())) }
            return list
        }
        func lists() throws(FeatureCacheError) -> [[Geometry.XY]] {
            var lists: [[Geometry.XY]] = []
            for _ in 0..<(try count(4)) { lists.append(try points()) }
            return lists
        }
        switch try input.u8() {
        case 1:
            guard let point = try points().first else { throw input.corrupt("a point without coordinates") }
            return .point(x: point.x, y: point.y)
        case 2: return .multiPoint(try points())
        case 3: return .lineString(try points())
        case 4: return .multiLineString(try lists())
        case 5: return .polygon(try lists())
        case 6:
            var polygons: [[[Geometry.XY]]] = []
            for _ in 0..<(try count(4)) { polygons.append(try lists()) }
            return .multiPolygon(polygons)
        case 7:
            guard depth < maxDepth else { throw input.corrupt("collections nested more than \(maxDepth) deep") }
            var members: [Geometry] = []
            for _ in 0..<(try count(1)) { members.append(try readGeometry(&input, depth: depth + 1)) }
            return .collection(members)
        case let other: throw input.corrupt("query geometry shape \(other)")
        }
    }
}
