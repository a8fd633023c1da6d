// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

@Suite struct GeoJSONReaderTests {
    private func read(_ json: String, fields: [FieldInfo] = [], identity: FeatureIdentity = FeatureIdentity()) throws -> GeoJSONPage {
        try Array(json.utf8).withUnsafeBytes { try GeoJSONReader.read($0, fields: fields, identity: identity) }
    }

    @Test func everyGeometryTypeBecomesWKB() throws {
        let page = try read(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2,3]},"properties":null},
              {"type":"Feature","id":2,"geometry":{"coordinates":[[0,0],[1,1]],"type":"LineString"},"properties":{}},
              {"type":"Feature","id":3,"geometry":{"type":"MultiPoint","coordinates":[[1,2],[3,4]]},"properties":{}},
              {"type":"Feature","id":4,"geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]},"properties":{}},
              {"type":"Feature","id":5,"geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[1,2],[2,2],[1,1]]]},"properties":{}},
              {"type":"Feature","id":6,"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]},"properties":{}},
              {"type":"Feature","id":7,"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[9,9]},{"type":"LineString","coordinates":[[0,0],[1,1]]}]},"properties":{}},
              {"type":"Feature","id":8,"geometry":null,"properties":{}}
            ]}
            """)
        let g = page.batch.geometry
        #expect(try WKBReader.parse(g.wkb(0)) == .point(x: 1, y: 2))
        #expect(try WKBReader.parse(g.wkb(1)) == .lineString([.init(0, 0), .init(1, 1)]))
        #expect(try WKBReader.parse(g.wkb(2)) == .multiPoint([.init(1, 2), .init(3, 4)]))
        #expect(try WKBReader.parse(g.wkb(3)) == .multiLineString([[.init(0, 0), .init(1, 1)], [.init(2, 2), .init(3, 3)]]))
        guard case let .polygon(rings) = try WKBReader.parse(g.wkb(4)) else { Issue.record("polygon"); return }
        #expect(rings.count == 2)
        guard case let .multiPolygon(polygons) = try WKBReader.parse(g.wkb(5)) else { Issue.record("multipolygon"); return }
        #expect(polygons.count == 2)
        #expect(try WKBReader.parse(g.wkb(6)) == .collection([.point(x: 9, y: 9), .lineString([.init(0, 0), .init(1, 1)])]))
        #expect(g.box(6) == (0, 0, 9, 9))
        #expect(g.wkb(7).isEmpty)
        #expect((0..<8).map { page.batch.objectId($0) } == Array(1...8))
    }

    @Test func propertiesOfAnyTypeInferAndWidenTheirColumns() throws {
        let page = try read(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{"n":1,"x":1,"s":"a","b":true,"o":{"k":[1,2]}},"geometry":null},
              {"type":"Feature","properties":{"n":2,"x":2.5,"s":7,"b":false,"late":"here","o":null},"geometry":null},
              {"type":"Feature","properties":{"n":null,"x":3},"geometry":null}
            ],"foreign":{"ignored":[1,2,3]}}
            """)
        let batch = page.batch
        func column(_ name: String) -> Column { batch.columns[batch.columnIndex(named: name)!] }
        #expect(column("n").field.type == .bigInteger && column("n").int64(1) == 2 && column("n").isNull(2))
        #expect(column("x").field.type == .double && column("x").double(0) == 1 && column("x").double(1) == 2.5)
        #expect(column("s").field.type == .string && column("s").string(0) == "a" && column("s").string(1) == "7")
        #expect(column("b").field.type == .boolean && column("b").int64(0) == 1 && column("b").int64(1) == 0)
        #expect(column("o").string(0) == #"{"k":[1,2]}"# && column("o").isNull(1))
        #expect(column("late").isNull(0) && column("late").string(1) == "here" && column("late").isNull(2))
    }

    /// Issue 31: a schema's plain "number" holds integers until a value is
    /// written with a fraction or an exponent, then doubles, every earlier
    /// value kept; "integer" stays integer (3.0 is accepted there, 2.5 is not).
    @Test func schemaNumbersAreIntegersUntilAFractionComes() throws {
        var number = FieldInfo(name: "n", type: .bigInteger)
        number.widensToDouble = true
        let integer = FieldInfo(name: "i", type: .bigInteger)
        let page = try read(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{"n":9007199254740993,"i":1},"geometry":null},
              {"type":"Feature","properties":{"n":null,"i":3.0},"geometry":null},
              {"type":"Feature","properties":{"n":-4,"i":7},"geometry":null}
            ]}
            """, fields: [number, integer])
        let whole = page.batch.columns[0]
        #expect(whole.kind == .int64 && whole.field.type == .bigInteger && whole.int64(0) == 9_007_199_254_740_993)
        #expect(page.batch.columns[1].kind == .int64 && page.batch.columns[1].int64(1) == 3)
        let widened = try read(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{"n":2},"geometry":null},
              {"type":"Feature","properties":{"n":null},"geometry":null},
              {"type":"Feature","properties":{"n":2.5},"geometry":null},
              {"type":"Feature","properties":{"n":1e2},"geometry":null}
            ]}
            """, fields: [number]
        ).batch.columns[0]
        #expect(widened.kind == .double && widened.field.type == .double)
        #expect(widened.double(0) == 2 && widened.isNull(1) && widened.double(2) == 2.5 && widened.double(3) == 100)
        #expect(throws: FeatureCacheError.self) {
            try read(
                #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"i":2.5},"geometry":null}]}"#,
                fields: [integer])
        }
    }

    @Test func stringIdsMapToStableObjectIds() throws {
        let identity = FeatureIdentity()
        let json =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a.1","geometry":null,"properties":{}},{"type":"Feature","id":"a.2","geometry":null,"properties":{}}]}"#
        let first = try read(json, identity: identity).batch
        let second = try read(json, identity: identity).batch
        #expect(first.objectId(0) != first.objectId(1))
        #expect(first.objectId(0) == second.objectId(0) && first.objectId(1) == second.objectId(1))
    }

    @Test func pagingMembers() throws {
        let page = try read(
            """
            {"type":"FeatureCollection","numberMatched":10,"numberReturned":0,"features":[],
             "links":[{"rel":"self","href":"a"},{"rel":"next","href":"http://x/items?offset=10"}],
             "properties":{"exceededTransferLimit":true}}
            """)
        #expect(page.numberMatched == 10 && page.numberReturned == 0)
        #expect(page.nextLink == "http://x/items?offset=10")
        #expect(page.exceededTransferLimit)
    }

    @Test func theRecordedCarsonCacheHasATrailingCommaAndSaysWhere() throws {
        let bytes = try Fixtures.bytes("arcgis-rest/us-ca-carson/us-ca-carson-cache.geojson")
        #expect {
            _ = try bytes.withUnsafeBytes { try GeoJSONReader.read($0, identity: FeatureIdentity()) }
        } throws: { error in
            let message = (error as? FeatureCacheError)?.message ?? ""
            return message.contains("byte 4799") && (error as? FeatureCacheError)?.code == .parse
        }
        // Without the stray comma the same file reads: 99 address points.
        var fixed = bytes
        if let comma = fixed.lastIndex(of: UInt8(ascii: ",")) { fixed.remove(at: comma) }
        let page = try fixed.withUnsafeBytes { try GeoJSONReader.read($0, identity: FeatureIdentity()) }
        #expect(page.batch.count == 99)
        #expect(page.batch.columns[page.batch.columnIndex(named: "SITESTREET")!].string(0) == "CARSON ST")
    }

    @Test func badGeoJSONIsAParseError() {
        for json in [
            #"{"type":"Feature"}"#,
            #"{"type":"FeatureCollection"}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Circle","coordinates":[1,2]}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[[1,2]]}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1]}}]}"#,
            #"{"type":"FeatureCollection","features":[{"geometry":null}]}"#,
        ] {
            #expect(throws: FeatureCacheError.self) { _ = try read(json) }
        }
    }

    @Test func resultsWriteBackAsGeoJSONThatReadsTheSame() throws {
        let source = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":5,"geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,0]]]},"properties":{"name":"a \\"q\\"\\n","v":1.5,"ok":true}},
              {"type":"Feature","id":6,"geometry":{"type":"Point","coordinates":[1e-7,-2]},"properties":{"name":null,"v":2,"ok":false}}]}
            """
        let batch = try read(source).batch
        let result = FeatureResult([(batch, nil)], limitExceeded: false, spatialReference: nil)
        let text = result.geoJSON()
        let again = try read(text).batch
        #expect(again.count == 2)
        #expect(again.objectId(1) == 6)
        #expect(try WKBReader.parse(again.geometry.wkb(0)) == WKBReader.parse(batch.geometry.wkb(0)))
        #expect(try WKBReader.parse(again.geometry.wkb(1)) == .point(x: 1e-7, y: -2))
        #expect(again.columns[again.columnIndex(named: "name")!].string(0) == "a \"q\"\n")
        #expect(again.columns[again.columnIndex(named: "ok")!].field.type == .boolean)
    }
}
