// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Pages through a collection's `items` for one plan.
///
/// - Follows `rel=next` links, and keeps going while one exists (a short page
///   is not the end: servers cut `limit` silently); stops at `maxFeatures`.
/// - A `next` link that drops or changes the query's parameters (MapServer 8
///   drops `bbox` and would page through the whole collection) is not
///   followed: the pager continues with its own `offset` on its own URL.
/// - A `next` link seen before is a loop and fails; so do `numberReturned`
///   disagreeing with the page and pages that end before `numberMatched`.
/// - The first page probes the filter dialect (see `QueryLanguage.auto`); every
///   page is checked locally, and a server that ignored the filter is noticed.
struct OGCItemsPager {
    let plan: OGCItemsPlan
    let source: OGCCollectionSource
    let progress: PopulateProgress?
    let maxPages: Int?
    private let budget = PageBudget()

    private var requester: OGCRequester { source.requester }
    private var query: QueryParameters { plan.query }

    /// One page as read, with what it says about the rest.
    fileprivate struct Page {
        var page: GeoJSONPage
        var contentCRS: String?
    }

    /// The filter as sent with `dialect`.
    private func request(_ url: RequestURL, dialect: OGCFilterDialect?) -> HTTPRequest {
        guard let dialect, let filter = plan.filter(dialect) else { return requester.request(url) }
        var url = url
        if dialect == .cql2JSONPost {
            url.remove("filter")
            url.remove("filter-lang")
            return requester.request(url, post: ("application/query-cql-json", Array(filter.utf8)))
        }
        url.set("filter", filter)
        if let lang = dialect.filterLang { url.set("filter-lang", lang) }
        return requester.request(url)
    }

    private func read(_ request: HTTPRequest) async throws(FeatureCacheError) -> Page {
        try await pageFetch(request)()
    }

    /// Reads the page `request` asks for when called, from any task.
    private func pageFetch(_ request: HTTPRequest) -> PagePrefetcher<String, Page>.Fetch {
        let reader = PageReader(source: source, budget: budget)
        return { () async throws(FeatureCacheError) in try await reader.read(request) }
    }

    /// Reads one page: what a page sent ahead needs of the pager.
    private struct PageReader: Sendable {
        let source: OGCCollectionSource
        let budget: PageBudget

        func read(_ request: HTTPRequest) async throws(FeatureCacheError) -> Page {
            let identity = source.identity
            let (page, response) = try await source.requester.fetch(request) { bytes throws(FeatureCacheError) in
                try GeoJSONReader.read(bytes, identity: identity)
            }
            source.statistics.update { $0.featuresReceived += page.batch.count }
            try budget.spend(features: page.batch.count, limits: source.service.context.settings.limits, request: request.methodAndURL)
            if let returned = page.numberReturned, returned != Int64(page.batch.count) {
                throw FeatureCacheError(
                    .parse, "\(request.methodAndURL): numberReturned is \(returned) but the page holds \(page.batch.count) features")
            }
            return Page(page: page, contentCRS: response.header("Content-Crs"))
        }
    }

    /// The first page, trying filter dialects until the server takes one (a
    /// refused dialect is a 4xx); with none left the filter stays local.
    private func first(_ url: RequestURL) async throws(FeatureCacheError) -> (Page, OGCFilterDialect?) {
        guard plan.pushed != nil else { return (try await read(request(url, dialect: nil)), nil) }
        while let dialect = source.filterDialects().first {
            do {
                return (try await read(request(url, dialect: dialect)), dialect)
            } catch  where (400..<500).contains(error.httpStatus) && error.httpStatus != 401 && error.httpStatus != 403 {
                source.dropDialect(dialect)
                if source.queryLanguage != .auto, source.filterDialects().isEmpty { throw error }
            }
        }
        return (try await read(request(url, dialect: nil)), nil)
    }

    /// What a paging found: the features, or pages that repeated features
    /// and so skipped others (no stable order behind `limit`/`offset`).
    private enum Paged {
        case complete(FetchedFeatures)
        case repeated(distinct: Int, received: Int, matched: Int64)
    }

