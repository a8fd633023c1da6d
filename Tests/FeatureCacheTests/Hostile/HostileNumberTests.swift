// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

private let fields = [FieldInfo(name: "OBJECTID", type: .oid), FieldInfo(name: "Name", type: .string)]

private func esri(_ geometries: [String]) throws(FeatureCacheError) -> FeatureBatch {
    let features = geometries.enumerated().map { #"{"attributes":{"OBJECTID":\#($0.offset + 1),"Name":"n"},"geometry":\#($0.element)}"# }
    let json = #"{"objectIdFieldName":"OBJECTID","features":[\#(features.joined(separator: ","))]}"#
    return try Array(json.utf8).withBytes { (bytes) throws(FeatureCacheError) in
        try EsriJSONReader.read(bytes, fields: fields, objectIdField: "OBJECTID").batch
    }
}

private func geojson(_ coordinates: String, type: String = "Point") throws(FeatureCacheError) -> FeatureBatch {
    let json =
        #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"properties":{},"geometry":{"type":"\#(type)","coordinates":\#(coordinates)}}]}"#
    return try Array(json.utf8).withBytes { (bytes) throws(FeatureCacheError) in
        try GeoJSONReader.read(bytes, identity: FeatureIdentity()).batch
    }
}

/// Runs a local query with an envelope over a store holding `batches`.
private func query(
    _ batches: [FeatureBatch], _ envelope: Envelope?, configure: (inout QueryParameters) -> Void = { _ in }
) throws -> [Int64] {
    let store = FeatureStore()
    store.apply(batches, clearingFirst: true)
    var parameters = QueryParameters()
    parameters.geometry = envelope.map { .envelope($0) }
    configure(&parameters)
    let result = try LocalQuery(parameters, definitionExpression: "", fields: fields, tableWkid: 4326)
        .run(store.queryableSnapshot(), spatialReference: nil)
    return try (0..<result.count).map { try result.objectId($0) }.sorted()
}

private func expectNonFinite(_ body: () throws -> Void) {
    #expect {
        try body()
    } throws: { error in
        let error = error as! FeatureCacheError
        return error.code == .parse && error.message.contains("not a finite number")
    }
}

