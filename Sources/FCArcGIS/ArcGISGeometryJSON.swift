// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Query geometries as the REST API takes them: `geometry` (Esri JSON, or
/// `xmin,ymin,xmax,ymax` for envelopes) and `geometryType`.
enum ArcGISGeometryJSON {
    static func parameters(_ geometry: QueryGeometry) throws(FeatureCacheError) -> (geometry: String, type: String) {
        switch geometry {
        case let .envelope(e):
            guard e.isValid, e.xmin.isFinite, e.xmax.isFinite, e.ymin.isFinite, e.ymax.isFinite else {
                throw FeatureCacheError(.invalidArgument, "the query envelope is empty or not finite")
            }
            return ("\(number(e.xmin)),\(number(e.ymin)),\(number(e.xmax)),\(number(e.ymax))", "esriGeometryEnvelope")
        case let .geometry(shape, _):
            switch shape {
            case let .point(x, y):
                guard !x.isNaN else { throw FeatureCacheError(.invalidArgument, "the query point is empty") }
                return ("{\"x\":\(number(x)),\"y\":\(number(y))}", "esriGeometryPoint")
            case let .multiPoint(points):
                return ("{\"points\":\(list(points))}", "esriGeometryMultipoint")
            case let .lineString(points):
                return ("{\"paths\":[\(list(points))]}", "esriGeometryPolyline")
            case let .multiLineString(paths):
                return ("{\"paths\":[\(paths.map(list).joined(separator: ","))]}", "esriGeometryPolyline")
            case let .polygon(rings):
                return ("{\"rings\":[\(esriRings(rings).joined(separator: ","))]}", "esriGeometryPolygon")
            case let .multiPolygon(polygons):
                return ("{\"rings\":[\(polygons.flatMap(esriRings).joined(separator: ","))]}", "esriGeometryPolygon")
            case .collection:
                throw FeatureCacheError(.unsupported, "ArcGIS services cannot query by a geometry collection")
            }
        }
    }

    /// Esri rings: outer rings clockwise, holes counter-clockwise, whatever the
    /// orientation of the WKB that came in.
    private static func esriRings(_ rings: [[Geometry.XY]]) -> [String] {
        rings.enumerated().map { index, ring in
            let clockwise = signedArea(ring) < 0
            let wantClockwise = index == 0
            return list(clockwise == wantClockwise ? ring : ring.reversed())
        }
    }

    private static func signedArea(_ ring: [Geometry.XY]) -> Double {
        guard ring.count > 2 else { return 0 }
        var sum = 0.0
        for index in 0..<ring.count - 1 { sum += ring[index].x * ring[index + 1].y - ring[index + 1].x * ring[index].y }
        return sum
    }

    private static func list(_ points: [Geometry.XY]) -> String {
        "[" + points.map { "[\(number($0.x)),\(number($0.y))]" }.joined(separator: ",") + "]"
    }

    private static func number(_ value: Double) -> String { JSONNumberText.shortest(value) }
}

extension ArcGISGeometryJSON {
    /// An edit's geometry as Esri JSON, Z and M kept (`hasZ`/`hasM` say
    /// which), polygon rings in Esri's orientation, with its spatial reference.
    static func feature(_ geometry: VertexGeometry, spatialReference: SpatialReference?) -> String {
        let stride = geometry.stride, layout = geometry.layout
        // A NaN ordinate (an M not measured) is written null, as ArcGIS writes it.
        func ordinate(_ value: Double) -> String { value.isNaN ? "null" : number(value) }
        func vertex(_ path: [Double], _ start: Int) -> String {
            "[" + (0..<stride).map { ordinate(path[start + $0]) }.joined(separator: ",") + "]"
        }
        func path(_ vertices: [Double]) -> String {
            "[" + Swift.stride(from: 0, to: vertices.count, by: stride).map { vertex(vertices, $0) }.joined(separator: ",") + "]"
        }
        func reversed(_ vertices: [Double]) -> [Double] {
            Swift.stride(from: vertices.count - stride, through: 0, by: -stride).flatMap { vertices[$0..<($0 + stride)] }
        }
        func area(_ vertices: [Double]) -> Double {
            var sum = 0.0
            for start in Swift.stride(from: 0, to: vertices.count - stride, by: stride) {
                sum += vertices[start] * vertices[start + stride + 1] - vertices[start + stride] * vertices[start + 1]
            }
            return sum
        }
        var members: [String] = []
        switch geometry.type {
        case .point:
            let point = geometry.paths[0]
            members = ["\"x\":\(number(point[0]))", "\"y\":\(number(point[1]))"]
            if layout.hasZ { members.append("\"z\":\(ordinate(point[2]))") }
            if layout.hasM { members.append("\"m\":\(ordinate(point[layout.hasZ ? 3 : 2]))") }
        case .multiPoint:
            members = ["\"points\":[" + geometry.paths.map { vertex($0, 0) }.joined(separator: ",") + "]"]
        case .lineString, .multiLineString:
            members = ["\"paths\":[" + geometry.paths.map(path).joined(separator: ",") + "]"]
        case .polygon, .multiPolygon, .geometryCollection:
            // Outer rings clockwise (negative shoelace area), holes counter-clockwise.
            let rings = geometry.polygons.flatMap { polygon in
                polygon.enumerated().map { index, ring in
                    (area(ring) < 0) == (index == 0) ? path(ring) : path(reversed(ring))
                }
            }
            members = ["\"rings\":[" + rings.joined(separator: ",") + "]"]
        }
        if geometry.type != .point {
            if layout.hasZ { members.append("\"hasZ\":true") }
            if layout.hasM { members.append("\"hasM\":true") }
        }
        if let spatialReference {
            var reference: [String] = []
            if spatialReference.wkid != 0 { reference.append("\"wkid\":\(spatialReference.wkid)") }
            if spatialReference.latestWkid != 0 { reference.append("\"latestWkid\":\(spatialReference.latestWkid)") }
            if reference.isEmpty, let wkt = spatialReference.wkt { reference.append("\"wkt\":\(JSONStringText.quoted(wkt))") }
            if !reference.isEmpty { members.append("\"spatialReference\":{\(reference.joined(separator: ","))}") }
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}