    /// The largest single page asked for when pages repeat features.
    static let largestSinglePage = 100_000

    func run() async throws(FeatureCacheError) -> FetchedFeatures {
        switch try await runOnce(limit: nil) {
        case let .complete(fetched): return fetched
        case let .repeated(distinct, received, matched):
            // The server keeps no order across pages (an items query without an
            // ORDER BY behind its offset): every feature in one page, where it
            // allows one that large; else no complete answer can be had.
            if matched <= Int64(Self.largestSinglePage), case let .complete(fetched) = try await runOnce(limit: Int(matched)) {
                return fetched
            }
            throw FeatureCacheError(
                .protocol,
                "\(RequestURL.redacted(plan.itemsURL.base)): the service said \(matched) features match and sent \(received), but only \(distinct) distinct ones: its pages repeat some features and skip others (no stable order behind limit/offset), and asking for them all in one page did not help"
            )
        }
    }

    private func runOnce(limit single: Int?) async throws(FeatureCacheError) -> Paged {
        var fetched = FetchedFeatures()
        var url = plan.itemsURL
        let limit = single ?? (plan.dropsRowsLocally || query.maxFeatures == 0 ? plan.pageSize : min(plan.pageSize, query.rowsEnd))
        url.set("limit", String(limit))
        /// Every id the server sent, to tell a repeated feature (and a skipped one).
        var receivedIds: [UInt64] = []
        var (current, dialect) = try await first(url)
        let ownURL = url
        var sentParameters = url.parameters.filter { !["limit", "offset", "f"].contains($0.name.lowercased()) }
        if let dialect, dialect != .cql2JSONPost, let filter = plan.filter(dialect) {
            sentParameters.append(("filter", filter))
        }
        var checkedFilter = false
        var numberMatched = current.page.numberMatched
        /// The count asked with `resulttype=hits` when the pages carry none: it
        /// only predicts pages to send ahead; the pages alone end the paging.
        var countAsked: Int64?? = nil
        var serverRows = 0
        var keeper = plan.keeper
        var repairing = false
        var emptyPagesInARow = 0
        var seen: Set<String> = [url.string]
        var pages = 0
        let ahead = PagePrefetcher<String, Page>(context: source.service.context)
        defer { ahead.finish() }
        while true {
            pages += 1
            serverRows += current.page.batch.count
            for row in 0..<current.page.batch.count { receivedIds.append(UInt64(bitPattern: current.page.batch.objectId(row))) }
            let batch = try toTableCRS(current.page.batch, contentCRS: current.contentCRS)
            if dialect != nil, !checkedFilter, batch.count > 0 {
                checkedFilter = true
                _ = try noticeIgnoredFilter(batch)
            }
            try keeper.keep(batch, into: &fetched)
            progress?(
                FetchProgress(
                    pages: pages, features: keeper.kept,
                    totalFeatures: FetchProgress.total(matched: numberMatched, dropsRowsLocally: plan.dropsRowsLocally, query: query)))
            let next = try current.page.nextLink.map { (href) throws(FeatureCacheError) in try Self.followable(href, from: url) }
            if keeper.isFull {
                fetched.limitExceeded = fetched.limitExceeded || next != nil
                return .complete(fetched)
            }
            guard var next else { break }
            if let matched = numberMatched, Int64(serverRows) >= matched { break }
            emptyPagesInARow = current.page.batch.count == 0 ? emptyPagesInARow + 1 : 0
            if repairing && current.page.batch.count == 0 { break }
            guard emptyPagesInARow < 3 else {
                throw FeatureCacheError(
                    .service, "\(RequestURL.redacted(url.base)): three empty pages in a row, each with a next link; stopping")
            }
            // A next link to the same resource that lost the query (MapServer
            // 8 drops bbox) is repaired; one to another resource (a static
            // host's next file) is the server's own paging, followed as it is:
            // the keeper checks every row whatever the server applied.
            if repairing || (next.base == url.base && !Self.keeps(sentParameters, next)) {
                if !repairing { source.statistics.update { $0.nextLinksRepaired += 1 } }
                repairing = true
                // The pager's own URL, offset by what the server has sent so far.
                next = ownURL.setting("offset", String(serverRows))
            } else if !seen.insert(next.string).inserted {
                throw FeatureCacheError(
                    .service,
                    "\(RequestURL.redacted(next.string)): the service's next link leads back to a page already read; stopping instead of looping"
                )
            }
            // Stopping early lets the caller ask for less (a tile's quarters);
            // a server that sent rows outside the query's area did not filter
            // by it (a static host), so asking for less brings the same: page on.
            if let maxPages, pages >= maxPages, !keeper.serverIgnoredArea {
                fetched.complete = false
                return .complete(fetched)
            }
            try Task.checkCancellationTyped()
            let paging = Self.pagingParameter(in: next, after: url, rows: serverRows)
            url = next
            let sendDialect = source.filterDialects().first == dialect ? dialect : nil
            if maxPages == nil, let paging {
                let step = current.page.batch.count
                if numberMatched == nil, countAsked == nil, ahead.window.limit > 1 {
                    // No total on the pages: page two is certain, and the server's
                    // count (asked alongside) says which pages follow it.
                    expectPages(
                        after: step, serverRows: serverRows, matched: Int64(serverRows) + 1, template: next,
                        parameter: paging, dialect: sendDialect, ahead)
                    countAsked = .some(await hitsCount(next, without: paging, dialect: sendDialect))
                    try Task.checkCancellationTyped()
                }
                if let matched = numberMatched ?? countAsked.flatMap({ $0 }) {
                    expectPages(
                        after: step, serverRows: serverRows, matched: matched, template: next,
                        parameter: paging, dialect: sendDialect, ahead)
                }
            }
            current = try await ahead.page(Self.key(url), fetch: pageFetch(request(url, dialect: sendDialect)))
            if numberMatched == nil { numberMatched = current.page.numberMatched }
        }
        if let matched = numberMatched, Int64(serverRows) < matched {
            throw FeatureCacheError(
                .service,
                "\(RequestURL.redacted(plan.itemsURL.base)): the service said \(matched) features match but its pages ended after \(serverRows)"
            )
        }
        // Pages that repeat features skip others: short of what the server said matched, no answer.
        if let matched = numberMatched, pages > 1 {
            let distinct = Self.distinctCount(&receivedIds)
            if distinct < serverRows, Int64(distinct) < matched {
                return .repeated(distinct: distinct, received: serverRows, matched: matched)
            }
        }
        return .complete(fetched)
    }

