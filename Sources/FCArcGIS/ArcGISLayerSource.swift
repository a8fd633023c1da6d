// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

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
    /// The layer's own spatial reference (as its document gives it), and the
    /// output systems the service refused: queries then ask in the layer's
    /// own (or WGS84) and project here — one failed request per table, not one
    /// per page.
    private let outputSystems = Locked(OutputSystems())

    private struct OutputSystems {
        var native: Int32 = 0
        var refused: Set<Int32> = []
    }

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
        let metadata = try ArcGISLayerInfo.parse(json, url: RequestURL.redacted(layerURL.string))
        outputSystems.withLock { $0.native = metadata.spatialReference?.effectiveWkid ?? 0 }
        return metadata
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
        guard let (serviceURL, id) = service(of: layerURL) else { return failure }
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
        let fetched = try await withOutputSystem(query, metadata) { (query, output, keeper) async throws(FeatureCacheError) in
            // With a box widened into the service's system, the rows are checked here.
            try await PageSink.keeping(keeper) { () async throws(FeatureCacheError) in
                try await withFormat(metadata) { (format) async throws(FeatureCacheError) in
                    try await runner(metadata, format, query, output, outFields: outFields, progress: progress, maxPages: maxPages).run()
                }
            }
        }
        statistics.update { $0.featuresReceived += fetched.featureCount }
        return fetched
    }

    /// The layer resource's editingInfo dates (and serverGen) now: one request.
    func currentDataVersion(metadata: TableMetadata) async throws(FeatureCacheError) -> String? {
        guard metadata.dataVersion != nil else { return nil }
        return ArcGISLayerInfo.dataVersion(try await requester.getJSON(layerURL))
    }

    func count(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Int {
        try await withOutputSystem(query, metadata) { (sent, output, keeper) async throws(FeatureCacheError) in
            // A widened box counts too many: the features are fetched and counted.
            if keeper != nil {
                return try await fetch(query, outFields: nil, metadata: metadata, progress: nil, maxPages: nil).featureCount
            }
            return try await withFormat(metadata) { (format) async throws(FeatureCacheError) in
                try await runner(metadata, format, sent, output).count()
            }
        }
    }

    func extent(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Envelope? {
        try await withOutputSystem(query, metadata) { (sent, output, keeper) async throws(FeatureCacheError) in
            if keeper != nil { return try await extentOfFetched(query, metadata: metadata) }
            return try await withFormat(metadata) { (format) async throws(FeatureCacheError) in
                try await runner(metadata, format, sent, output).extent()
            }
        }
    }

    /// A query runner of this layer, asking `output` as `outSR` (nil: the table's system).
    private func runner(
        _ metadata: TableMetadata, _ format: ArcGISQueryFormat, _ query: QueryParameters, _ output: Int32?,
        outFields: [String]? = nil, progress: PopulateProgress? = nil, maxPages: Int? = nil
    ) -> ArcGISQueryRunner {
        var runner = ArcGISQueryRunner(
            layerURL: layerURL, requester: requester, metadata: metadata, format: format, query: query, outFields: outFields,
            progress: progress, maxPages: maxPages)
        runner.outputWkid = output
        return runner
    }

    /// Runs `operation` in an output system the service produces. The
    /// table's own goes as `outSR`; when the service refuses it (its error
    /// 400 or 500, as "Unable to complete operation.", while the layer's own
    /// system answers) the operation runs again asking the layer's own
    /// system (WGS84 when the layer gives none) and the pages are projected
    /// here — and so does every later one of this table. A query geometry in
    /// the refused system goes as its box projected into the service's
    /// (`keeper` then checks the rows against the query as asked); the
    /// operation gets the query to send, the `outSR` (nil: the table's) and
    /// that keeper.
    private func withOutputSystem<T>(
        _ query: QueryParameters, _ metadata: TableMetadata,
        _ operation: (QueryParameters, Int32?, PageKeeper?) async throws(FeatureCacheError) -> T
    ) async throws(FeatureCacheError) -> T {
        let asked = metadata.spatialReference?.effectiveWkid ?? 0
        let (native, refused) = outputSystems.withLock { ($0.native, $0.refused.contains(asked)) }
        let fallback = native != 0 && native != asked ? native : asked == 4326 ? 0 : 4326
        if refused { return try await runInService(fallback, query, metadata, operation) }
        do {
            return try await operation(query, nil, nil)
        } catch  where asked != 0 && fallback != 0 && Self.mayRefuseOutputSystem(error) && PageSink.current?.mayRestart != false {
            let answer: T
            do {
                answer = try await runInService(fallback, query, metadata, operation)
            } catch {
                throw error  // not the output system's doing: the first failure stands
            }
            outputSystems.withLock { _ = $0.refused.insert(asked) }
            return answer
        }
    }

    private func runInService<T>(
        _ output: Int32, _ query: QueryParameters, _ metadata: TableMetadata,
        _ operation: (QueryParameters, Int32?, PageKeeper?) async throws(FeatureCacheError) -> T
    ) async throws(FeatureCacheError) -> T {
        let asked = metadata.spatialReference?.effectiveWkid ?? 0
        guard let geometry = query.geometry, geometry.wkid == asked || geometry.wkid == 0 else {
            return try await operation(query, output, nil)
        }
        let filter = try SpatialFilter(query, tableWkid: asked)
        let box = try filter.box.projected(from: asked, to: output)
        var sent = query
        sent.geometry = .envelope(
            Envelope(xmin: box.xmin, ymin: box.ymin, xmax: box.xmax, ymax: box.ymax, spatialReference: SpatialReference(wkid: output)))
        sent.spatialRelationship = .envelopeIntersects
        sent.maxFeatures = 0
        sent.resultOffset = 0
        let keeper = try PageKeeper(query, fields: metadata.fields, tableWkid: asked)
        return try await operation(sent, output, keeper)
    }

    /// Whether a failure may be the service refusing an output system: its
    /// own error 400 or 500, or HTTP 400/500 (the vendor's answer to an
    /// `outSR` it cannot produce is 400 "Unable to complete operation.").
    static func mayRefuseOutputSystem(_ error: FeatureCacheError) -> Bool {
        switch error.code {
        case .service: return [400, 500].contains(error.serviceCode)
        case .http: return [400, 500].contains(error.httpStatus)
        default: return false
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
        } catch
            where format == .pbf && queryFormat.withLock({ $0 }) == .auto && Self.refusesPBF(error)
            && PageSink.current?.mayRestart != false
        {
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
        ] + ArcGISLayerFact.allCases.map(\.option)
    }
}
