// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// The Esri JSON reader against every recorded query page, plus the cases real
/// pages do not show (holes, multipolygons, bad values).
@Suite struct EsriJSONReaderTests {
    static let queryPages: [String] = Fixtures.files(in: "arcgis-rest", suffix: ".json").filter { path in
        guard let json = try? JSONValue.parse(try Fixtures.bytes(path)) else { return false }
        return json["features"] != nil && json["geometryType"]?.string != nil
    }

    /// The layer metadata in the same folder as a page.
    private func metadata(near path: String) throws -> TableMetadata {
        let folder = String(path[..<path.lastIndex(of: "/")!])
        let file = Fixtures.files(in: folder, suffix: "metadata.json").first!
        return try ArcGISLayerInfo.parse(try JSONValue.parse(try Fixtures.bytes(file)), url: file)
    }

    private func read(_ path: String) throws -> (EsriQueryPage, TableMetadata) {
        let metadata = try metadata(near: path)
        let bytes = try Fixtures.bytes(path)
        let page = try bytes.withUnsafeBytes { try EsriJSONReader.read($0, fields: metadata.fields, objectIdField: metadata.objectIdField) }
        return (page, metadata)
    }

    private func read(json: String, fields: [FieldInfo] = [FieldInfo(name: "OID", type: .oid)]) throws -> EsriQueryPage {
        try Array(json.utf8).withUnsafeBytes { try EsriJSONReader.read($0, fields: fields, objectIdField: "OID") }
    }

