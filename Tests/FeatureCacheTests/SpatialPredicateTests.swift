// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// The DE-9IM matrix and the named relationships on shapes whose answers are
/// known (the OGC Simple Features examples), query geometry first.
@Suite struct SpatialPredicateTests {
    static let square = Shape(dimension: .area, parts: [[0, 0, 0, 4, 4, 4, 4, 0, 0, 0]])
    static let withHole = Shape(dimension: .area, parts: [[0, 0, 0, 4, 4, 4, 4, 0, 0, 0], [1, 1, 3, 1, 3, 3, 1, 3, 1, 1]])

    static func point(_ x: Double, _ y: Double) -> Shape { Shape(dimension: .point, parts: [[x, y]]) }
    static func line(_ coordinates: [Double]) -> Shape { Shape(dimension: .line, parts: [coordinates]) }
    static func area(_ ring: [Double]) -> Shape { Shape(dimension: .area, parts: [ring]) }

    @Test(arguments: [
        // (a, b, expected matrix)
        (point(2, 2), square, "0FFFFF212"),
        (point(0, 2), square, "F0FFFF212"),
        (point(9, 9), square, "FF0FFF212"),
        (point(2, 2), withHole, "FF0FFF212"),  // in the hole
        (line([-1, 2, 5, 2]), square, "101FF0212"),  // crosses
        (line([1, 1, 3, 3]), square, "1FF0FF212"),  // within
        (line([0, 0, 0, 4]), square, "F1FF0F212"),  // along the boundary
        (square, square, "2FFF1FFF2"),  // equal
        (area([4, 0, 4, 4, 8, 4, 8, 0, 4, 0]), square, "FF2F11212"),  // share an edge
        (area([2, 2, 2, 6, 6, 6, 6, 2, 2, 2]), square, "212101212"),  // overlap
        (area([1, 1, 1, 2, 2, 2, 2, 1, 1, 1]), square, "2FF1FF212"),  // inside
        (line([0, 0, 2, 2]), line([0, 2, 2, 0]), "0F1FF0102"),  // cross in the middle
        (line([0, 0, 2, 0]), line([1, 0, 3, 0]), "1010F0102"),  // overlap
        (line([0, 0, 1, 0]), line([1, 0, 2, 0]), "FF1F00102"),  // touch at ends
    ])
    func matrices(a: Shape, b: Shape, expected: String) {
        #expect(IntersectionMatrix(a, b).description == expected)
        // The matrix of (b, a) is the transpose.
        #expect(IntersectionMatrix(b, a) == IntersectionMatrix(a, b).transposed)
    }

    static func filter(_ relationship: SpatialRelationship, _ query: Geometry, pattern: String = "") throws -> SpatialFilter {
        var parameters = QueryParameters()
        parameters.geometry = .geometry(query, wkid: 4326)
        parameters.spatialRelationship = relationship
        parameters.relationParameter = pattern
        return try SpatialFilter(parameters, tableWkid: 4326)
    }

    /// A batch of GeoJSON geometries (ids 0, 1, …).
    static func batch(_ geometries: [String]) throws -> FeatureBatch {
        let features = geometries.enumerated().map { #"{"type":"Feature","id":\#($0.offset),"geometry":\#($0.element),"properties":{}}"# }
        let json = #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
        return try Array(json.utf8).withUnsafeBytes { try GeoJSONReader.read($0, identity: FeatureIdentity()) }.batch
    }

    @Test func namedRelationshipsReadQueryGeometryFirst() throws {
        let window = Geometry.polygon([[.init(0, 0), .init(0, 10), .init(10, 10), .init(10, 0), .init(0, 0)]])
        let features = try Self.batch([
            #"{"type":"Point","coordinates":[5,5]}"#,  // 0 inside
            #"{"type":"Point","coordinates":[0,5]}"#,  // 1 on the boundary
            #"{"type":"Point","coordinates":[20,5]}"#,  // 2 outside
            #"{"type":"LineString","coordinates":[[-5,5],[5,5]]}"#,  // 3 crosses the boundary
            #"{"type":"LineString","coordinates":[[1,1],[2,2]]}"#,  // 4 inside
            #"{"type":"Polygon","coordinates":[[[8,8],[12,8],[12,12],[8,12],[8,8]]]}"#,  // 5 overlaps
            #"{"type":"Polygon","coordinates":[[[10,0],[15,0],[15,5],[10,5],[10,0]]]}"#,  // 6 touches
            #"{"type":"Polygon","coordinates":[[[-5,-5],[20,-5],[20,20],[-5,20],[-5,-5]]]}"#,  // 7 contains the window
        ])
        func rows(_ relationship: SpatialRelationship, pattern: String = "") throws -> [Int] {
            let filter = try Self.filter(relationship, window, pattern: pattern)
            return (0..<features.count).filter { filter.test(features.geometry, $0) }
        }
        #expect(try rows(.intersects) == [0, 1, 3, 4, 5, 6, 7])
        #expect(try rows(.disjoint) == [2])
        #expect(try rows(.contains) == [0, 4])  // the window contains the feature
        #expect(try rows(.within) == [7])  // the window lies within the feature
        #expect(try rows(.touches) == [1, 6])
        #expect(try rows(.crosses) == [3])
        #expect(try rows(.overlaps) == [5])
        #expect(try rows(.envelopeIntersects) == [0, 1, 3, 4, 5, 6, 7])
        #expect(try rows(.relation, pattern: "T********") == [0, 3, 4, 5, 7])  // interiors meet
        #expect(throws: FeatureCacheError.self) { try Self.filter(.relation, window, pattern: "TTX") }
    }

    @Test func queriesInWebMercatorMeetLonLatFeatures() throws {
        let (x0, y0) = WebMercator.forward(-122.7, 45.5), (x1, y1) = WebMercator.forward(-122.6, 45.6)
        var parameters = QueryParameters()
        parameters.geometry = .envelope(Envelope(xmin: x0, ymin: y0, xmax: x1, ymax: y1, spatialReference: .webMercator))
        let filter = try SpatialFilter(parameters, tableWkid: 4326)
        let features = try Self.batch([
            #"{"type":"Point","coordinates":[-122.65,45.55]}"#, #"{"type":"Point","coordinates":[-122.55,45.55]}"#,
        ])
        #expect(filter.test(features.geometry, 0))
        #expect(!filter.test(features.geometry, 1))
        let (lon, lat) = WebMercator.inverse(x0, y0)
        #expect(abs(lon + 122.7) < 1e-9 && abs(lat - 45.5) < 1e-9)
        #expect(try Projection.transform(from: 2193, to: 4326) != nil, "NZTM, and every other pair, through PROJ")
    }

    @Test func objectIdIndexRemovesWithoutBreakingProbeRuns() {
        var index = ObjectIdIndex()
        for id in 1...5000 { index.insert(Int64(id), UInt32(id)) }
        for id in stride(from: 1, through: 5000, by: 3) { #expect(index.remove(Int64(id)) == UInt32(id)) }
        #expect(index.remove(1) == nil)
        for id in 1...5000 {
            #expect(index.find(Int64(id)) == (id % 3 == 1 ? nil : UInt32(id)))
        }
        #expect(index.count == 5000 - 1667)
    }
}
