// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Issue 20: Z and M kept from Esri JSON (`hasZ`/`hasM`, `z`/`m` members, 3- and
/// 4-element vertices with nulls) and GeoJSON (3-element positions), stored as
/// ISO WKB of the right type (Z 1001…, M 2001…, ZM 3001…), written to GeoJSON
/// with the height, kept through a projection, and spatially 2D.
@Suite struct ZMTests {
    /// The WKB type code and every double after it, for a single-level geometry.
    private func decode(_ wkb: UnsafeRawBufferPointer) -> (type: UInt32, doubles: [Double]) {
        let type = UInt32(littleEndian: wkb.loadUnaligned(fromByteOffset: 1, as: UInt32.self))
        let headerBytes = type % 1000 == 1 ? 5 : 9  // a point, or a line/multipoint count
        var doubles: [Double] = []
        var offset = headerBytes
        while offset + 8 <= wkb.count {
            doubles.append(Double(bitPattern: UInt64(littleEndian: wkb.loadUnaligned(fromByteOffset: offset, as: UInt64.self))))
            offset += 8
        }
        return (type, doubles)
    }

    private func esri(_ json: String) throws -> FeatureBatch {
        try Array(json.utf8).withUnsafeBytes {
            try EsriJSONReader.read($0, fields: [FieldInfo(name: "OID", type: .oid)], objectIdField: "OID")
        }.batch
    }

    private func geojson(_ json: String) throws -> FeatureBatch {
        try Array(json.utf8).withUnsafeBytes { try GeoJSONReader.read($0, identity: FeatureIdentity()) }.batch
    }

    private func same(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
    }

