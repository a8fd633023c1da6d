/// The ArcGIS REST adapter of a feature table: a feature-service (or map-service)
/// layer or table at `…/FeatureServer/<id>`.
struct ArcGISLayerSource: FeatureSource {
    let layerURL: RequestURL
    let context: ClientContext

    var kind: ServiceKind { .arcgis }
    var urlString: String { layerURL.string }

    func loadMetadata() async throws(FeatureCacheError) -> TableMetadata {
        let json = try await ArcGISRequester(context: context).getJSON(layerURL)
        return try ArcGISLayerInfo.parse(json, url: RequestURL.redacted(layerURL.string))
    }

    func fetch(_ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
               progress: PopulateProgress?) async throws(FeatureCacheError) -> FetchedFeatures {
        let runner = ArcGISQueryRunner(layerURL: layerURL, requester: ArcGISRequester(context: context), metadata: metadata,
                                       query: query, outFields: outFields, progress: progress)
        return try await runner.run()
    }
}
