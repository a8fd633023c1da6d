// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Pages through GetFeature answers for one plan with COUNT/STARTINDEX (1.1:
/// MAXFEATURES/STARTINDEX).
///
/// - More pages are asked for while the server says there are more: `numberMatched`
///   not reached, or a `next` link. A server that says neither (WFS 1.0/1.1,
///   QGIS Server in every version) is done with a page shorter than the count
///   asked for: asking again until an empty page comes back would cost a
///   request per populate and per on-interaction tile. (A server that cut COUNT
///   to an undeclared maximum below the page size would look finished: page
///   sizes come from `CountDefault` when the capabilities declare one.)
/// - A server that ignores STARTINDEX (the second page starts like the first) is
///   asked once for everything instead.
/// - The first page with a pushed filter is checked: features failing the filter
///   mean the server ignores it, and the filter is not sent again; a server that
///   refuses the filter (an exception) is asked again without it. The whole
///   query is evaluated locally on every page either way.
struct WFSPager {
    var plan: WFSGetFeaturePlan
    let source: WFSFeatureTypeSource
    let progress: PopulateProgress?
    let maxPages: Int?
    let metadata: TableMetadata
    private let budget = PageBudget()

    init(plan: WFSGetFeaturePlan, source: WFSFeatureTypeSource, progress: PopulateProgress?, maxPages: Int?, metadata: TableMetadata) {
        self.plan = plan
        self.source = source
        self.progress = progress
        self.maxPages = maxPages
        self.metadata = metadata
    }

    private var query: QueryParameters { plan.query }

    private func read(count: Int?, startIndex: Int) async throws(FeatureCacheError) -> WFSPageReader.Page {
        try await pageFetch(count: count, startIndex: startIndex)()
    }

    /// Reads the page at `startIndex` when called, from any task.
    private func pageFetch(count: Int?, startIndex: Int) -> PagePrefetcher<Int, WFSPageReader.Page>.Fetch {
        let reader = WFSPageReader(source: source, state: plan.state, metadata: metadata, budget: budget)
        let request = plan.request(source, count: count, startIndex: startIndex)
        let (askedWkid, projection) = (plan.askedWkid, plan.projection)
        return { () async throws(FeatureCacheError) in try await reader.read(request, askedWkid: askedWkid, projection: projection) }
    }

    /// The first page; a refused filter (an exception or HTTP 400) is retried without it.
    private mutating func first(count: Int?) async throws(FeatureCacheError) -> WFSPageReader.Page {
        guard plan.pushed != nil else { return try await read(count: count, startIndex: 0) }
        do {
            return try await read(count: count, startIndex: 0)
        } catch
            where error.code == .service || (400..<500).contains(error.httpStatus) && error.httpStatus != 401 && error.httpStatus != 403
        {
            source.state.withLock { $0.filterRefused = true }
            source.statistics.update { $0.serverFiltersIgnored += 1 }
            plan = try WFSGetFeaturePlan(plan.query, source: source, metadata: metadata, pushWhere: false)
            return try await read(count: count, startIndex: 0)
        }
    }

    mutating func run() async throws(FeatureCacheError) -> FetchedFeatures {
        var fetched = FetchedFeatures()
        let count = plan.dropsRowsLocally || query.maxFeatures == 0 ? plan.pageSize : min(plan.pageSize, query.rowsEnd)
        var current = try await first(count: count)
        if let pushed = plan.pushed, current.batch.count > 0, try pushed.select(current.batch).count < current.batch.count {
            // The server ignored the filter: nothing is lost (everything is checked
            // locally), but it is not sent again.
            source.state.withLock { $0.filterRefused = true }
            source.statistics.update { $0.serverFiltersIgnored += 1 }
        }
        var numberMatched = current.numberMatched
        var serverRows = 0
        var firstId: Int64? = nil
        var keeper = plan.keeper
        var pages = 0
        let ahead = PagePrefetcher<Int, WFSPageReader.Page>(context: source.service.context)
        defer { ahead.finish() }
        while true {
            pages += 1
            let batch = current.batch
            if current.emptyBody { try await confirmEmpty(startIndex: serverRows) }
            if pages == 2, let firstId, batch.count > 0, batch.objectId(0) == firstId {
                // STARTINDEX ignored: every page would be the first one.
                return try await everythingAtOnce()
            }
            if pages == 1, batch.count > 0 { firstId = batch.objectId(0) }
            serverRows += batch.count
            try keeper.keep(batch, into: &fetched)
            progress?(
                FetchProgress(
                    pages: pages, features: keeper.kept,
                    totalFeatures: FetchProgress.total(matched: numberMatched, dropsRowsLocally: plan.dropsRowsLocally, query: query)))

            let more: Bool
            if current.batch.count == 0 {
                more = false
            } else if let matched = numberMatched {
                more = Int64(serverRows) < matched
            } else if current.next != nil {
                more = true
            } else {
                // No totals: a full page may have more behind it, a short one is the last.
                more = current.batch.count >= count
            }
            if keeper.isFull {
                fetched.limitExceeded = fetched.limitExceeded || more
                return fetched
            }
            guard more else { break }
            if let maxPages, pages >= maxPages {
                fetched.complete = false
                return fetched
            }
            try Task.checkCancellationTyped()
            if maxPages == nil, pages >= 2, let matched = numberMatched, batch.count > 0 {
                // STARTINDEX works (page two did not start like page one) and the
                // total is known: the pages up to it, a page size apart, go side by side.
                ahead.expect(
                    stride(
                        from: Int64(serverRows),
                        to: PageKeeper.serverRowsNeeded(matched: matched, dropsRowsLocally: plan.dropsRowsLocally, query: query),
                        by: batch.count
                    ).prefix(ahead.window.limit).map { start in
                        (Int(start), pageFetch(count: count, startIndex: Int(start)))
                    })
            }
            current = try await ahead.page(serverRows, fetch: pageFetch(count: count, startIndex: serverRows))
            if numberMatched == nil { numberMatched = current.numberMatched }
        }
        if let matched = numberMatched, Int64(serverRows) < matched {
            throw FeatureCacheError(
                .service,
                "\(RequestURL.redacted(source.service.url)): the WFS said \(matched) features match but its pages ended after \(serverRows)"
            )
        }
        if serverRows == 0 { try await checkSwappedBox() }
        return fetched
    }

