// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Runs one populate against an ArcGIS layer's `query` operation: builds the
/// requests by the REST API and pages until the service is done.
///
/// - With `supportsPagination`: `resultOffset`/`resultRecordCount` pages in a
///   stable order, while the answer says `exceededTransferLimit` (a short or even
///   empty page does not end it; an empty page that claims more is a loop).
/// - Without it (servers before 10.3), or for explicit object ids: the matching
///   ids first (`returnIdsOnly=true`), then `objectIds` batches of the page size,
///   re-asking for any ids a capped answer left out.
/// - A page identical to the one before (same ids) fails rather than loops.
///
/// Every request asks for `format`: Esri JSON or protocol buffers.
struct ArcGISQueryRunner {
    let layerURL: RequestURL
    let requester: ArcGISRequester
    let metadata: TableMetadata
    /// `.json` or `.pbf` (resolved, never `.auto`).
    let format: ArcGISQueryFormat
    let query: QueryParameters
    let progress: PopulateProgress?
    /// Stop after this many feature pages (nil = all); `complete` then tells.
    let maxPages: Int?
    /// The system asked of the service as `outSR` when it is not the table's
    /// (the service refused the table's): pages are projected here.
    var outputWkid: Int32? = nil
    /// `outFields` as sent: "*", or the names asked for with the object-id field
    /// (merging needs it) first when missing.
    private let outFieldsParameter: String
    /// The layer's fields that were asked for, for pages that list none.
    private let expectedFields: [FieldInfo]
    private let budget = PageBudget()
    /// How far pages are generalized (map units, 0 = exact), and the parameter
    /// that asks for it (`generalization(_:format:metadata:)`).
    private let generalization: Double
    private let generalizationParameter: (name: String, value: String)?

    /// - Parameter outFields: nil, empty or containing "*" = all fields.
    init(
        layerURL: RequestURL, requester: ArcGISRequester, metadata: TableMetadata, format: ArcGISQueryFormat,
        query: QueryParameters, outFields: [String]?, progress: PopulateProgress?, maxPages: Int? = nil
    ) {
        self.layerURL = layerURL
        self.format = format
        self.maxPages = maxPages
        self.requester = requester
        self.metadata = metadata
        self.query = query
        self.progress = progress
        (generalization, generalizationParameter) = Self.generalization(query, format: format, metadata: metadata)
        if let outFields, !outFields.isEmpty, !outFields.contains("*") {
            var names = outFields
            if let oid = metadata.objectIdField, !names.contains(where: { $0.lowercased() == oid.lowercased() }) {
                names.insert(oid, at: 0)
            }
            let wanted = Set(names.map { $0.lowercased() })
            outFieldsParameter = names.joined(separator: ",")
            expectedFields = metadata.fields.filter { wanted.contains($0.name.lowercased()) }
        } else {
            outFieldsParameter = "*"
            expectedFields = metadata.fields
        }
    }

    private var pageSize: Int { max(1, metadata.maxRecordCount) }
    private var objectIdField: String? { metadata.objectIdField }

    func run() async throws(FeatureCacheError) -> FetchedFeatures {
        if !query.objectIds.isEmpty || !metadata.arcgisSupportsPagination {
            return try await runByObjectIds()
        }
        return try await runByOffset()
    }

    // MARK: - Paging strategies

