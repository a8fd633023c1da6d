// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// The schema the Arrow export chooses and the layouts it writes, on pages the
/// readers produce: declared types, widening where the values need it, NULL
/// columns, gathered rows. (The C stream and pyarrow's reading of it are tested
/// in Tests/c/test_arrow.c and python/tests/test_arrow.py.)
@Suite struct ArrowExportTests {
    private func geoJSON(_ features: String) throws -> FeatureBatch {
        let json = "{\"type\":\"FeatureCollection\",\"features\":[\(features)]}"
        return try Array(json.utf8).withUnsafeBytes { try GeoJSONReader.read($0, identity: FeatureIdentity()) }.batch
    }

    private func esri(_ fields: [FieldInfo], _ features: String) throws -> FeatureBatch {
        let json = "{\"geometryType\":\"esriGeometryPoint\",\"features\":[\(features)]}"
        return try Array(json.utf8).withUnsafeBytes {
            try EsriJSONReader.read($0, fields: [FieldInfo(name: "OID", type: .oid)] + fields, objectIdField: "OID")
        }.batch
    }

    private func types(_ export: ArrowExport) -> [String: ArrowType] {
        Dictionary(uniqueKeysWithValues: export.columns.map { ($0.name, $0.type) })
    }

    private func feature(_ id: Int, _ properties: String) -> String {
        "{\"type\":\"Feature\",\"id\":\(id),\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(id),1]},\"properties\":{\(properties)}}"
    }

