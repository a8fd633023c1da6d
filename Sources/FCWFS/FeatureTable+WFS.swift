// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// WFS feature-type tables (the ArcGIS SDK's `WFSFeatureTable`): creation, and
/// typed calls for the options the WFS adapter declares (axis orders, output
/// format) and for populating with a complete GetFeature document.
extension FeatureTable {
    /// A table on one feature type of a WFS, e.g.
    /// `https://host/wfs?service=wfs&request=getcapabilities` and `ms:buildings`
    /// (the prefix may be left out). It makes its own service object, loaded with the table.
    public static func wfs(url: String, typeName: String, context: ClientContext = .shared) throws(FeatureCacheError) -> FeatureTable {
        try wfs(service: WFSService(url: url, context: context), typeName: typeName)
    }

    /// A table on a feature type of `service` (a strong dependency: loading the
    /// table loads the service).
    public static func wfs(service: WFSService, typeName: String) throws(FeatureCacheError) -> FeatureTable {
        guard !typeName.isEmpty, !typeName.unicodeScalars.contains(where: { $0.value <= 0x20 }) else {
            throw FeatureCacheError.invalidArgument("a feature type name must be non-empty, without spaces or control characters")
        }
        let statistics = StatisticsCounter()
        return FeatureTable(
            source: WFSFeatureTypeSource(service: service, typeName: typeName, statistics: statistics),
            context: service.context, statistics: statistics)
    }

    private static func axisOption(forFilters: Bool) -> String {
        (forFilters ? WFSFeatureTypeSource.Option.filterAxisOrder : .axisOrder).rawValue
    }

    /// The axis order of the coordinates the service sends (`forFilters` false,
    /// option `axis_order`) or of the boxes sent to it (true, `filter_axis_order`).
    /// Any time; applies to the next request.
    public func setAxisOrder(_ order: AxisOrder, forFilters: Bool) throws(FeatureCacheError) {
        try setOption(Self.axisOption(forFilters: forFilters), order.optionValue)
    }

    public func axisOrder(forFilters: Bool) throws(FeatureCacheError) -> AxisOrder {
        AxisOrder(optionValue: try option(Self.axisOption(forFilters: forFilters)))
    }

    /// The GetFeature output format (option `output_format`:
    /// `application/json; subtype=geojson`, `application/gml+xml; version=3.2`, …);
    /// nil chooses from the capabilities: GeoJSON when offered, else GML 3.2, 3.1.1, 2.
    public func setOutputFormat(_ format: String?) throws(FeatureCacheError) {
        try setOption(WFSFeatureTypeSource.Option.outputFormat.rawValue, format ?? "")
    }

    /// The output format requests use (nil: the server's default, GML).
    public func outputFormat() throws(FeatureCacheError) -> String? {
        let format = try option(WFSFeatureTypeSource.Option.outputFormat.rawValue)
        return format.isEmpty ? nil : format
    }

    /// Sends `xml`, a complete `wfs:GetFeature` document, as it is (POST) and puts
    /// the features of the answer into the cache (`populate(nativeRequest:)`). One
    /// request: a document that asks for more than one response holds sets
    /// `limitExceeded`. On failure the cache is exactly as it was.
    public func populate(
        wfsXML xml: String, clearCache: Bool,
        progress: PopulateProgress? = nil
    ) async throws(FeatureCacheError) -> FeatureResult {
        guard serviceKind == .wfs else {
            throw FeatureCacheError(.unsupported, "populating with a GetFeature document applies to WFS tables only")
        }
        return try await populate(nativeRequest: xml, clearCache: clearCache, progress: progress)
    }
}
