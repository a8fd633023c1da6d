// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// The OGC API - Features adapter of a feature table: one collection of a
/// service (`…/collections/{id}`), read as GeoJSON.
struct OGCCollectionSource: FeatureSource {
    let service: OGCService
    let collectionId: String
    let statistics: StatisticsCounter
    /// Feature ids (numbers or strings) → stable object ids, for the table's life.
    let identity = FeatureIdentity()

    /// What loading learned and what queries have learned about the server since.
    struct State {
        var info: OGCCollectionInfo?
        var language: QueryLanguage = .auto
        /// The filter dialects still worth trying, best first (a refused one is dropped).
        var dialects: [OGCFilterDialect]?
        /// The server answered a filter with features that do not match it.
        var filterIgnored = false
        /// Item ETags read before an update or delete, by item id: sent as `If-Match`.
        var etags: [String: String] = [:]
        /// Items as read before an update, by item id: a PUT sends the whole
        /// item as served, with only what the user changed replaced.
        var served: [String: JSONValue] = [:]
        /// An empty answer to integer `name=value` parameters had features
        /// without them: the server compares them wrongly; none is sent again.
        var integerParametersMiscompared = false
        /// The server refused the `crs` it lists for the table's system (a 4xx):
        /// items come in CRS84 and are projected here from then on.
        var refusedCRS = false
    }
    let state = Locked(State())

    var kind: ServiceKind { .ogcFeatures }
    var urlString: String { collectionURL.string }
    var collectionURL: RequestURL { service.collectionURL(collectionId) }
    var reopening: (url: String, name: String?) { (service.url, collectionId) }
    var requester: OGCRequester { OGCRequester(context: service.context, statistics: statistics, serviceURL: service.url) }

    var queryLanguage: QueryLanguage { state.withLock { $0.language } }

    func setQueryLanguage(_ language: QueryLanguage) {
        state.withLock {
            $0.language = language
            $0.dialects = nil
        }
    }

    /// The names callers set and read them by.
    enum Option: String {
        case queryLanguage = "query_language"
    }

    var options: [SourceOption] {
        [
            .choice(
                Option.queryLanguage.rawValue,
                "How where clauses reach the server: auto (what it declares, probed on first use), local (never sent), cql2-text or cql2-json.",
                read: { _ in self.queryLanguage },
                write: { language in self.setQueryLanguage(language) }),
            .fact(Self.itemTypeFact, "The collection's itemType: feature, or record (items without geometry)."),
        ]
    }

    /// The name of the report-only option (and source fact) of the collection's itemType.
    static let itemTypeFact = "item_type"

    func loadMetadata(retrying: Bool) async throws(FeatureCacheError) -> TableMetadata {
        try await service.load(retrying: retrying)
        let json: JSONValue, documentURL: RequestURL  // where redirects settled: its links are relative to it
        do {
            (json, documentURL) = try await requester.getDocument(.init(url: collectionURL))
        } catch  where [400, 404, 410, 422].contains(error.httpStatus) {
            // 404 and 410 say so; a 400 or 422 (tipg's answer) says so when the
            // service's own list of collections lacks the id.
            let listed = (try? service.collections().map(\.id)) ?? []
            guard error.httpStatus == 404 || error.httpStatus == 410 || !listed.contains(collectionId) else { throw error }
            throw FeatureCacheError.notFound(
                "the OGC API at \(RequestURL.redacted(service.url)) has no collection '\(collectionId)' (HTTP \(error.httpStatus))"
                    + (listed.isEmpty ? "" : "; it lists: \(listed.prefix(20).joined(separator: ", "))"),
                httpStatus: error.httpStatus, serviceCode: error.serviceCode)
        }
        var info = try OGCCollectionInfo.parse(json, id: collectionId, url: documentURL, limit: service.limitMaximum(for: collectionId))
        let links = OGCLinks(json["links"], base: documentURL)
        var described = false
        if let link = links.link("queryables", types: ["application/schema+json", "application/json"])
            ?? (service.conforms("/conf/queryables") ? .init(url: collectionURL.appendingPath("queryables")) : nil),
            let queryables = try? await requester.getJSON(link)
        {
            described = info.applyQueryables(queryables)
        }
        try Task.checkCancellationTyped()
        let undecidedNumbers = info.metadata.fields.contains(where: \.widensToDouble)
        if !described || undecidedNumbers || info.metadata.geometryType == .unknown || info.metadata.geometryType == .none {
            // No usable schema (or "geometry-any"): the first items tell the
            // properties and the geometry type; "number"s, whether they hold
            // fractions so far.
            var sample = info.itemsURL
            sample.set("limit", described && !undecidedNumbers ? "1" : "100")
            let (page, _) = try await requester.fetch(requester.request(sample)) { bytes throws(FeatureCacheError) in
                try GeoJSONReader.read(bytes, identity: identity)
            }
            info.applySample(page.batch, fields: !described)
        }
        state.withLock {
            $0.info = info
            $0.dialects = nil
            $0.filterIgnored = false
        }
        var metadata = info.metadata
        metadata.editing = Self.editing(conforms: service.conforms, methods: service.editMethods(for: collectionId))
        if metadata.editing.isEditable {
            for index in metadata.fields.indices { metadata.fields[index].editable = true }
        }
        return metadata
    }

