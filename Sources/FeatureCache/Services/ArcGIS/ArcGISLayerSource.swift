// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables

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
    /// The layer lists PBF but answered a PBF query with an error: `auto`
    /// means JSON for this table from then on.
    let refusedPBF = Locked(false)

    var requester: ArcGISRequester { ArcGISRequester(context: context, statistics: statistics, serviceURL: layerURL.string) }

    var kind: ServiceKind { .arcgis }
    var urlString: String { layerURL.string }

    func loadMetadata(retrying: Bool) async throws(FeatureCacheError) -> TableMetadata {
        if let service, let layerId {
            try await service.load(retrying: retrying)
            let layers = try service.layers()
            guard layers.contains(where: { $0.id == layerId }) else {
                throw Self.unlisted(layerId, service: service.url, layers: layers)
            }
        }
        let json: JSONValue
        do {
            json = try await requester.getJSON(layerURL)
        } catch {
            throw await Self.unlistedOr(error, layerURL: layerURL, requester: requester)
        }
        return try ArcGISLayerInfo.parse(json, url: RequestURL.redacted(layerURL.string))
    }

    /// Whether a failed layer answer may mean the layer is not there: the
    /// service's error 400 or 404, or HTTP 400/404/410; not a server failure
    /// (500), a token or a permission error.
    private static func maySayUnlisted(_ error: FeatureCacheError) -> Bool {
        guard ![401, 403, 407].contains(error.httpStatus) else { return false }
        return (error.code == .service && [400, 404].contains(error.serviceCode)) || [400, 404, 410].contains(error.httpStatus)
    }

    /// The layer's failed answer as `.notFound` when it may say so
    /// (`maySayUnlisted`) and the service the URL names (its parent,
    /// `…/FeatureServer`) loads and does not list the layer's id: decided from
    /// the service's own list, not from the error's wording, which differs from
    /// server to server. Any other failure as it was, with nothing sent.
    static func unlistedOr(_ failure: FeatureCacheError, layerURL: RequestURL, requester: ArcGISRequester) async -> FeatureCacheError {
        guard maySayUnlisted(failure) else { return failure }
        let base = layerURL.base.hasSuffix("/") ? layerURL.base.dropLast() : Substring(layerURL.base)
        guard let slash = base.lastIndex(of: "/"), let id = Int(base[base.index(after: slash)...]) else { return failure }
        let serviceURL = RequestURL(base: String(base[..<slash]), parameters: layerURL.parameters)
        guard let json = try? await requester.getJSON(serviceURL),
            let layers = try? ArcGISService.parse(json, url: RequestURL.redacted(serviceURL.string)).layers,
            !layers.contains(where: { $0.id == id })
        else { return failure }
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

    func fetch(
        _ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
        progress: PopulateProgress?, maxPages: Int?
    ) async throws(FeatureCacheError) -> FetchedFeatures {
        let fetched = try await withFormat(metadata) { (format) async throws(FeatureCacheError) in
            try await ArcGISQueryRunner(
                layerURL: layerURL, requester: requester, metadata: metadata, format: format,
                query: query, outFields: outFields, progress: progress, maxPages: maxPages
            ).run()
        }
        statistics.update { $0.featuresReceived += fetched.featureCount }
        return fetched
    }

    func count(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Int {
        try await withFormat(metadata) { (format) async throws(FeatureCacheError) in
            try await ArcGISQueryRunner(
                layerURL: layerURL, requester: requester, metadata: metadata, format: format,
                query: query, outFields: nil, progress: nil
            ).count()
        }
    }

    func extent(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Envelope? {
        try await withFormat(metadata) { (format) async throws(FeatureCacheError) in
            try await ArcGISQueryRunner(
                layerURL: layerURL, requester: requester, metadata: metadata, format: format,
                query: query, outFields: nil, progress: nil
            ).extent()
        }
    }

    /// The format queries use: the setting, resolved against the layer's
    /// formats (`auto` is JSON once the layer refused PBF).
    func format(_ metadata: TableMetadata) throws(FeatureCacheError) -> ArcGISQueryFormat {
        let setting = queryFormat.withLock { $0 }
        if setting == .auto, refusedPBF.withLock({ $0 }) { return .json }
        return try setting.resolved(for: metadata, layer: RequestURL.redacted(layerURL.string))
    }

    /// Runs `operation` in the table's format. Some layers list PBF and then
    /// answer `f=pbf` with an error (3-D layers on ArcGIS Server, proxies,
    /// replays): when PBF was chosen by `auto` and the answer is the service's
    /// error, or HTTP 400 or 500 with an error document, the operation is asked
    /// again in JSON from its first request (nothing of the failed one was
    /// kept), and when JSON answers the table stays on JSON. Timeouts,
    /// 429/503, network failures and cancellation are not the format's doing
    /// and fail as they are; so does any failure when the caller set the format.
    private func withFormat<T>(
        _ metadata: TableMetadata,
        _ operation: (ArcGISQueryFormat) async throws(FeatureCacheError) -> T
    ) async throws(FeatureCacheError) -> T {
        let format = try format(metadata)
        do {
            return try await operation(format)
        } catch  where format == .pbf && queryFormat.withLock({ $0 }) == .auto && Self.refusesPBF(error) {
            statistics.update { $0.formatFallbacks += 1 }
            do {
                let answer = try await operation(.json)
                refusedPBF.withLock { $0 = true }
                return answer
            } catch let json {
                // Refused in JSON too (a bad where clause, a broken layer): not
                // the format's doing, so the table keeps asking in PBF.
                var failure = json
                failure.message += " (asked in JSON after the layer answered PBF with: \(error.message))"
                throw failure
            }
        }
    }

    /// Whether a PBF query's failure is the layer refusing the format: the
    /// service's own error (not a token's), or HTTP 400/500 with an error body.
    static func refusesPBF(_ error: FeatureCacheError) -> Bool {
        switch error.code {
        case .service: return error.serviceCode != 0 && ![498, 499].contains(error.serviceCode)  // 0: the library's own (paging) findings
        case .http: return [400, 500].contains(error.httpStatus) && error.serviceCode != 0
        default: return false
        }
    }
}

// MARK: - The options it declares

extension ArcGISLayerSource {
    /// The names callers set and read them by.
    enum Option: String {
        case queryFormat = "query_format", queryFormatInUse = "query_format_in_use"
    }

    var options: [SourceOption] {
        [
            .choice(
                Option.queryFormat.rawValue,
                "The format queries ask for (f=): auto (PBF when the layer lists it, else JSON), json, or pbf.",
                read: { _ in queryFormat.withLock { $0 } },
                write: { format in queryFormat.withLock { $0 = format } }),
            .choice(
                Option.queryFormatInUse.rawValue,
                "The format requests use: json or pbf, the setting resolved against the layer's supportedQueryFormats (needs the table loaded).",
                read: { (metadata) throws(FeatureCacheError) in
                    guard let metadata else { throw FeatureCacheError.invalidState("query_format_in_use needs the table loaded") }
                    return try format(metadata)
                },
                write: nil),
        ]
    }
}