    /// How many different values `ids` holds (sorted in place).
    static func distinctCount(_ ids: inout [UInt64]) -> Int {
        guard !ids.isEmpty else { return 0 }
        RadixSort.sort(&ids)
        var distinct = 1
        for index in 1..<ids.count where ids[index] != ids[index - 1] { distinct += 1 }
        return distinct
    }

    /// Tells `ahead` the pages that follow when the server pages by position:
    /// the next page's URL is `template` with `parameter` (`offset`, GeoServer's
    /// `startIndex`…) at the rows read so far, and the total is known. Each
    /// later page is predicted one page size (`step`, what the server sends per
    /// page) further; a server that pages otherwise costs only the requests sent
    /// ahead, as each page is still asked for by its link.
    private func expectPages(
        after step: Int, serverRows: Int, matched: Int64, template: RequestURL, parameter: String,
        dialect: OGCFilterDialect?, _ ahead: PagePrefetcher<String, Page>
    ) {
        guard step > 0 else { return }
        var upcoming: [(key: String, fetch: PagePrefetcher<String, Page>.Fetch)] = []
        var position = serverRows
        while Int64(position) < PageKeeper.serverRowsNeeded(matched: matched, dropsRowsLocally: plan.dropsRowsLocally, query: query),
            upcoming.count < ahead.window.limit
        {
            let url = template.setting(parameter, String(position))
            upcoming.append((Self.key(url), pageFetch(request(url, dialect: dialect))))
            position += step
        }
        ahead.expect(upcoming)
    }