    @Test func inferredPagesThatDisagreeWiden() throws {
        let first = try geoJSON(feature(1, "\"a\":1,\"b\":2,\"c\":true"))
        let second = try geoJSON(feature(2, "\"a\":1.5,\"b\":\"two\",\"c\":false"))
        let export = ArrowExport(FeatureResult([(first, nil), (second, nil)], limitExceeded: false, spatialReference: .wgs84))
        #expect(types(export) == ["object_id": .int64, "a": .float64, "b": .utf8, "c": .boolean, "geometry": .wkb])
        let (length, columns) = try export.batch(0)
        #expect(length == 1)
        // The integer page's "b" written as text, its "a" as a double.
        let b = columns[2]
        let offsets = b.buffers[1]!.assumingMemoryBound(to: Int32.self)
        #expect(
            String(
                decoding: UnsafeRawBufferPointer(start: b.buffers[2]! + Int(offsets[0]), count: Int(offsets[1] - offsets[0])),
                as: UTF8.self) == "2")
        #expect(columns[1].buffers[1]!.load(as: Double.self) == 1)
    }

    @Test func integersWidenOnlyWhenAValueDoesNotFit() throws {
        let fields = [
            FieldInfo(name: "small", type: .smallInteger), FieldInfo(name: "int", type: .integer),
            FieldInfo(name: "day", type: .dateOnly), FieldInfo(name: "when", type: .date),
            FieldInfo(name: "f", type: .single),
        ]
        let fits = try esri(
            fields,
            """
            {"attributes":{"OID":1,"small":-32768,"int":2147483647,"day":"2024-02-29","when":0,"f":1.5},"geometry":{"x":1,"y":2}}
            """)
        #expect(
            types(ArrowExport(FeatureResult([(fits, nil)], limitExceeded: false, spatialReference: nil)))
                == [
                    "OID": .int64, "small": .int16, "int": .int32, "day": .date32, "when": .timestampMilliseconds,
                    "f": .float32, "geometry": .wkb,
                ])
        let wide = try esri(
            fields,
            """
            {"attributes":{"OID":1,"small":70000,"int":2147483648,"day":"02/29/2024","when":null,"f":null},"geometry":{"x":1,"y":2}}
            """)
        let export = ArrowExport(FeatureResult([(wide, nil)], limitExceeded: false, spatialReference: nil))
        #expect(types(export)["small"] == .int32 && types(export)["int"] == .int64 && types(export)["day"] == .utf8)
        let (_, columns) = try export.batch(0)
        #expect(columns[1].buffers[1]!.load(as: Int32.self) == 70000)
        #expect(columns[4].nullCount == 1 && columns[5].nullCount == 1)
        // Date-only as days since the epoch.
        let days = try ArrowExport(FeatureResult([(fits, nil)], limitExceeded: false, spatialReference: nil)).batch(0).columns[3]
        #expect(days.buffers[1]!.load(as: Int32.self) == 19782)
    }

    /// A streamed query's later pages (ArrowExport(_:following:)): written in
    /// the first page's types where those hold every value, refused where
    /// they do not (an Arrow stream cannot change its schema).
    @Test func aStreamPageTakesTheFirstPagesTypesOrIsRefused() throws {
        let fields = [FieldInfo(name: "small", type: .smallInteger)]
        func page(_ small: Int) throws -> FeatureResult {
            let batch = try esri(fields, "{\"attributes\":{\"OID\":\(small),\"small\":\(small)},\"geometry\":{\"x\":1,\"y\":2}}")
            return FeatureResult([(batch, nil)], limitExceeded: false, spatialReference: nil)
        }
        let schema = ArrowExport(try page(40000))  // int32: the first page's values need it
        #expect(types(schema)["small"] == .int32)
        let narrower = try ArrowExport(try page(5), following: schema)
        #expect(types(narrower)["small"] == .int32)
        let written = try narrower.batch(0).columns[1]  // held: its owners keep the buffer
        #expect(written.buffers[1]!.load(as: Int32.self) == 5)
        let error = #expect(throws: FeatureCacheError.self) { try ArrowExport(try page(3_000_000_000), following: schema) }
        #expect(error?.code == .protocol && error?.message.contains("column small") == true)

        // GeoJSON writes 24.0 as 24: an integer page of a float column is taken while exact.
        let floats = ArrowExport(FeatureResult([(try geoJSON(feature(1, "\"a\":1.5")), nil)], limitExceeded: false, spatialReference: nil))
        let whole = try ArrowExport(
            FeatureResult([(try geoJSON(feature(2, "\"a\":24")), nil)], limitExceeded: false, spatialReference: nil), following: floats)
        let converted = try whole.batch(0).columns[1]
        #expect(converted.buffers[1]!.load(as: Double.self) == 24)
        #expect(throws: FeatureCacheError.self) {
            try ArrowExport(
                FeatureResult([(try geoJSON(feature(3, "\"a\":9007199254740993")), nil)], limitExceeded: false, spatialReference: nil),
                following: floats)
        }
        // Text takes anything but dates and geometry; a number column takes no text.
        let text = ArrowExport(FeatureResult([(try geoJSON(feature(1, "\"a\":\"x\"")), nil)], limitExceeded: false, spatialReference: nil))
        _ = try ArrowExport(
            FeatureResult([(try geoJSON(feature(2, "\"a\":7")), nil)], limitExceeded: false, spatialReference: nil), following: text)
        #expect(throws: FeatureCacheError.self) {
            try ArrowExport(
                FeatureResult([(try geoJSON(feature(2, "\"a\":\"y\"")), nil)], limitExceeded: false, spatialReference: nil),
                following: floats)
        }
    }

    /// Pages of inferred fields list them as their features did: a later
    /// page is written in the first page's column order, a column it lacks
    /// is NULL, and one the first page lacked is refused.
    @Test func aStreamPageIsWrittenInTheFirstPagesColumnOrder() throws {
        func page(_ id: Int, _ properties: String) throws -> FeatureResult {
            FeatureResult([(try geoJSON(feature(id, properties)), nil)], limitExceeded: false, spatialReference: nil)
        }
        let schema = ArrowExport(try page(1, "\"a\":1,\"b\":\"x\""))
        #expect(schema.columns.map(\.name) == ["object_id", "a", "b", "geometry"])
        let swapped = try ArrowExport(try page(2, "\"b\":\"y\",\"a\":2"), following: schema)
        #expect(swapped.columns.map(\.name) == ["object_id", "a", "b", "geometry"])
        let a = try swapped.batch(0).columns[1]
        #expect(a.buffers[1]!.load(as: Int64.self) == 2)
        let lacking = try ArrowExport(try page(3, "\"a\":3"), following: schema)
        let b = try lacking.batch(0).columns[2]
        #expect(b.nullCount == 1)
        let error = #expect(throws: FeatureCacheError.self) { try ArrowExport(try page(4, "\"c\":1"), following: schema) }
        #expect(error?.code == .protocol && error?.message.contains("column c") == true)
    }

    @Test func aFieldMissingFromABatchIsAllNull() throws {
        let first = try geoJSON(feature(1, "\"a\":1"))
        let second = try geoJSON(feature(2, "\"z\":\"only here\""))
        let export = ArrowExport(FeatureResult([(first, nil), (second, nil)], limitExceeded: false, spatialReference: nil))
        let (_, columns) = try export.batch(0)
        let z = columns[2]
        #expect(export.columns[2].name == "z" && z.nullCount == 1)
        #expect(z.buffers[0]!.load(as: UInt8.self) & 1 == 0)
    }

    @Test func gatheredRowsAndNullGeometry() throws {
        let batch = try geoJSON(
            [
                feature(1, "\"a\":10"),
                "{\"type\":\"Feature\",\"id\":2,\"geometry\":null,\"properties\":{\"a\":null}}",
                feature(3, "\"a\":30"),
            ].joined(separator: ","))
        let export = ArrowExport(FeatureResult([(batch, [2, 1])], limitExceeded: false, spatialReference: nil))
        let (length, columns) = try export.batch(0)
        #expect(length == 2)
        #expect(columns[0].buffers[1]!.assumingMemoryBound(to: Int64.self)[0] == 3)
        #expect(columns[1].buffers[1]!.assumingMemoryBound(to: Int64.self)[0] == 30 && columns[1].nullCount == 1)
        let geometry = columns[2]
        #expect(geometry.nullCount == 1 && geometry.buffers[0]!.load(as: UInt8.self) == 0b01)
        let offsets = geometry.buffers[1]!.assumingMemoryBound(to: Int32.self)
        #expect(offsets[0] == 0 && offsets[1] == 21 && offsets[2] == 21)
        #expect(ArrowExport.geoArrowMetadata(nil) == "{}")
        // PROJJSON, its id the code (Esri's own through PROJ's ESRI authority).
        let mercator = ArrowExport.geoArrowMetadata(.webMercator)
        #expect(mercator.hasPrefix("{\"crs\":{") && mercator.hasSuffix(",\"crs_type\":\"projjson\"}"))
        #expect(mercator.contains("\"id\":{\"authority\":\"EPSG\",\"code\":3857}"))
        #expect(!mercator.contains("\n"), "one line")
        #expect(ArrowExport.geoArrowMetadata(SpatialReference(wkid: 102_671)).contains("\"authority\":\"ESRI\",\"code\":102671"))
        // A code PROJ does not know: still said, as the code.
        #expect(
            ArrowExport.geoArrowMetadata(SpatialReference(wkid: 999_999)) == "{\"crs\":\"ESRI:999999\",\"crs_type\":\"authority_code\"}")
    }
}
