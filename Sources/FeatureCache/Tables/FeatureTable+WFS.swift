// SPDX-License-Identifier: Apache-2.0
/// WFS feature-type tables (the ArcGIS SDK's `WFSFeatureTable`): creation, axis
/// order, output format, and populating with a complete GetFeature document.
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
        return FeatureTable(source: WFSFeatureTypeSource(service: service, typeName: typeName, statistics: statistics),
                            context: service.context, statistics: statistics)
    }

    private func wfsSource(_ what: String) throws(FeatureCacheError) -> WFSFeatureTypeSource {
        guard let source = source.wfsFeatureType else {
            throw FeatureCacheError(.unsupported, "\(what) applies to WFS tables only")
        }
        return source
    }

    /// The axis order of the coordinates the service sends (`forFilters` false) or
    /// of the boxes sent to it (true). Any time; applies to the next request.
    public func setAxisOrder(_ order: AxisOrder, forFilters: Bool) throws(FeatureCacheError) {
        let source = try wfsSource("the axis order")
        if forFilters { source.setAxisOrders(data: nil, filter: order) } else { source.setAxisOrders(data: order, filter: nil) }
    }

    public func axisOrder(forFilters: Bool) throws(FeatureCacheError) -> AxisOrder {
        let orders = try wfsSource("the axis order").axisOrders
        return forFilters ? orders.filter : orders.data
    }

    /// The GetFeature output format (`application/json; subtype=geojson`,
    /// `application/gml+xml; version=3.2`, …); nil chooses from the capabilities:
    /// GeoJSON when offered, else GML 3.2, 3.1.1, 2.
    public func setOutputFormat(_ format: String?) throws(FeatureCacheError) {
        try wfsSource("the output format").setOutputFormat(format.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The output format requests use (nil: the server's default, GML).
    public func outputFormat() throws(FeatureCacheError) -> String? { try wfsSource("the output format").outputFormat }

    /// Sends `xml`, a complete `wfs:GetFeature` document, as it is (POST) and puts
    /// the features of the answer into the cache (the ArcGIS SDK's
    /// `populateFromService(usingXMLRequest:clearCache:)`). One request: a
    /// document that asks for more than one response holds sets `limitExceeded`.
    /// On failure the cache is exactly as it was.
    public func populate(wfsXML xml: String, clearCache: Bool,
                         progress: PopulateProgress? = nil) async throws(FeatureCacheError) -> FeatureResult {
        let source = try wfsSource("populating with a GetFeature document")
        try await load()
        let metadata = try metadata()
        var fetched = try await source.fetchXML(xml, metadata: metadata)
        // The document may sort (fes:SortBy): its order is kept as sent.
        fetched.ordered = true
        progress?(FetchProgress(pages: 1, features: fetched.featureCount))
        try Task.checkCancellationTyped()
        fetched.compact()  // here, where the pages have one owner: each is let go once copied
        if clearCache { interaction.restart(resetCoverage: true) }
        return merge(fetched, clearingFirst: clearCache, pinned: true, metadata: metadata)
    }
}
