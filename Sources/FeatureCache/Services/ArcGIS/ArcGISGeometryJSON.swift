// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables

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