    func loadedInfo() throws(FeatureCacheError) -> OGCCollectionInfo {
        guard let info = state.withLock({ $0.info }) else { throw FeatureCacheError.invalidState("the collection is not loaded") }
        return info
    }

    /// The dialects to try now, learned or from the service's declarations.
    func filterDialects() -> [OGCFilterDialect] {
        state.withLock { state in
            if let learned = state.dialects { return learned }
            let candidates = OGCFilterDialect.candidates(
                state.language,
                declaresFilter: service.conforms("/conf/filter") || service.conforms("/conf/features-filter"),
                declaresQueryables: service.conforms("/conf/queryables"),
                declared: service.conforms)
            state.dialects = candidates
            return candidates
        }
    }

    /// The server refused `dialect`: the next one is tried from now on.
    func dropDialect(_ dialect: OGCFilterDialect) {
        state.withLock { $0.dialects = ($0.dialects ?? []).filter { $0 != dialect } }
    }

    /// The server returned features that fail the filter it was sent: it ignores
    /// filters, so none is sent again and every clause is evaluated locally.
    func markFilterIgnored() {
        let first = state.withLock { state in
            defer { state.filterIgnored = true; state.dialects = [] }
            return !state.filterIgnored
        }
        if first { statistics.update { $0.serverFiltersIgnored += 1 } }
    }

    func fetch(
        _ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
        progress: PopulateProgress?, maxPages: Int?
    ) async throws(FeatureCacheError) -> FetchedFeatures {
        let plan = try OGCItemsPlan(query, source: self, metadata: metadata)
        do {
            return try await fetch(plan, metadata: metadata, progress: progress, maxPages: maxPages)
        } catch
            where plan.askedCRS != nil && (400..<500).contains(error.httpStatus) && ![401, 403, 404].contains(error.httpStatus)
            && PageSink.current?.mayRestart != false
        {
            // A listed crs the server cannot produce after all: CRS84, projected
            // here; a failure then is not the crs's doing and the first stands.
            let refusal = error
            state.withLock { $0.refusedCRS = true }
            let inCRS84 = try OGCItemsPlan(query, source: self, metadata: metadata)
            do {
                return try await fetch(inCRS84, metadata: metadata, progress: progress, maxPages: maxPages)
            } catch {
                state.withLock { $0.refusedCRS = false }
                throw refusal
            }
        }
    }

    private func fetch(
        _ plan: OGCItemsPlan, metadata: TableMetadata, progress: PopulateProgress?, maxPages: Int?
    ) async throws(FeatureCacheError)
        -> FetchedFeatures
    {
        if !plan.query.objectIds.isEmpty {
            return try await OGCItemsPager(plan: plan, source: self, progress: progress, maxPages: nil).fetchByIds(plan.query.objectIds)
        }
        let fetched = try await OGCItemsPager(plan: plan, source: self, progress: progress, maxPages: maxPages).run()
        guard plan.sentIntegerParameters, fetched.featureCount == 0 else { return fetched }
        // Nothing for an integer sent as text proves nothing: asked again
        // without it (the clause is checked here), and if that finds features
        // the server compares integers wrongly and gets none from now on.
        let unfiltered = try OGCItemsPlan(plan.query, source: self, metadata: metadata, integers: false)
        let again = try await OGCItemsPager(plan: unfiltered, source: self, progress: progress, maxPages: maxPages).run()
        if again.featureCount > 0 { state.withLock { $0.integerParametersMiscompared = true } }
        return again
    }

    func count(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Int {
        var query = query
        query.returnGeometry = true
        let plan = try OGCItemsPlan(query, source: self, metadata: metadata)
        if query.objectIds.isEmpty, query.maxFeatures == 0, plan.serverFiltersExactly(metadata) {
            if let matched = try await OGCItemsPager(plan: plan, source: self, progress: nil, maxPages: nil).numberMatched() {
                return matched
            }
        }
        return try await fetch(query, outFields: nil, metadata: metadata, progress: nil, maxPages: nil).featureCount
    }

    func extent(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Envelope? {
        try await extentOfFetched(query, metadata: metadata)
    }
}