    /// Issue 31: where the response declares no layout, a geometry's own
    /// `hasM` makes a third ordinate an M (GDAL's reading); a flag that is no
    /// boolean says nothing, and a declared layout wins over the flags.
    @Test func geometryFlagsSayWhatUndeclaredOrdinatesAre() throws {
        func first(_ geometry: String, declared: String = "") throws -> (type: UInt32, doubles: [Double]) {
            let batch = try esri(#"{\#(declared)"features":[{"attributes":{"OID":1},"geometry":\#(geometry)}]}"#)
            return decode(batch.geometry.wkb(0))  // the WKB is borrowed from the batch: keep it alive
        }
        let m = try first(#"{"hasM":true,"paths":[[[1,2,3],[4,5,6]]]}"#)
        #expect(m.type == 2002 && m.doubles == [1, 2, 3, 4, 5, 6], "\(m)")  // M
        #expect(try first(#"{"hasZ":true,"hasM":true,"paths":[[[1,2,3,4]]]}"#).type == 3002)  // ZM
        #expect(try first(#"{"hasZ":true,"paths":[[[1,2],[3,4]]]}"#).type == 2)  // 2-D stays 2-D
        #expect(try first(#"{"hasM":"yes","paths":[[[1,2,3]]]}"#).type == 1002)  // no boolean: Z, as unflagged
        #expect(try first(#"{"hasM":null,"paths":[[[1,2,3]]]}"#).type == 1002)
        #expect(try first(#"{"hasM":true,"paths":[[[1,2,3]]]}"#, declared: #""hasZ":true,"#).type == 1002)  // declared wins
    }

    @Test func esriPointsKeepZAndM() throws {
        let batch = try esri(
            #"{"hasZ":true,"hasM":true,"features":[{"attributes":{"OID":1},"geometry":{"x":1,"y":2,"z":3,"m":4}},"#
                + #"{"attributes":{"OID":2},"geometry":{"x":5,"y":6,"z":7}}]}"#)
        let first = decode(batch.geometry.wkb(0)), second = decode(batch.geometry.wkb(1))
        #expect(first.type == 3001 && same(first.doubles, [1, 2, 3, 4]))
        #expect(second.type == 3001 && same(second.doubles, [5, 6, 7, .nan]))  // no measure: NaN
        #expect(batch.geometry.box(1) == (5, 6, 5, 6))
    }

    @Test func esriVerticesFollowTheDeclaredLayout() throws {
        // [x, y, z, null]: ArcGIS Online's Z+M vertex without a measure.
        let zm = try esri(
            #"{"hasZ":true,"hasM":true,"features":[{"attributes":{"OID":1},"geometry":{"paths":[[[0,0,10,null],[1,1,11,5]]]}}]}"#)
        let line = decode(zm.geometry.wkb(0))
        #expect(line.type == 3002 && same(line.doubles, [0, 0, 10, .nan, 1, 1, 11, 5]))
        // hasM only: the third ordinate is the measure.
        let m = try esri(#"{"hasM":true,"features":[{"attributes":{"OID":1},"geometry":{"paths":[[[0,0,7],[1,1,8]]]}}]}"#)
        let measured = decode(m.geometry.wkb(0))
        #expect(measured.type == 2002 && same(measured.doubles, [0, 0, 7, 1, 1, 8]))
        // Undeclared: a third ordinate is a Z (as GDAL reads it); declared 2D: left out.
        let undeclared = try esri(#"{"features":[{"attributes":{"OID":1},"geometry":{"paths":[[[0,0,7],[1,1,8]]]}}]}"#)
        #expect(decode(undeclared.geometry.wkb(0)).type == 1002)
        let flat = try esri(#"{"hasZ":false,"features":[{"attributes":{"OID":1},"geometry":{"paths":[[[0,0,7],[1,1,8]]]}}]}"#)
        #expect(decode(flat.geometry.wkb(0)).type == 2)
    }

    @Test func esriRingsBecomeZPolygons() throws {
        let ring = "[[0,0,1],[0,10,2],[10,10,3],[10,0,4],[0,0,1]]"
        let batch = try esri(#"{"hasZ":true,"features":[{"attributes":{"OID":1},"geometry":{"rings":[\#(ring)]}}]}"#)
        let wkb = batch.geometry.wkb(0)
        #expect(UInt32(littleEndian: wkb.loadUnaligned(fromByteOffset: 1, as: UInt32.self)) == 1003)
        #expect(wkb.count == 1 + 4 + 4 + 4 + 5 * 24)
        // Spatially it is the 2D square.
        let shape = try #require(Shape(wkb: wkb))
        #expect(shape.parts.count == 1 && shape.parts[0].count == 10)
        #expect(GeoJSONWriter.geometry(wkb) == #"{"type":"Polygon","coordinates":[[[0,0,1],[0,10,2],[10,10,3],[10,0,4],[0,0,1]]]}"#)
    }

    @Test func geoJSONHeightsAreKept() throws {
        let batch = try geojson(
            #"{"type":"FeatureCollection","features":["#
                + #"{"type":"Feature","id":1,"properties":{},"geometry":{"type":"Point","coordinates":[1,2,3]}},"#
                + #"{"type":"Feature","id":2,"properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1,5],[2,2,6,99]]}},"#
                + #"{"type":"Feature","id":3,"properties":{},"geometry":{"type":"Point","coordinates":[4,5]}}]}"#)
        let point = decode(batch.geometry.wkb(0)), line = decode(batch.geometry.wkb(1)), flat = decode(batch.geometry.wkb(2))
        #expect(point.type == 1001 && same(point.doubles, [1, 2, 3]))
        // A position without a height among ones with it: NaN (no Z), a fourth ordinate left out.
        #expect(line.type == 1002 && same(line.doubles, [0, 0, .nan, 1, 1, 5, 2, 2, 6]))
        #expect(flat.type == 1 && batch.geometry.wkb(2).count == GeometryColumn.pointSize)
        #expect(GeoJSONWriter.geometry(batch.geometry.wkb(1)) == #"{"type":"LineString","coordinates":[[0,0],[1,1,5],[2,2,6]]}"#)
    }

    @Test func aProjectionMovesXYAndKeepsZ() throws {
        let batch = try esri(#"{"hasZ":true,"features":[{"attributes":{"OID":1},"geometry":{"paths":[[[1,2,30],[3,4,40]]]}}]}"#)
        let moved = batch.mappingCoordinates(CoordinateTransform(formula: { ($0 * 10, $1 * 10) }, label: "times ten"))
        let line = decode(moved.geometry.wkb(0))
        #expect(line.type == 1002 && same(line.doubles, [10, 20, 30, 30, 40, 40]))
    }

    @Test func infiniteHeightsAreErrorsLikeInfiniteCoordinates() {
        #expect(throws: FeatureCacheError.self) {
            _ = try esri(#"{"hasZ":true,"features":[{"attributes":{"OID":1},"geometry":{"paths":[[[0,0,1e999],[1,1,1]]]}}]}"#)
        }
    }

    @Test func gmlWithThreeDimensionsKeepsTheHeight() throws {
        let document = """
            <wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:gml="http://www.opengis.net/gml/3.2" xmlns:t="urn:t">
            <wfs:member><t:w gml:id="w.1"><t:geom><gml:Point srsDimension="3"><gml:pos>1 2 3</gml:pos></gml:Point></t:geom></t:w></wfs:member>
            <wfs:member><t:w gml:id="w.2"><t:geom><gml:LineString><gml:posList srsDimension="3">0 0 5 1 1 6</gml:posList></gml:LineString></t:geom></t:w></wfs:member>
            <wfs:member><t:w gml:id="w.3"><t:geom><gml:Point><gml:pos>7 8</gml:pos></gml:Point></t:geom></t:w></wfs:member>
            </wfs:FeatureCollection>
            """
        let page = try Array(document.utf8).withUnsafeBytes {
            try GMLReader.read($0, fields: [], geometryProperty: nil, identity: FeatureIdentity(), swapAxes: false)
        }
        let point = decode(page.batch.geometry.wkb(0)), line = decode(page.batch.geometry.wkb(1)), flat = decode(page.batch.geometry.wkb(2))
        #expect(point.type == 1001 && same(point.doubles, [1, 2, 3]))
        #expect(line.type == 1002 && same(line.doubles, [0, 0, 5, 1, 1, 6]))
        #expect(flat.type == 1 && same(flat.doubles, [7, 8]))
        // Swapped axes swap x and y only.
        let swapped = try Array(document.utf8).withUnsafeBytes {
            try GMLReader.read($0, fields: [], geometryProperty: nil, identity: FeatureIdentity(), swapAxes: true)
        }
        #expect(same(decode(swapped.batch.geometry.wkb(0)).doubles, [2, 1, 3]))
    }
}