    /// An empty answer to a box whose axis order nothing proved: when the same
    /// box with its axes swapped holds features, the server reads boxes the
    /// other way, and "nothing here" would be a silent wrong answer.
    private func checkSwappedBox() async throws(FeatureCacheError) {
        guard let (corners, crs) = plan.unprovenBox else { return }
        let swapped = [corners[1], corners[0], corners[3], corners[2]]
        guard
            let count = await WFSHits.inBox(
                swapped, crs: crs, source: source, typeName: plan.state.type!.name,
                version: plan.version), count > 0
        else { return }
        throw FeatureCacheError(
            .service,
            "\(RequestURL.redacted(source.service.url)): the box \(corners.map(JSONNumberText.shortest).joined(separator: ",")) (\(crs)) found no features, but with its axes swapped the server counts \(count): it reads boxes in the other axis order. Set the filter axis order (fc_wfs_table_set_filter_axis_order) to say which."
        )
    }

    /// One request without COUNT/STARTINDEX, for servers that cannot page.
    private func everythingAtOnce() async throws(FeatureCacheError) -> FetchedFeatures {
        var fetched = FetchedFeatures()
        var keeper = plan.keeper
        let page = try await read(count: nil, startIndex: 0)
        if let matched = page.numberMatched, Int64(page.batch.count) < matched {
            throw FeatureCacheError(
                .service,
                "\(RequestURL.redacted(source.service.url)): the WFS ignores STARTINDEX and its whole answer holds \(page.batch.count) of the \(matched) features it says match"
            )
        }
        try keeper.keep(page.batch, into: &fetched)
        progress?(
            FetchProgress(
                pages: 1, features: keeper.kept,
                totalFeatures: FetchProgress.total(matched: page.numberMatched, dropsRowsLocally: plan.dropsRowsLocally, query: query)))
        return fetched
    }

    /// An empty body where a GeoJSON page was due (MapServer's OGR output writes
    /// nothing at all when nothing matches) passes as "no features" only when the
    /// server's own count says so: the same page asked with RESULTTYPE=hits and
    /// COUNT=1 in the server's default GML (a 1.0 server ignores hits and sends
    /// at most one feature). Otherwise a failure that emptied the response would
    /// pass for an empty answer.
    private func confirmEmpty(startIndex: Int) async throws(FeatureCacheError) {
        let request = plan.request(source, count: 1, startIndex: startIndex, hits: true)
        let response = try await source.requester.send(request)
        let counted = try WFSHits.counted(response, of: request, identity: source.identity)
        guard counted <= Int64(startIndex) else {
            throw FeatureCacheError.parse(
                "\(RequestURL.redacted(source.service.url)): a GetFeature page came back as an empty body, but the server counts \(counted) matching features: the response was lost or cut"
            )
        }
    }

    /// `RESULTTYPE=hits` (2.0 only: 1.1 servers cap `numberOfFeatures`, MapServer at its maximum).
    func hits() async throws(FeatureCacheError) -> Int? {
        guard plan.version.isV2, plan.pushed == nil || !source.state.withLock({ $0.filterRefused }) else { return nil }
        let request = plan.request(source, count: nil, startIndex: 0, hits: true)
        let response = try await source.requester.send(request)
        let identity = source.identity
        let page = try readBody(response.body, of: request) { bytes throws(FeatureCacheError) in
            try GMLReader.read(bytes, fields: [], geometryProperty: nil, identity: identity, swapAxes: false)
        }
        return page.numberMatched.map { Int($0) }
    }
}