    /// The number of features matching, from `resulttype=hits` (pygeoapi and
    /// others answer it with `numberMatched` and no features), nil when the
    /// server does not: asked with `limit=1`, so a server ignoring it sends one
    /// feature, which is no count; a refusal is no count either.
    private func hitsCount(_ next: RequestURL, without paging: String, dialect: OGCFilterDialect?) async -> Int64? {
        var url = next.setting("resulttype", "hits").setting("limit", "1")
        url.remove(paging)
        guard let answer = try? await read(request(url, dialect: dialect)), answer.page.batch.count == 0,
            let matched = answer.page.numberMatched, matched >= 0
        else { return nil }
        return matched
    }

    /// The parameter by which a server pages, as its `next` link shows it: the
    /// one integer parameter whose value is the rows read so far and was not
    /// that in the page's own URL (`limit=10000` after 10,000 rows is not it);
    /// nil when none or more than one is.
    private static func pagingParameter(in next: RequestURL, after page: RequestURL, rows: Int) -> String? {
        guard rows > 0 else { return nil }
        let candidates = next.parameters.filter { parameter in
            Int(parameter.value) == rows && page.value(of: parameter.name).flatMap { Int($0) } != rows
        }
        return candidates.count == 1 ? candidates[0].name : nil
    }

    /// A page's identity whatever order its link writes the parameters in.
    private static func key(_ url: RequestURL) -> String {
        url.base + "?" + url.parameters.map { $0.name + "=" + $0.value }.sorted().joined(separator: "&")
    }

    /// Whether `batch` (sent with the filter) holds features failing it: the
    /// server ignores filters, which the source then remembers.
    private func noticeIgnoredFilter(_ batch: FeatureBatch) throws(FeatureCacheError) -> Bool {
        guard let pushed = plan.pushed, batch.count > 0, try pushed.check.select(batch).count < batch.count else { return false }
        source.markFilterIgnored()
        return true
    }

    /// Whether a next link still carries every parameter the query was sent with.
    private static func keeps(_ sent: [(name: String, value: String)], _ next: RequestURL) -> Bool {
        sent.allSatisfy { parameter in
            guard let value = next.parameters.first(where: { $0.name.lowercased() == parameter.name.lowercased() })?.value else {
                return false
            }
            return value == parameter.value || numbers(value) == numbers(parameter.value)
        }
    }

    /// A comma-separated list of numbers, to compare `bbox` values written differently.
    /// A `next` link as a URL to fetch. One that cannot be (another scheme, no
    /// host, control characters) fails the fetch: ending the paging there would
    /// pass a short answer for the whole one.
    private static func followable(_ href: String, from page: RequestURL) throws(FeatureCacheError) -> RequestURL {
        do {
            return try URLReference.resolve(href, against: page.string)
        } catch {
            throw .protocol("\(RequestURL.redacted(page.string)): its next link cannot be followed: \(error.message)")
        }
    }