    private func runByOffset() async throws(FeatureCacheError) -> FetchedFeatures {
        var fetched = FetchedFeatures()
        var offset = query.resultOffset
        var previous: PageSignature? = nil
        let pages = PagePrefetcher<String, EsriQueryPage>(context: requester.context)
        defer { pages.finish() }
        /// How many features match, asked once a first page says there are more.
        var matching: Int?? = nil
        while true {
            let (key, url) = try offsetPage(offset, fetchedSoFar: fetched.featureCount)
            let page = try await pages.page(key) { [self] () async throws(FeatureCacheError) in try await fetchPage(url) }
            let remaining = remaining(after: fetched.featureCount)
            let signature = PageSignature(page.batch)
            if page.batch.count == 0, page.exceededTransferLimit {
                throw FeatureCacheError(
                    .service,
                    "\(redacted): the service says more features match but returned none at offset \(offset); stopping instead of asking again"
                )
            }
            if let signature, signature == previous {
                throw FeatureCacheError(
                    .service, "\(redacted): the service returned the same page twice (offset \(offset)); it does not page correctly")
            }
            previous = signature
            fetched.spatialReference = fetched.spatialReference ?? page.spatialReference
            offset += page.batch.count
            if page.batch.count > remaining {
                // The server ignored resultRecordCount: keep only what was asked for.
                fetched.append(page.batch.prefix(remaining))
                fetched.limitExceeded = true
            } else {
                fetched.append(page.batch)
            }
            progress?(
                FetchProgress(
                    pages: fetched.pageCount, features: fetched.featureCount,
                    totalFeatures: FetchProgress.total(
                        matched: matching.flatMap { $0 }.map(Int64.init),
                        dropsRowsLocally: false, query: query)))
            if query.maxFeatures > 0, fetched.featureCount >= query.maxFeatures {
                fetched.limitExceeded = fetched.limitExceeded || page.exceededTransferLimit
                return fetched
            }
            guard page.exceededTransferLimit else { return fetched }
            if let maxPages, fetched.pageCount >= maxPages {
                fetched.complete = false
                return fetched
            }
            try Task.checkCancellationTyped()
            if matching == nil, maxPages == nil, pages.window.limit > 1 {
                // More than one page: the next one is certain, and with the
                // count the rest are known too (offsets in steps of what the
                // server sends per page), so they can be sent side by side.
                try expectOffsetPages(from: offset, step: page.batch.count, end: offset + 1, fetchedSoFar: fetched.featureCount, pages)
                // Without a count (an old server, a refused count) the pages follow one by one.
                matching = .some(try? await count())
                try Task.checkCancellationTyped()
            }
            if let total = matching.flatMap({ $0 }) {
                try expectOffsetPages(from: offset, step: page.batch.count, end: total, fetchedSoFar: fetched.featureCount, pages)
            }
        }
    }

    /// The request for the page at `offset` after `fetchedSoFar` features, and its key.
    private func offsetPage(_ offset: Int, fetchedSoFar: Int) throws(FeatureCacheError) -> (key: String, url: RequestURL) {
        var url = try baseQuery()
        url.set("resultOffset", String(offset))
        url.set("resultRecordCount", String(min(pageSize, remaining(after: fetchedSoFar))))
        return (url.string, url)
    }

    /// How many more features max features allows after `fetched` (Int.max: no limit).
    private func remaining(after fetched: Int) -> Int {
        query.maxFeatures > 0 ? query.maxFeatures - fetched : Int.max
    }

    /// Tells `pages` the offset pages up to `end` (the matching count) that
    /// follow if every page holds `step` features.
    private func expectOffsetPages(
        from offset: Int, step: Int, end: Int, fetchedSoFar: Int,
        _ pages: PagePrefetcher<String, EsriQueryPage>
    ) throws(FeatureCacheError) {
        guard step > 0 else { return }
        var upcoming: [(key: String, fetch: PagePrefetcher<String, EsriQueryPage>.Fetch)] = []
        var next = offset
        var fetchedThen = fetchedSoFar
        while next < end, upcoming.count < pages.window.limit, remaining(after: fetchedThen) > 0 {
            let (key, url) = try offsetPage(next, fetchedSoFar: fetchedThen)
            upcoming.append((key, { [self] () async throws(FeatureCacheError) in try await fetchPage(url) }))
            next += step
            fetchedThen += step
        }
        pages.expect(upcoming)
    }

