// SPDX-License-Identifier: Apache-2.0
/// The ArcGIS REST adapter of a feature table: a feature-service (or map-service)
/// layer or table at `…/FeatureServer/<id>`.
struct ArcGISLayerSource: FeatureSource {
    let layerURL: RequestURL
    let context: ClientContext
    let statistics: StatisticsCounter
    /// The service the table was created from (a strong dependency), if any.
    var service: ArcGISService? = nil
    var layerId: Int? = nil
    /// The format queries ask for, as set (`auto` until changed).
    let queryFormat = Locked(ArcGISQueryFormat.auto)

    private var requester: ArcGISRequester { ArcGISRequester(context: context, statistics: statistics, serviceURL: layerURL.string) }

    var kind: ServiceKind { .arcgis }
    var arcgisLayer: ArcGISLayerSource? { self }
    var urlString: String { layerURL.string }

    func loadMetadata(retrying: Bool) async throws(FeatureCacheError) -> TableMetadata {
        if let service, let layerId {
            if retrying { try await service.retryLoad() } else { try await service.load() }
            let layers = try service.layers()
            guard layers.contains(where: { $0.id == layerId }) else {
                let known = layers.prefix(20).map { "\($0.id) \($0.name)" }.joined(separator: ", ")
                throw FeatureCacheError.invalidArgument("the ArcGIS service at \(RequestURL.redacted(service.url)) has no layer or table \(layerId) (it has: \(known))")
            }
        }
        let json = try await requester.getJSON(layerURL)
        return try ArcGISLayerInfo.parse(json, url: RequestURL.redacted(layerURL.string))
    }

    func fetch(_ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
               progress: PopulateProgress?, maxPages: Int?) async throws(FeatureCacheError) -> FetchedFeatures {
        let runner = ArcGISQueryRunner(layerURL: layerURL, requester: requester, metadata: metadata, format: try format(metadata),
                                       query: query, outFields: outFields, progress: progress, maxPages: maxPages)
        let fetched = try await runner.run()
        statistics.update { $0.featuresReceived += fetched.featureCount }
        return fetched
    }

    func count(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Int {
        let runner = ArcGISQueryRunner(layerURL: layerURL, requester: requester, metadata: metadata, format: try format(metadata),
                                       query: query, outFields: nil, progress: nil)
        return try await runner.count()
    }

    func extent(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Envelope? {
        let runner = ArcGISQueryRunner(layerURL: layerURL, requester: requester, metadata: metadata, format: try format(metadata),
                                       query: query, outFields: nil, progress: nil)
        return try await runner.extent()
    }

    /// The format queries use: the setting, resolved against the layer's formats.
    func format(_ metadata: TableMetadata) throws(FeatureCacheError) -> ArcGISQueryFormat {
        try queryFormat.withLock { $0 }.resolved(for: metadata, layer: RequestURL.redacted(layerURL.string))
    }
}