/// Numbers a server or a caller can send that used to crash the host process
/// (issue 13: D1 coordinates, D3 offset + max features, D4 views and tiles).
@Suite struct HostileNumberTests {
    @Test func hugeFiniteCoordinatesAreStoredIndexedAndQueried() throws {
        // |value| ≥ ~9e307: (min + max) / 2 overflowed, and the R-tree trapped on the NaN key.
        let batch = try esri([
            #"{"x":1e308,"y":1e308}"#, #"{"x":-1.7e308,"y":-1.7e308}"#, #"{"x":10,"y":20}"#,
            #"{"rings":[[[1e308,0],[1e308,1],[1.5e308,1],[1e308,0]]]}"#,
            #"{"paths":[[[-1e308,5],[1e308,5]]]}"#,
        ])
        #expect(batch.count == 5)
        #expect(try query([batch], Envelope(xmin: 0, ymin: 0, xmax: 100, ymax: 100)) == [3, 5])
        #expect(
            try query([batch], Envelope(xmin: 9e307, ymin: 9e307, xmax: .greatestFiniteMagnitude, ymax: .greatestFiniteMagnitude)) == [1])
        #expect(try query([batch], nil).count == 5)
        // The extent of such a store is finite, too.
        var bounds = BoundingBox()
        for row in 0..<batch.count { batch.geometry.addBox(of: row, to: &bounds) }
        #expect(bounds.xmin == -1.7e308 && bounds.xmax == 1.5e308)
    }

    @Test func coordinatesThatOverflowAreParseErrorsNamingTheFeature() throws {
        expectNonFinite { _ = try esri([#"{"x":1,"y":2}"#, #"{"x":1e999,"y":2}"#]) }
        expectNonFinite { _ = try esri([#"{"paths":[[[0,0],[-1e999,1]]]}"#]) }
        expectNonFinite { _ = try esri([#"{"rings":[[[0,0],[0,1],[1,1e400],[0,0]]]}"#]) }
        expectNonFinite { _ = try geojson("[1e999, 0]") }
        expectNonFinite { _ = try geojson("[[0, 0], [1, -1e999]]", type: "LineString") }
        #expect {
            _ = try esri([#"{"x":1,"y":2}"#, #"{"x":1e999,"y":2}"#])
        } throws: { ($0 as! FeatureCacheError).message.contains("feature 2") }
        // Esri's empty point stays an empty point.
        #expect(try esri([#"{"x":"NaN","y":"NaN"}"#, #"{"x":null,"y":null}"#]).geometry.wkb(0).isEmpty)
    }

    @Test func gmlCoordinatesThatOverflowAreParseErrors() throws {
        let reader = GMLReaderTests()
        expectNonFinite { _ = try reader.read(reader.feature("<gml:Point><gml:pos>47.6163e996 -122.3</gml:pos></gml:Point>")) }
        expectNonFinite {
            _ = try reader.read(reader.feature("<gml:LineString><gml:posList>0 0 1 1e400</gml:posList></gml:LineString>"))
        }
        expectNonFinite {
            _ = try reader.read(reader.feature("<gml:Point><gml:coordinates>1e999,2</gml:coordinates></gml:Point>"))
        }
    }

    @Test func anOffsetWithNoLimitAsInt64MaxDoesNotOverflow() throws {
        let batch = try esri((0..<10).map { #"{"x":\#($0),"y":0}"# })
        var parameters = QueryParameters()
        parameters.resultOffset = 1
        parameters.maxFeatures = Int(Int64.max)
        #expect(parameters.rowsEnd == Int.max)
        let ids = try query([batch], nil) {
            $0.resultOffset = 1
            $0.maxFeatures = Int(Int64.max)
            $0.orderBy = "OBJECTID"
        }
        #expect(ids == Array(2...10))
        #expect(
            try query([batch], nil) {
                $0.resultOffset = Int(Int64.max); $0.maxFeatures = Int(Int64.max)
            }.isEmpty)
    }

    @Test func tileRangesAreSafeForAnyArea() {
        let grid = TileGrid(extent: BoundingBox(-122.5, 47.5, -122.2, 47.8), geographic: true)
        let huge = BoundingBox(-1e300, -1e300, 1e300, 1e300)
        for level in [0, 10, TileGrid.maxLevel] {
            #expect(grid.tileCount(overlapping: huge, level: level) == (1 << level) * (1 << level))
        }
        #expect(grid.level(TileGrid.maxLevel, coarsenedToFit: huge, maxTiles: 256) == 4)
        // A view of 0.1° at 1:50 (840,000 pixels wide) wants hundreds of
        // thousands of 1,024-pixel tiles: capped by the tile limit.
        let view = BoundingBox(-122.4, 47.6, -122.3, 47.7)
        let wanted = grid.level(scale: 50, viewWidth: 0.1)
        #expect(grid.tileCount(overlapping: view, level: wanted) > 100_000)
        let level = grid.level(wanted, coarsenedToFit: view, maxTiles: 256)
        #expect(grid.tileCount(overlapping: view, level: level) <= 256)
        #expect(grid.tileCount(overlapping: view, level: level + 1) > 256)
        // A server's extent of ±inf or NaN never makes a grid that traps.
        let wild = TileGrid(extent: BoundingBox(-.greatestFiniteMagnitude, -1, .greatestFiniteMagnitude, 1), geographic: false)
        #expect(wild.tileCount(overlapping: BoundingBox(0, 0, 1, 1), level: TileGrid.maxLevel) >= 1)
        #expect(grid.level(scale: .leastNonzeroMagnitude, viewWidth: 1) == TileGrid.maxLevel)
        #expect(grid.tiles(overlapping: BoundingBox(.nan, .nan, .nan, .nan), level: 3).isEmpty)
    }

    @Test func viewsRejectWhatNoMapShows() {
        let map = Map()
        let extent = Envelope(xmin: -122.4, ymin: 47.6, xmax: -122.3, ymax: 47.7, spatialReference: SpatialReference(wkid: 4326))
        for scale in [-1, 0.0001, 0.5, .nan, .infinity] {
            #expect(throws: FeatureCacheError.self) { try map.setVisibleExtent(extent, scale: scale) }
        }
        #expect(throws: FeatureCacheError.self) {
            try map.setVisibleExtent(Envelope(xmin: -1.7e308, ymin: 0, xmax: 1.7e308, ymax: 1), scale: 1000)
        }
        #expect(throws: Never.self) { try map.setVisibleExtent(extent, scale: 1) }
        #expect(throws: Never.self) { try map.setVisibleExtent(Envelope(xmin: -1e300, ymin: -1e300, xmax: 1e300, ymax: 1e300), scale: 0) }
    }
}

/// Geometry shapes a fuzzer found (issue 13): empty rings and parts.
@Suite struct HostileGeometryTests {
    private func read(_ type: String, _ coordinates: String) throws -> Geometry? {
        let json =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"properties":{},"geometry":{"type":"\#(type)","coordinates":\#(coordinates)}}]}"#
        let batch = try Array(json.utf8).withUnsafeBytes { try GeoJSONReader.read($0, identity: FeatureIdentity()).batch }
        let wkb = batch.geometry.wkb(0)
        return wkb.isEmpty ? nil : try WKBReader.parse(wkb)
    }

    @Test func emptyRingsAndPartsAreLeftOut() throws {
        // An empty ring after a real one indexed one point past the end (a trap).
        let square = "[[0,0],[0,1],[1,1],[1,0],[0,0]]"
        #expect(try read("Polygon", "[\(square),[]]") == .polygon([[.init(0, 0), .init(0, 1), .init(1, 1), .init(1, 0), .init(0, 0)]]))
        let multi = try read("MultiPolygon", "[[\(square),[]],[[]],[]]")
        #expect(multi == .multiPolygon([[[.init(0, 0), .init(0, 1), .init(1, 1), .init(1, 0), .init(0, 0)]]]))
        #expect(try read("MultiLineString", "[[[0,0],[1,1]],[],[]]") == .lineString([.init(0, 0), .init(1, 1)]))
    }
}
