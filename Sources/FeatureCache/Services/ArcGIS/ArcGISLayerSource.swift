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
                throw Self.unlisted(layerId, service: service.url, layers: layers)
            }
        }
        let json: JSONValue
        do {
            json = try await requester.getJSON(layerURL)
        } catch where error.code == .service || [400, 404, 410].contains(error.httpStatus) {
            throw await Self.unlistedOr(error, layerURL: layerURL, requester: requester)
        }
        return try ArcGISLayerInfo.parse(json, url: RequestURL.redacted(layerURL.string))
    }

    /// The layer's failed answer as `.notFound` when the service the URL names
    /// (its parent, `…/FeatureServer`) loads and does not list the layer's id:
    /// decided from the service's own list, not from the error's wording, which
    /// differs from server to server. Otherwise the failure as it was.
    static func unlistedOr(_ failure: FeatureCacheError, layerURL: RequestURL, requester: ArcGISRequester) async -> FeatureCacheError {
        let base = layerURL.base
        guard let slash = base.lastIndex(of: "/"), let id = Int(base[base.index(after: slash)...]) else { return failure }
        let serviceURL = RequestURL(base: String(base[..<slash]), parameters: layerURL.parameters)
        guard let json = try? await requester.getJSON(serviceURL),
              let layers = try? ArcGISService.parse(json, url: RequestURL.redacted(serviceURL.string)).layers,
              !layers.contains(where: { $0.id == id }) else { return failure }
        var error = Self.unlisted(id, service: serviceURL.string, layers: layers)
        error.message += "; the layer's own answer: \(failure.message)"
        error.httpStatus = failure.httpStatus
        error.serviceCode = failure.serviceCode
        return error
    }

    private static func unlisted(_ id: Int, service: String, layers: [ArcGISLayerSummary]) -> FeatureCacheError {
        let known = layers.prefix(20).map { "\($0.id) \($0.name)" }.joined(separator: ", ")
        return .notFound("the ArcGIS service at \(RequestURL.redacted(service)) has no layer or table \(id) (it has: \(known))")
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