    private func runByObjectIds() async throws(FeatureCacheError) -> FetchedFeatures {
        var fetched = FetchedFeatures()
        var ids: [Int64]
        let explicit = !query.objectIds.isEmpty
        if explicit {
            ids = query.objectIds
        } else {
            var url = try baseQuery()
            url.set("returnIdsOnly", "true")
            for name in ArcGISQueryRunner.featureOnlyParameters { url.remove(name) }
            if format == .pbf {
                ids = try await requester.fetchPBF(url, read: EsriPBFReader.readObjectIds)
            } else {
                ids = try await requester.fetch(url) { bytes throws(FeatureCacheError) in
                    let answer = try EsriJSONReader.readObjectIds(bytes)
                    return (answer.ids, answer.isServiceError)
                }
            }
            if query.orderBy.isEmpty { ids.sort() }
        }
        if query.resultOffset > 0 { ids = Array(ids.dropFirst(query.resultOffset)) }
        if let maxPages, ids.count > maxPages * pageSize, query.maxFeatures == 0 {
            // More than the page limit: the caller splits the area instead.
            fetched.complete = false
            return fetched
        }
        if query.maxFeatures > 0, ids.count > query.maxFeatures {
            ids = Array(ids.prefix(query.maxFeatures))
            fetched.limitExceeded = true
        }
        // Every batch of ids is known: they are sent side by side, applied in order.
        let chunks = stride(from: 0, to: ids.count, by: pageSize).map { Array(ids[$0..<min($0 + pageSize, ids.count)]) }
        // Keyed by the ids themselves: a resumed populate replays a kept page
        // only for the very ids it holds.
        let keys = chunks.enumerated().map { index, chunk in
            "\(index):" + String(chunk.withUnsafeBytes { ContentHash.of($0) }, radix: 16)
        }
        let pages = PagePrefetcher<String, EsriQueryPage>(context: requester.context)
        defer { pages.finish() }
        /// The request for a batch of ids, built when it is sent (the batches
        /// ahead are named again for every page).
        let idsPage = { [self] (ids: [Int64]) -> PagePrefetcher<String, EsriQueryPage>.Fetch in
            { [self] () async throws(FeatureCacheError) in
                // Ids alone select the features when the service chose them;
                // explicit ids still honour the caller's where and geometry.
                var url = explicit ? try baseQuery() : try baseQuery(filtered: false)
                url.set("objectIds", ids.map(String.init).joined(separator: ","))
                return try await fetchPage(url)
            }
        }
        for (index, chunk) in chunks.enumerated() {
            pages.expect((index..<min(index + pages.window.limit, chunks.count)).map { (keys[$0], idsPage(chunks[$0])) })
            var page = try await pages.page(keys[index], fetch: idsPage(chunk))
            var pending = chunk
            while true {
                fetched.spatialReference = fetched.spatialReference ?? page.spatialReference
                // A service that ignores `objectIds` (a static host, a replayed
                // answer) sends features that were not asked for: they are not
                // the answer, and are dropped.
                let asked = Set(pending)
                let kept = (0..<page.batch.count).filter { asked.contains(page.batch.objectId($0)) }
                if kept.count < page.batch.count {
                    requester.statistics?.update { $0.serverFiltersIgnored += 1 }
                    page.batch = page.batch.selecting(kept)
                }
                fetched.append(page.batch)
                progress?(FetchProgress(pages: fetched.pageCount, features: fetched.featureCount, totalFeatures: ids.count))
                guard page.exceededTransferLimit else { break }
                // A capped answer: ask again for the ids it left out.
                var got = Set<Int64>()
                for row in 0..<page.batch.count { got.insert(page.batch.objectId(row)) }
                let left = pending.filter { !got.contains($0) }
                guard left.count < pending.count else {
                    throw FeatureCacheError(
                        .service, "\(redacted): the service returned none of the \(pending.count) requested object ids but says more exist")
                }
                guard !left.isEmpty else { break }
                pending = left
                try Task.checkCancellationTyped()
                page = try await idsPage(pending)()
            }
            try Task.checkCancellationTyped()
        }
        return fetched
    }

    // MARK: - Count and extent