    @Test func thereArePages() { #expect(Self.queryPages.count >= 10) }

    /// Every real page reads: as many rows as the file has features, every
    /// attribute the DOM sees lands in its column, every geometry becomes WKB.
    @Test(arguments: queryPages)
    func everyRealPageReads(path: String) throws {
        let (page, _) = try read(path)
        let dom = try JSONValue.parse(try Fixtures.bytes(path))
        let features = dom["features"]!.array!
        let batch = page.batch
        #expect(batch.count == features.count)
        let names = batch.fields.map { $0.name.lowercased() }
        for (row, feature) in features.enumerated() {
            for (name, value) in feature["attributes"]?.members ?? [] {
                // (a field listed twice is ambiguous by name: it is checked by position elsewhere)
                guard names.filter({ $0 == name.lowercased() }).count == 1, let column = batch.columnIndex(named: name) else { continue }
                let stored = batch.columns[column]
                if value.isNull {
                    #expect(stored.isNull(row), "\(path) row \(row) \(name)")
                } else if let text = value.string {
                    if stored.kind == .string { #expect(stored.string(row) == text, "\(path) row \(row) \(name)") }
                    if stored.field.type == .date { #expect(stored.int64(row) == DateText.epochMilliseconds(text)) }
                } else if let number = value.double {
                    #expect(stored.double(row) == number, "\(path) row \(row) \(name)")
                }
            }
            let degenerate = feature["geometry"]?["rings"]?.array?.allSatisfy { $0.array!.count < 4 } == true
            if let geometry = feature["geometry"], geometry.isObject, !degenerate, geometry["x"] != nil || geometry["rings"] != nil {
                let parsed = try WKBReader.parse(batch.geometry.wkb(row))
                if let x = geometry["x"]?.double {
                    #expect(parsed == .point(x: x, y: geometry["y"]!.double!))
                } else {
                    // Every vertex of every ring that encloses something is kept.
                    let ringPoints = geometry["rings"]!.array!.map { $0.array!.count }.filter { $0 >= 4 }.reduce(0, +)
                    var wkbPoints = 0
                    parsed.forEachPoint { _ in wkbPoints += 1 }
                    #expect(wkbPoints == ringPoints, "\(path) row \(row)")
                }
            } else if degenerate {
                #expect(batch.geometry.wkb(row).isEmpty, "a polygon of degenerate rings has no geometry")
            } else {
                #expect(batch.geometry.wkb(row).isEmpty)
            }
        }
    }

    @Test func carsonAddressPoints() throws {
        let (page, _) = try read("arcgis-rest/us-ca-carson/us-ca-carson-0.json")
        let batch = page.batch
        #expect(batch.count == 6)
        #expect(batch.objectId(0) == 1)
        let street = batch.columnIndex(named: "SITESTREET")!
        #expect(batch.columns[street].string(0) == "CARSON ST")
        #expect(batch.columns[batch.columnIndex(named: "Edit_Date")!].isNull(0))
        #expect(try WKBReader.parse(batch.geometry.wkb(0)) == .point(x: -118.26612584395593, y: 33.83225576098862))
        #expect(batch.geometry.wkb(3).isEmpty, "row 3 has no geometry")
        #expect(page.spatialReference == SpatialReference(wkid: 4326))
    }

    @Test func dateAndGlobalIdFieldsWithoutGeometry() throws {
        let (page, _) = try read("arcgis-rest/us-esri-test/us-esri-test-0.json")
        let batch = page.batch
        #expect(batch.count == 1000)
        #expect(batch.objectId(0) == 306120)
        let observed = batch.columns[batch.columnIndex(named: "observed")!]
        #expect(observed.field.type == .date)
        #expect(observed.int64(0) == 1428404675000)
        #expect(batch.columns[batch.columnIndex(named: "globalid")!].string(0) == "{478A59A5-65DB-47A0-84F2-685C611B2BB0}")
        #expect(batch.geometry.wkb(0).isEmpty)
    }

    @Test func kentParcelsArePolygonsInTheirOwnSpatialReference() throws {
        let (page, _) = try read("arcgis-rest/us-mi-kent/us-mi-kent-0.json")
        guard case let .polygon(rings) = try WKBReader.parse(page.batch.geometry.wkb(0)) else {
            Issue.record("expected a polygon"); return
        }
        #expect(rings.count == 1 && rings[0].count == 8)
        #expect(rings[0][0] == Geometry.XY(12745374.032152027, 656587.5843799561))
        #expect(page.spatialReference?.wkt?.hasPrefix("PROJCS[\"NAD_1983_StatePlane_Michigan_South") == true)
        #expect(page.batch.columns[page.batch.columnIndex(named: "SHAPE.STArea()")!].double(0) == 160469.21826171875)
    }

    @Test func pagesWithoutFieldsUseTheLayerSchema() throws {
        let (page, metadata) = try read("arcgis-rest/us-il-cook/page-full.json")
        #expect(page.batch.count == 500)
        #expect(page.batch.fields.map(\.name) == metadata.fields.map(\.name))
        #expect(page.batch.columns[page.batch.columnIndex(named: "NAME")!].string(0) == "MT ISAIAH")
    }

    @Test func datesWrittenAsTextBecomeEpochMilliseconds() throws {
        let (page, _) = try read("arcgis-rest/us-il-cook/page-full.json")
        let lastEdit = page.batch.columns[page.batch.columnIndex(named: "LAST_EDIT")!]
        #expect(lastEdit.int64(0) == 1135296000000)  // 12/23/2005 12:00:00 AM UTC
        #expect(DateText.epochMilliseconds("2005-12-23T13:45:00.5+01:00") == 1135341900500)
        #expect(DateText.epochMilliseconds("4/21/2006 1:05:09 PM") == 1145624709000)
        #expect(DateText.epochMilliseconds("13/45/2006") == nil)
    }

    @Test func aBatchOfPointsStoresTwentyOneBytesAPoint() throws {
        let page = try read(
            json: #"{"features":[{"attributes":{"OID":1},"geometry":{"x":1,"y":2}},{"attributes":{"OID":2},"geometry":{"x":3,"y":4}}]}"#)
        #expect(page.batch.geometry.offsets == nil && page.batch.geometry.boxes == nil)
        #expect(page.batch.geometry.bytes.count == 42)
        #expect(page.batch.geometry.box(1) == (3, 4, 3, 4))
    }

    @Test func objectIdListsRead() throws {
        for path in Fixtures.files(in: "arcgis-rest", suffix: "ids-only.json") {
            let bytes = try Fixtures.bytes(path)
            let dom = try JSONValue.parse(bytes)
            guard let expected = dom["objectIds"]?.array else { continue }
            let ids = try bytes.withUnsafeBytes { try EsriJSONReader.readObjectIds($0) }
            #expect(ids.ids == expected.map { $0.int! }, "\(path)")
        }
    }

    /// Clockwise rings are outer boundaries, counter-clockwise ones holes of the
    /// outer ring that contains them, wherever they come in the list.
    @Test func ringsGroupIntoPolygonsWithHoles() throws {
        let page = try read(
            json: """
                {"fields":[{"name":"OID","type":"esriFieldTypeOID"}],"features":[{"attributes":{"OID":7},"geometry":{"rings":[
                  [[0,0],[0,10],[10,10],[10,0],[0,0]],
                  [[20,0],[20,10],[30,10],[30,0],[20,0]],
                  [[22,2],[28,2],[28,8],[22,8],[22,2]],
                  [[2,2],[8,2],[8,8],[2,8],[2,2]]]}}]}
                """)
        guard case let .multiPolygon(polygons) = try WKBReader.parse(page.batch.geometry.wkb(0)) else {
            Issue.record("expected a multipolygon"); return
        }
        #expect(polygons.count == 2)
        #expect(polygons[0].count == 2 && polygons[0][1][0] == Geometry.XY(2, 2))
        #expect(polygons[1].count == 2 && polygons[1][1][0] == Geometry.XY(22, 2))
        #expect(page.batch.geometry.box(0) == (0, 0, 30, 10))
    }

    @Test func pathsPointsAndEmptyGeometries() throws {
        let page = try read(
            json: """
                {"features":[
                  {"attributes":{"OID":1},"geometry":{"paths":[[[0,0],[1,1]]]}},
                  {"attributes":{"OID":2},"geometry":{"paths":[[[0,0],[1,1]],[[2,2],[3,3,9]]],"hasZ":true}},
                  {"attributes":{"OID":3},"geometry":{"points":[[5,6],[7,8]]}},
                  {"attributes":{"OID":4},"geometry":{}},
                  {"attributes":{"OID":5},"geometry":{"x":"NaN","y":"NaN"}},
                  {"attributes":{"OID":6},"geometry":null},
                  {"attributes":{"OID":7},"geometry":{"x":1,"y":2,"z":3,"m":4,"spatialReference":{"wkid":4326}}}],
                 "exceededTransferLimit":true}
                """)
        let g = page.batch.geometry
        #expect(try WKBReader.parse(g.wkb(0)) == .lineString([.init(0, 0), .init(1, 1)]))
        #expect(try WKBReader.parse(g.wkb(1)) == .multiLineString([[.init(0, 0), .init(1, 1)], [.init(2, 2), .init(3, 3)]]))
        #expect(try WKBReader.parse(g.wkb(2)) == .multiPoint([.init(5, 6), .init(7, 8)]))
        for row in 3...5 { #expect(g.wkb(row).isEmpty) }
        #expect(try WKBReader.parse(g.wkb(6)) == .point(x: 1, y: 2))
        #expect(page.exceededTransferLimit)
    }

    /// Older ArcGIS servers write an empty point as {"x": NaN, "y": NaN}: the
    /// bare token reads as no geometry there, and stays an error everywhere else.
    @Test func aBareNaNPointIsAnEmptyGeometryAndNothingElseIsLenient() throws {
        let page = try read(
            json: """
                {"features":[
                  {"attributes":{"OID":1},"geometry":{"x":NaN,"y":NaN}},
                  {"attributes":{"OID":2},"geometry":{"x" : NaN , "y":NaN ,"spatialReference":{"wkid":102100}}},
                  {"attributes":{"OID":3},"geometry":{"x":1.5,"y":-2}}]}
                """)
        #expect(page.batch.count == 3)
        #expect(page.batch.geometry.wkb(0).isEmpty && page.batch.geometry.wkb(1).isEmpty)
        #expect(try WKBReader.parse(page.batch.geometry.wkb(2)) == .point(x: 1.5, y: -2))
        for json in [
            #"{"features":[{"attributes":{"OID":1},"geometry":{"x":NaNa,"y":1}}]}"#,
            #"{"features":[{"attributes":{"OID":1},"geometry":{"x":NaN1,"y":1}}]}"#,
            #"{"features":[{"attributes":{"OID":1},"geometry":{"x":-NaN,"y":1}}]}"#,
            #"{"features":[{"attributes":{"OID":1},"geometry":{"paths":[[[NaN,1],[2,2]]]}}]}"#,
            #"{"features":[{"attributes":{"OID":1},"geometry":{"x":1,"y":Na}}]}"#,
            #"{"features":[{"attributes":{"OID":1,"V":NaN},"geometry":{"x":1,"y":2}}]}"#,
        ] {
            #expect(throws: FeatureCacheError.self, "\(json)") {
                _ = try read(json: json, fields: [FieldInfo(name: "OID", type: .oid), FieldInfo(name: "V", type: .double)])
            }
        }
    }

    /// ArcGIS Online writes the vertices of a Z+M geometry without measures as
    /// [x, y, z, null]: null is a missing Z or M there, and nowhere else.
    @Test func nullZOrMInAVertexIsMissingAndNullXOrYIsAnError() throws {
        let page = try read(
            json: """
                {"hasZ":true,"hasM":true,"features":[
                  {"attributes":{"OID":1},"geometry":{"hasZ":true,"hasM":true,"paths":[[[1,2,3,null],[4,5,null,null],[6,7,8,9]]]}},
                  {"attributes":{"OID":2},"geometry":{"hasM":true,"points":[[1,2,null],[3,4,5]]}}]}
                """)
        #expect(try WKBReader.parse(page.batch.geometry.wkb(0)) == .lineString([.init(1, 2), .init(4, 5), .init(6, 7)]))
        #expect(try WKBReader.parse(page.batch.geometry.wkb(1)) == .multiPoint([.init(1, 2), .init(3, 4)]))
        for json in [
            #"{"features":[{"attributes":{"OID":1},"geometry":{"paths":[[[null,1],[2,2]]]}}]}"#,
            #"{"features":[{"attributes":{"OID":1},"geometry":{"paths":[[[1,null],[2,2]]]}}]}"#,
            #"{"features":[{"attributes":{"OID":1},"geometry":{"paths":[[[1,2,nul],[2,2]]]}}]}"#,
            #"{"features":[{"attributes":{"OID":1},"geometry":{"paths":[[[1,2,"3"],[2,2]]]}}]}"#,
        ] {
            #expect(throws: FeatureCacheError.self, "\(json)") { _ = try read(json: json) }
        }
        // GeoJSON positions are numbers (RFC 7946): no leniency there.
        let geojson =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2,null]},"properties":{}}]}"#
        #expect(throws: FeatureCacheError.self) {
            _ = try Array(geojson.utf8).withUnsafeBytes { try GeoJSONReader.read($0, identity: FeatureIdentity()) }
        }
    }

    @Test func everyFieldTypeLandsInItsColumnKind() throws {
        let fields = [
            FieldInfo(name: "OID", type: .oid), FieldInfo(name: "S", type: .smallInteger), FieldInfo(name: "B", type: .bigInteger),
            FieldInfo(name: "F", type: .single), FieldInfo(name: "D", type: .date), FieldInfo(name: "DO", type: .dateOnly),
            FieldInfo(name: "TO", type: .timeOnly), FieldInfo(name: "TS", type: .timestampOffset), FieldInfo(name: "G", type: .guid),
            FieldInfo(name: "T", type: .string),
        ]
        let page = try read(
            json: """
                {"features":[{"attributes":{"OID":1,"S":-3,"B":9007199254740993,"F":1.5e-3,"D":1700000000000,"DO":"2024-02-29",
                  "TO":"13:45:00","TS":"2024-02-29T13:45:00.123-05:00","G":"{AB}","T":"caf\\u00e9 \\ud83d\\ude00 \\"q\\""}}]}
                """, fields: fields)
        let c = page.batch.columns
        #expect(c[1].int64(0) == -3)
        #expect(c[2].int64(0) == 9007199254740993, "big integers stay exact")
        #expect(c[3].double(0) == 1.5e-3)
        #expect(c[4].int64(0) == 1700000000000)
        #expect(c[5].string(0) == "2024-02-29" && c[6].string(0) == "13:45:00" && c[7].string(0) == "2024-02-29T13:45:00.123-05:00")
        #expect(c[8].string(0) == "{AB}")
        #expect(c[9].string(0) == "café 😀 \"q\"")
    }

    @Test func badInputIsAParseErrorWithAByteOffset() throws {
        let cases = [
            #"{"features":[{"attributes":{"OID":NaN}}]}"#,
            #"{"features":[{"attributes":{"OID":1},"geometry":{"x":1,"y":Infinity}}]}"#,
            #"{"features":[{"attributes":{"OID":"seven"}}]}"#,
            #"{"features":[{"attributes":{"OID":1.5}}]}"#,
            #"{"features":[{"attributes":{"OID":1}},]}"#,
            #"{"features":[{"attributes":{"OID":1}"#,
            #"{"features":[{"attributes":{"OID":1,"OID":2}}]}"#,
            #"{"count":3}"#,
            String(repeating: "[", count: 300),
        ]
        for json in cases {
            #expect {
                _ = try read(json: json)
            } throws: { error in
                guard let error = error as? FeatureCacheError else { return false }
                return error.code == .parse && error.message.contains("byte")
            }
        }
    }

    @Test func errorBodiesAreFlaggedForTheCaller() throws {
        let page = try read(json: #"{"error":{"code":400,"message":"Invalid query","details":[]}}"#)
        #expect(page.isServiceError)
    }
}
