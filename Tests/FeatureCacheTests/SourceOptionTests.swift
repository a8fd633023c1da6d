// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Options: each adapter declares what only its tables have, every option goes
/// through one path, and the typed calls of each protocol are that path.
@Suite struct SourceOptionTests {
    private let context = ClientContext(transport: ScriptedTransport(automatic: .success(.json("{}"))))

    private func code(_ work: () throws -> Void) -> FeatureCacheError.Code? {
        do {
            try work()
            return nil
        } catch {
            return (error as? FeatureCacheError)?.code
        }
    }

    @Test func eachKindDeclaresItsOwn() throws {
        let arcgis = try FeatureTable.arcgis(url: "http://a.test/FeatureServer/0", context: context)
        let ogc = try FeatureTable.ogc(apiURL: "http://o.test/api", collectionId: "c", context: context)
        let wfs = try FeatureTable.wfs(url: "http://w.test/wfs", typeName: "t", context: context)
        #expect(
            arcgis.options.map(\.name) == [
                "query_format", "query_format_in_use", "capabilities", "supported_query_formats", "supports_pagination",
                "current_version", "layer_type", "server_gen", "min_server_gen",
            ])
        #expect(arcgis.options.map(\.isWritable) == [true] + Array(repeating: false, count: 8))
        #expect(arcgis.options.first?.values == ["auto", "json", "pbf"])
        #expect(ogc.options.map(\.name) == ["query_language", "item_type"])
        #expect(ogc.options.map(\.isWritable) == [true, false])
        #expect(ogc.options.first?.values == ["auto", "local", "cql2-text", "cql2-json"])
        #expect(
            wfs.options.map(\.name) == [
                "axis_order", "filter_axis_order", "output_format", "version", "output_formats", "geometry_property_type",
            ])
        #expect(wfs.options.map(\.isWritable) == [true, true, true, false, false, false])
        #expect(wfs.options[2].values == nil)
    }

    /// What only one protocol says of a layer is reported, after the load, by
    /// the option named for it; it cannot be set.
    @Test func sourceFactsAreReportOnlyOptions() throws {
        let arcgis = try FeatureTable.arcgis(url: "http://a.test/FeatureServer/0", context: context)
        #expect(code { _ = try arcgis.option("supports_pagination") } == .invalidState)
        #expect(code { try arcgis.setOption("supports_pagination", "false") } == .unsupported)
    }

    @Test func theTypedCallsAreTheGenericPath() throws {
        let arcgis = try FeatureTable.arcgis(url: "http://a.test/FeatureServer/0", context: context)
        try arcgis.setOption("QUERY_FORMAT", "pbf")
        #expect(try arcgis.queryFormat() == .pbf)
        try arcgis.setQueryFormat(.json)
        #expect(try arcgis.option("query_format") == "json")

        let wfs = try FeatureTable.wfs(url: "http://w.test/wfs", typeName: "t", context: context)
        try wfs.setAxisOrder(.swap, forFilters: true)
        #expect(try wfs.option("filter_axis_order") == "swap")
        #expect(try wfs.option("axis_order") == "auto")
        try wfs.setOption("output_format", "application/json")
        #expect(try wfs.outputFormat() == "application/json")
        try wfs.setOutputFormat(nil)
        #expect(try wfs.option("output_format") == "")

        let ogc = try FeatureTable.ogc(apiURL: "http://o.test/api", collectionId: "c", context: context)
        try ogc.setOption("query_language", "cql2-json")
        #expect(ogc.queryLanguage == .cql2JSON)
        try arcgis.setQueryLanguage(.auto)  // accepted by every table, as before
        #expect(arcgis.queryLanguage == .auto)
    }

    @Test func whatATableDoesNotDeclareOrTakeIsSaid() throws {
        let arcgis = try FeatureTable.arcgis(url: "http://a.test/FeatureServer/0", context: context)
        #expect(code { try arcgis.setOption("axis_order", "swap") } == .unsupported)
        #expect(code { try arcgis.setOption("query_format", "xml") } == .invalidArgument)
        #expect(code { try arcgis.setOption("query_format_in_use", "json") } == .unsupported)
        #expect(code { _ = try arcgis.option("query_format_in_use") } == .invalidState)  // needs the table loaded
        #expect(code { try arcgis.setQueryLanguage(.cql2Text) } == .unsupported)
        let wfs = try FeatureTable.wfs(url: "http://w.test/wfs", typeName: "t", context: context)
        #expect(code { try wfs.setQueryFormat(.pbf) } == .unsupported)
        do {
            try wfs.setOption("query_format", "pbf")
        } catch {
            #expect(error.message.contains("axis_order, filter_axis_order, output_format"))
        }
    }
}