    /// `returnCountOnly=true`.
    func count() async throws(FeatureCacheError) -> Int {
        var url = try baseQuery()
        url.set("returnCountOnly", "true")
        for name in ArcGISQueryRunner.featureOnlyParameters { url.remove(name) }
        if format == .pbf { return try await requester.fetchPBF(url, read: EsriPBFReader.readCount) }
        let json = try await requester.getJSON(url)
        guard let count = json["count"]?.int, count >= 0 else {
            throw FeatureCacheError.parse("\(redacted): a count answer without a count")
        }
        return Int(count)
    }

    /// `returnExtentOnly=true`, in the table's spatial reference.
    func extent() async throws(FeatureCacheError) -> Envelope? {
        var url = try baseQuery()
        url.set("returnExtentOnly", "true")
        for name in ArcGISQueryRunner.featureOnlyParameters where name != "outSR" { url.remove(name) }
        let asked = metadata.spatialReference?.effectiveWkid ?? 0
        let output = outputWkid ?? asked
        if output != 0 { url.set("outSR", String(output)) }
        let answered = output != 0 && output != asked ? SpatialReference(wkid: output) : metadata.spatialReference
        if format == .pbf {
            let extent = try await requester.fetchPBF(url, read: EsriPBFReader.readExtent)
            return try extent.map { (box) throws(FeatureCacheError) in
                try Envelope(xmin: box.xmin, ymin: box.ymin, xmax: box.xmax, ymax: box.ymax, spatialReference: answered)
                    .projected(to: metadata.spatialReference ?? answered ?? .wgs84)
            }
        }
        let json = try await requester.getJSON(url)
        guard let extent = json["extent"] else { throw FeatureCacheError.parse("\(redacted): an extent answer without an extent") }
        guard let xmin = extent["xmin"]?.double, let ymin = extent["ymin"]?.double,
            let xmax = extent["xmax"]?.double, let ymax = extent["ymax"]?.double,
            xmin <= xmax, ymin <= ymax
        else { return nil }  // empty: NaN or null corners
        return try Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, spatialReference: answered)
            .projected(to: metadata.spatialReference ?? answered ?? .wgs84)
    }

    // MARK: - Requests

    /// What only a request for features carries: left out of ids, count and
    /// extent requests.
    static let featureOnlyParameters = [
        "outFields", "returnGeometry", "outSR", "orderByFields",
        "quantizationParameters", "maxAllowableOffset",
    ]

    private var redacted: String { RequestURL.redacted(layerURL.appendingPath("query").base) }

    /// The parameters every page shares. Values are percent-encoded when the URL
    /// or form body is written, so no value can inject a parameter.
    private func baseQuery(filtered: Bool = true) throws(FeatureCacheError) -> RequestURL {
        var url = RequestURL(
            base: layerURL.appendingPath("query").base,
            parameters: layerURL.parameters.filter { $0.name.lowercased() != "f" })
        if filtered {
            url.set("where", query.whereClause.isEmpty ? "1=1" : query.whereClause)
            if let geometry = query.geometry {
                let encoded = try ArcGISGeometryJSON.parameters(geometry)
                url.set("geometry", encoded.geometry)
                url.set("geometryType", encoded.type)
                if geometry.wkid != 0 { url.set("inSR", String(geometry.wkid)) }
                url.set("spatialRel", query.spatialRelationship.esriName)
                if let relation = query.effectiveRelationParameter { url.set("relationParam", relation) }
            }
        }
        url.set("outFields", outFieldsParameter)
        url.set("returnGeometry", query.returnGeometry ? "true" : "false")
        if query.returnGeometry, let wkid = outputWkid ?? metadata.spatialReference?.effectiveWkid, wkid != 0 {
            url.set("outSR", String(wkid))
        }
        let order = query.orderBy.isEmpty ? objectIdField.map { "\($0) ASC" } : query.orderBy
        if let order { url.set("orderByFields", order) }
        if let (name, value) = generalizationParameter { url.set(name, value) }
        return url
    }

    /// How far pages are generalized, in map units (0 = exact), and the
    /// parameter that asks for it. In PBF (the format ArcGIS's own clients
    /// quantize in): a view's pixel over the view's tile, or the caller's max
    /// allowable offset, as `quantizationParameters` (mode view, origin upper
    /// left: the server snaps coordinates to the tolerance and drops what
    /// collapses), counted from the query's envelope when it is in the table's
    /// spatial reference, else from the layer's extent projected there; exact
    /// when neither is known. In JSON: the caller's max allowable offset, as
    /// `maxAllowableOffset`.
    private static func generalization(
        _ query: QueryParameters, format: ArcGISQueryFormat, metadata: TableMetadata
    )
        -> (tolerance: Double, parameter: (name: String, value: String)?)
    {
        guard format == .pbf else {
            let offset = query.maxAllowableOffset
            guard query.returnGeometry, offset > 0 else { return (0, nil) }
            return (offset, ("maxAllowableOffset", String(offset)))
        }
        let tolerance =
            query.quantizationTolerance > 0 && query.quantizationTolerance.isFinite
            ? query.quantizationTolerance : query.maxAllowableOffset
        let wkid = metadata.spatialReference?.effectiveWkid ?? 0
        var origin: Envelope? = nil
        if case let .envelope(box)? = query.geometry, (box.spatialReference?.effectiveWkid ?? 0) == wkid || wkid == 0 {
            origin = box
        } else if wkid != 0, let extent = metadata.extent, extent.xmin <= extent.xmax, extent.ymin <= extent.ymax {
            origin = try? extent.projected(to: wkid)
        }
        guard tolerance > 0, let origin else { return (0, nil) }
        let referenceWkid = metadata.spatialReference?.effectiveWkid ?? origin.spatialReference?.effectiveWkid ?? 0
        let reference = referenceWkid != 0 ? ",\"spatialReference\":{\"wkid\":\(referenceWkid)}" : ""
        return (
            tolerance,
            (
                "quantizationParameters",
                "{\"mode\":\"view\",\"originPosition\":\"upperLeft\",\"tolerance\":\(tolerance),"
                    + "\"extent\":{\"xmin\":\(origin.xmin),\"ymin\":\(origin.ymin),\"xmax\":\(origin.xmax),\"ymax\":\(origin.ymax)\(reference)}}"
            )
        )
    }

    private func fetchPage(_ url: RequestURL) async throws(FeatureCacheError) -> EsriQueryPage {
        let fields = expectedFields
        let oid = objectIdField
        var page: EsriQueryPage
        if format == .pbf {
            page = try await requester.fetchPBF(url) { bytes throws(FeatureCacheError) in
                try EsriPBFReader.read(bytes, fields: fields, objectIdField: oid)
            }
        } else {
            page = try await requester.fetch(url) { bytes throws(FeatureCacheError) in
                let page = try EsriJSONReader.read(bytes, fields: fields, objectIdField: oid)
                return (page, page.isServiceError)
            }
        }
        if query.returnGeometry, generalization > 0 { page.batch = page.batch.withGeometryTolerance(generalization) }
        // A service that cannot honour outSR answers in a system of its own and
        // says which: the page is projected here rather than cached as if it were the asked one.
        if query.returnGeometry, let asked = metadata.spatialReference, asked.effectiveWkid != 0,
            let answered = page.spatialReference?.effectiveWkid, answered != 0,
            let transform = try Projection.transform(from: answered, to: asked.effectiveWkid)
        {
            page.batch = page.batch.mappingCoordinates(transform)
            page.spatialReference = asked
        }
        try budget.spend(
            features: page.batch.count, limits: requester.context.settings.limits, request: requester.request(url).methodAndURL)
        return page
    }
}

/// Identifies a page by its ids, to notice a server that serves one page forever.
private struct PageSignature: Equatable {
    let count: Int
    let first: Int64
    let last: Int64

    init?(_ batch: FeatureBatch) {
        guard batch.count > 0 else { return nil }
        count = batch.count
        first = batch.objectId(0)
        last = batch.objectId(batch.count - 1)
    }
}
