/// The ArcGIS REST adapter of a feature table: a feature-service (or map-service)
/// layer or table at `…/FeatureServer/<id>`.
struct ArcGISLayerSource: FeatureSource {
    let layerURL: RequestURL
    let context: ClientContext
    let statistics: StatisticsCounter

    private var requester: ArcGISRequester { ArcGISRequester(context: context, statistics: statistics, serviceURL: layerURL.string) }

    var kind: ServiceKind { .arcgis }
    var urlString: String { layerURL.string }

    func loadMetadata(retrying: Bool) async throws(FeatureCacheError) -> TableMetadata {
        let json = try await requester.getJSON(layerURL)
        return try ArcGISLayerInfo.parse(json, url: RequestURL.redacted(layerURL.string))
    }

    func fetch(_ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
               progress: PopulateProgress?, maxPages: Int?) async throws(FeatureCacheError) -> FetchedFeatures {
        let runner = ArcGISQueryRunner(layerURL: layerURL, requester: requester, metadata: metadata,
                                       query: query, outFields: outFields, progress: progress, maxPages: maxPages)
        let fetched = try await runner.run()
        statistics.update { $0.featuresReceived += fetched.featureCount }
        return fetched
    }

    func count(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Int {
        let runner = ArcGISQueryRunner(layerURL: layerURL, requester: requester, metadata: metadata,
                                       query: query, outFields: nil, progress: nil)
        return try await runner.count()
    }

    func extent(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Envelope? {
        let runner = ArcGISQueryRunner(layerURL: layerURL, requester: requester, metadata: metadata,
                                       query: query, outFields: nil, progress: nil)
        return try await runner.extent()
    }
}
