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
}