    private static func numbers(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: " ")) }
        return parts.contains(where: { $0 == nil }) ? nil : parts.map { $0! }
    }

    /// The page in the table's spatial reference: as is when the server answered
    /// in the CRS asked for, projected here when it answered in CRS84.
    private func toTableCRS(_ batch: FeatureBatch, contentCRS: String?) throws(FeatureCacheError) -> FeatureBatch {
        if let asked = plan.askedCRS {
            guard let contentCRS, let answered = CRSURI.wkid(of: contentCRS), answered != CRSURI.wkid(of: asked) else {
                return eastNorth(batch, wkid: CRSURI.wkid(of: asked) ?? 0)
            }
            // The server ignored `crs` (it says so in Content-Crs).
            guard contentCRS.lowercased().contains("crs84"), let wanted = CRSURI.wkid(of: asked),
                let transform = try Projection.transform(from: 4326, to: wanted)
            else {
                throw FeatureCacheError(.service, "asked for \(asked) but the service answered in \(contentCRS)")
            }
            return batch.mappingCoordinates(transform)
        }
        if let projection = plan.projection { return batch.mappingCoordinates(projection) }
        return batch
    }

    /// A page in a CRS whose definition puts north first (EPSG:4258, EPSG:3035),
    /// which OGC API - Features Part 2 has servers write in that order: swapped
    /// to x = east, y = north — unless the collection's extent shows the server
    /// wrote east first anyway (the evidence wins over the rule).
    private func eastNorth(_ batch: FeatureBatch, wkid: Int32) -> FeatureBatch {
        guard batch.count > 0, let description = try? Projection.describe(SpatialReference(wkid: wkid)), description.northFirst else {
            return batch
        }
        var box = BoundingBox()
        for row in 0..<batch.count { batch.geometry.addBox(of: row, to: &box) }
        if !box.isEmpty, let extent = try? source.loadedInfo().metadata.extent?.projected(to: wkid) {
            let expected = BoundingBox(extent.xmin, extent.ymin, extent.xmax, extent.ymax)
            let margin = description.isGeographic ? 0.01 : 1000
            if box.fits(in: expected, margin: margin), !box.swapped.fits(in: expected, margin: margin) { return batch }
        }
        return batch.mappingCoordinates(.swappingAxes)
    }

    /// `numberMatched` of a one-feature page, nil when the server does not say.
    func numberMatched() async throws(FeatureCacheError) -> Int? {
        var url = plan.itemsURL
        url.set("limit", "1")
        let (page, dialect) = try await first(url)
        guard plan.pushed == nil || dialect != nil, let matched = page.page.numberMatched else { return nil }
        return try noticeIgnoredFilter(page.page.batch) ? nil : Int(matched)
    }

    /// Features by object id, one `items/{featureId}` request each (OGC API has
    /// no id list filter); ids the service does not know are left out.
    func fetchByIds(_ ids: [Int64]) async throws(FeatureCacheError) -> FetchedFeatures {
        var fetched = FetchedFeatures()
        let identity = source.identity
        for id in ids {
            guard let text = identity.serviceId(for: id) else { continue }
            // `items/{featureId}`, with the parameters the advertised items URL carries (such as `f`).
            var url = source.collectionURL.appendingPath("items").appendingPath(RequestURL.percentEncode(text))
            for parameter in plan.itemsURL.parameters where parameter.name.lowercased() == "f" { url.set(parameter.name, parameter.value) }
            if let crs = plan.askedCRS { url.set("crs", crs) }
            let request = requester.request(url)
            let response: HTTPResponse
            do {
                response = try await source.service.context.send(request, counting: source.statistics)
                if response.status == 404 { continue }
                try OGCRequester.check(response, request: request)
            }
            // One Feature, read as a collection of one.
            let wrapped = Array("{\"type\":\"FeatureCollection\",\"features\":[".utf8) + response.body + Array("]}".utf8)
            var batch = try readBody(wrapped, of: request) { bytes throws(FeatureCacheError) in
                try GeoJSONReader.read(bytes, identity: identity).batch
            }
            source.statistics.update { $0.featuresReceived += batch.count }
            batch = try toTableCRS(batch, contentCRS: response.header("Content-Crs"))
            batch = try plan.keeper.checked(batch)
            fetched.append(batch)
            progress?(FetchProgress(pages: fetched.pageCount, features: fetched.featureCount))
            try Task.checkCancellationTyped()
        }
        return fetched
    }
}

/// A resumable populate keeps each page the pager took (`PopulateJournal`).
extension OGCItemsPager.Page: JournaledPage {
    func write(to out: inout BinaryWriter) {
        page.write(to: &out)
        out.optionalString(contentCRS)
    }

    static func read(from input: inout BinaryReader) throws(FeatureCacheError) -> OGCItemsPager.Page {
        OGCItemsPager.Page(page: try GeoJSONPage.read(from: &input), contentCRS: try input.optionalString())
    }
}
