// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// A table of features from a remote service (the ArcGIS SDK's
/// `ServiceFeatureTable`, `OGCFeatureCollectionTable`, `WFSFeatureTable`): loadable
/// metadata, a request mode, and a local cache filled by `populate`. It names no
/// protocol: a `FeatureSource` (one per protocol, in its adapter's target, `Sources/FC<protocol>/`) talks
/// to the service, and each adapter adds its own factory (`FeatureTable.arcgis`,
/// `.ogc`, `.wfs`, …) as an extension in its folder.
public final class FeatureTable: Loadable {
    public let loadMachine = LoadMachine(label: "table")
    public let context: ClientContext
    package let source: any FeatureSource
    /// The cached features.
    package let store = FeatureStore()
    package let statistics: StatisticsCounter
    /// Sent after each change of the cache by a fetch: the number of features merged.
    package let featuresChanged = EventChannel<Int>(label: "table-features")
    /// Sent after each change of the cached features (`addChangeObserver`).
    package let changes = EventChannel<TableChange>(label: "table-changes")
    package let interaction = InteractionFetcher()
    /// Edits not yet applied to the service; the cache shows them (local first).
    package let edits = LocalEditLog()
    /// The cache kept between runs, when the table has a cache folder.
    package let persistence = Locked(TablePersistence())

    private struct Settings {
        var requestMode: FeatureRequestMode = .onInteractionCache
        var metadata: TableMetadata?
        var definitionExpression = ""
        var cacheBudget = 0
        var tileGrid: TileGrid?
        /// Set before load: wins over the service's spatial reference.
        var spatialReference: SpatialReference?
        /// The caller's page size (0 = the service's largest).
        var pageSize = 0
    }
    private let settings = Locked(Settings())

    package init(source: any FeatureSource, context: ClientContext, statistics: StatisticsCounter) {
        self.source = source
        self.context = context
        self.statistics = statistics
    }

    public var serviceKind: ServiceKind { source.kind }
    /// What the table's kind of service is called ("ArcGIS", "OGC API", "WFS", …).
    public var serviceKindName: String { source.kindName }
    public var url: String { source.urlString }

    public func performLoad(retrying: Bool) async throws(FeatureCacheError) {
        let saved = try openPersistedCache()
        var metadata: TableMetadata
        var offline = false
        do {
            metadata = try await source.loadMetadata(retrying: retrying)
        } catch {
            // Unreachable, with a saved cache: the table answers from it.
            guard let saved, Self.isUnreachable(error) else { throw error }
            metadata = saved.metadata
            offline = true
        }
        try Task.checkCancellationTyped()
        let (presetReference, pageSize) = settings.withLock { ($0.spatialReference, $0.pageSize) }
        if let presetReference { metadata.spatialReference = presetReference }
        if pageSize > 0 { metadata.maxRecordCount = metadata.maxRecordCountDeclared ? min(pageSize, metadata.maxRecordCount) : pageSize }
        let grid = Self.grid(for: metadata)
        settings.withLock {
            $0.metadata = metadata
            $0.tileGrid = grid
        }
        if persistence.withLock({ $0.cache != nil }) { restorePersisted(saved, metadata: metadata, offline: offline) }
        if !offline {
            await revalidateAfterRestore(metadata)
            if persistence.withLock({ $0.info.restoredFeatures == 0 }) { startGeneration(metadata) }
        }
    }

    deinit {
        persistence.withLock { $0.saver }?.flush { saveCache() }
    }

    /// The spatial reference set before load, if any.
    package var presetSpatialReference: SpatialReference? { settings.withLock { $0.spatialReference } }

    /// The service metadata; `.invalidState` until loaded.
    public func metadata() throws(FeatureCacheError) -> TableMetadata {
        try requireLoaded("table metadata")
        guard let metadata = settings.withLock({ $0.metadata }) else {
            throw FeatureCacheError.invalidState("table metadata is missing")
        }
        return metadata
    }

    /// The metadata the load settled on, from the moment it did: changes a
    /// load makes (a restore brought current) are told in its spatial reference.
    package var settledMetadata: TableMetadata? { settings.withLock { $0.metadata } }

    /// The metadata when loaded, else nil (for properties with fallbacks).
    public var loadedMetadata: TableMetadata? {
        loadStatus == .loaded ? settings.withLock { $0.metadata } : nil
    }

    public var requestMode: FeatureRequestMode {
        settings.withLock { $0.requestMode }
    }

    /// Switching is safe while requests run: everything in flight is cancelled
    /// and late answers dropped. To no cache the cache is cleared; manual ↔
    /// on-interaction cache keeps features and coverage; from no cache the
    /// features of the last view stay, uncovered.
    public func setRequestMode(_ mode: FeatureRequestMode) throws(FeatureCacheError) {
        if mode == .onInteractionNoCache, !edits.isEmpty {
            throw .invalidState("the table has edits not yet applied: the no-cache mode keeps nothing here (apply or undo them first)")
        }
        let old = settings.withLock { settings in
            defer { settings.requestMode = mode }
            return settings.requestMode
        }
        guard old != mode else { return }
        interaction.restart(resetCoverage: mode == .onInteractionNoCache || old == .onInteractionNoCache)
        if mode == .onInteractionNoCache { store.clear() }
    }

    /// The spatial reference features are fetched and cached in. Set before
    /// load it wins over the service's (ArcGIS `outSR`, OGC API `crs` — or a
    /// projection here when the server cannot); `.invalidState` once loading began.
    public func setSpatialReference(_ wkid: Int32) throws(FeatureCacheError) {
        guard wkid > 0 else { throw FeatureCacheError.invalidArgument("a wkid must be positive (got \(wkid))") }
        try requireNotLoaded("the spatial reference")
        settings.withLock { $0.spatialReference = SpatialReference(wkid: wkid) }
    }

    /// The most features one request asks for (0 = the service's largest: ArcGIS
    /// `maxRecordCount`, the OGC API `limit` maximum). Set before load.
    public var pageSize: Int { settings.withLock { $0.pageSize } }

    public func setPageSize(_ size: Int) throws(FeatureCacheError) {
        guard size >= 0 else { throw FeatureCacheError.invalidArgument("a page size must be >= 0 (got \(size))") }
        try requireNotLoaded("the page size")
        settings.withLock { $0.pageSize = size }
    }

    /// Properties that shape what loading reads can only change before it starts
    /// (or after it failed).
    private func requireNotLoaded(_ what: String) throws(FeatureCacheError) {
        guard loadStatus == .notLoaded || loadStatus == .failedToLoad else {
            throw FeatureCacheError.invalidState("\(what) must be set before the table loads")
        }
    }

    // MARK: - Filter, budget, statistics

    /// The table's own where clause (the ArcGIS SDK's `definitionExpression`):
    /// applied to every fetch, populate and query. Checked against the fields
    /// once loaded. Changing it cancels interaction fetches and forgets the
    /// coverage of the old filter.
    public var definitionExpression: String { settings.withLock { $0.definitionExpression } }

    public func setDefinitionExpression(_ text: String) throws(FeatureCacheError) {
        if let parsed = try WhereParser.parse(text), let fields = loadedMetadata?.fields {
            try WhereEvaluator.validate(parsed, fields: fields)
        }
        let changed = settings.withLock { settings in
            defer { settings.definitionExpression = text }
            return settings.definitionExpression != text
        }
        if changed { interaction.filterChanged(to: filterSignature, table: self) }
    }

    /// What coverage is kept for: the definition expression and the out fields
    /// (interaction fetches ask for all fields).
    package var filterSignature: String { "where=\(definitionExpression)&outFields=*" }

    /// The cache memory budget in bytes (0 = none). Over it, the least recently
    /// used tiles outside the current view are evicted; pinned features (manual
    /// populate) and features other covered tiles hold stay.
    public var cacheBudget: Int { settings.withLock { $0.cacheBudget } }

    public func setCacheBudget(_ bytes: Int) throws(FeatureCacheError) {
        guard bytes >= 0 else { throw FeatureCacheError.invalidArgument("a cache budget must be >= 0 bytes (got \(bytes))") }
        settings.withLock { $0.cacheBudget = bytes }
        store.setMemoryBudget(spillsToDisk ? bytes : 0)
        interaction.budgetChanged(table: self)
    }

    public var statisticsSnapshot: TableStatistics {
        var snapshot = statistics.snapshot
        snapshot.tilesCovered = interaction.coveredTiles
        return snapshot
    }

    public func resetStatistics() { statistics.reset() }

    /// Observes changes of the cache made by fetches (interaction, populate,
    /// cached query answers): the callback gets the number of features merged.
    public func addFeaturesChangedObserver(_ observer: @escaping @Sendable (Int) -> Void) -> UInt64 {
        featuresChanged.add(observer)
    }

    /// After this returns the observer is not called again (unless it is running
    /// now on another thread: `flushFeatureEvents` waits for that).
    public func removeFeaturesChangedObserver(_ token: UInt64) {
        featuresChanged.remove(token)
    }

    public func flushFeatureEvents() { featuresChanged.flush() }

    /// The last error of an interaction fetch (the tile stays uncovered).
    public var lastFetchError: FeatureCacheError? { interaction.lastError }

    // MARK: - Interaction

    package var tileGrid: TileGrid? { settings.withLock { $0.tileGrid } }

    /// The table's spatial reference written for other tools (WKT2, PROJJSON).
    /// `.invalidState` until loaded; `.unsupported` when the service gives none
    /// or PROJ cannot read it.
    public func spatialReferenceDefinition(_ format: CRSFormat) throws(FeatureCacheError) -> String {
        try Self.spatialReferenceDefinition(try metadata(), format)
    }

    package static func spatialReferenceDefinition(_ metadata: TableMetadata, _ format: CRSFormat) throws(FeatureCacheError) -> String {
        guard let description = try Projection.describe(metadata.spatialReference) else {
            throw FeatureCacheError(.unsupported, "the service gives no spatial reference for this table")
        }
        return description.definition(format)
    }

    /// The grid over the table's full extent (projected to the table's spatial
    /// reference); the world when the service gives no extent.
    package static func grid(for metadata: TableMetadata) -> TileGrid? {
        let reference = metadata.spatialReference ?? metadata.extent?.spatialReference
        let wkid = reference?.effectiveWkid ?? 0
        let geographic = WebMercator.isGeographic(wkid) || ((try? Projection.describe(reference))??.isGeographic ?? false)
        if let extent = metadata.extent, extent.isValid,
            let projected = try? extent.projected(to: reference ?? SpatialReference(wkid: 0)),
            [projected.xmin, projected.ymin, projected.xmax, projected.ymax].allSatisfy(\.isFinite)
        {
            return TileGrid(extent: BoundingBox(projected.xmin, projected.ymin, projected.xmax, projected.ymax), geographic: geographic)
        }
        if geographic { return TileGrid(extent: BoundingBox(-180, -90, 180, 90), geographic: true) }
        if WebMercator.isMercator(wkid) {
            let r = 20037508.342789244
            return TileGrid(extent: BoundingBox(-r, -r, r, r), geographic: false)
        }
        return nil
    }

    /// The map settled on `visible` at `scale`, needing `area` (the view with
    /// its buffer): on-interaction modes fetch what it needs (asynchronously;
    /// `interaction.idle` tells when done).
    package func show(_ area: Envelope, visible: Envelope, scale: Double) throws(FeatureCacheError) {
        guard loadStatus == .loaded else { return }
        // The map's system to the table's (a code, or the WKT a layer gives alone).
        let reference = loadedMetadata?.spatialReference ?? SpatialReference(wkid: 0)
        let projected = try area.projected(to: reference)
        let view = try visible.projected(to: reference)
        interaction.show(
            BoundingBox(projected.xmin, projected.ymin, projected.xmax, projected.ymax),
            visibleWidth: view.xmax - view.xmin, scale: scale, table: self)
    }

    /// Fetches the features intersecting `area` (table spatial reference) under
    /// the table's filter, through the host's gate; `tolerance` > 0 lets the
    /// service generalize geometry to that many map units (a view's pixel).
    package func fetchArea(_ area: BoundingBox, maxPages: Int?, tolerance: Double = 0) async throws(FeatureCacheError) -> FetchedFeatures {
        let metadata = try metadata()
        var query = QueryParameters()
        query.quantizationTolerance = tolerance
        query.whereClause = definitionExpression
        query.geometry = .envelope(
            Envelope(
                xmin: area.xmin, ymin: area.ymin, xmax: area.xmax, ymax: area.ymax,
                spatialReference: metadata.spatialReference))
        let gate = context.gate(for: url)
        try await gate.acquire()
        defer { gate.release() }
        return try await source.fetch(query, outFields: nil, metadata: metadata, progress: nil, maxPages: maxPages)
    }

    /// The query with the definition expression ANDed in, for the service.
    package func serverQuery(_ query: QueryParameters) -> QueryParameters {
        var query = query
        let definition = definitionExpression.trimmingCharacters(in: " ")
        if !definition.isEmpty {
            query.whereClause =
                query.whereClause.trimmingCharacters(in: " ").isEmpty
                ? definition : "(\(definition)) AND (\(query.whereClause))"
        }
        return query
    }

    // MARK: - Populate

    /// Fetches every feature matching `query` (and the definition expression)
    /// from the service into the cache (the ArcGIS SDK's `populateFromService`),
    /// loading the table first if needed. All pages are parsed before the cache
    /// changes: on failure or cancellation the cache is exactly as it was.
    /// `clearCache` replaces the cache, otherwise the features merge, a newer
    /// copy of a cached feature replacing the older. Allowed in every mode; the
    /// features are pinned (never evicted for the budget).
    /// - Returns: the features of this populate.
    public func populate(
        _ query: QueryParameters, clearCache: Bool,
        progress: PopulateProgress? = nil
    ) async throws(FeatureCacheError) -> FeatureResult {
        try await populate(query, clearCache: clearCache, progress: progress, validated: false)
    }

    /// `populate` for a caller that validated `query` already (the C ABI reports a
    /// bad query before it starts): the query is checked once per call.
    /// `resumable`: with a cache folder, the pages are kept as they come and
    /// a populate cut short resumes from them (`PopulateJournal`).
    package func populate(
        _ query: QueryParameters, clearCache: Bool, progress: PopulateProgress?,
        validated: Bool, resumable: Bool = false
    ) async throws(FeatureCacheError) -> FeatureResult {
        if !validated { try query.validate() }
        try await load()
        let metadata = try metadata()
        var journal = resumable ? populateJournal(for: query, metadata: metadata) : nil
        if let completed = journal, completed.completed != nil {
            if clearCache, let answer = try answerFromCache(query, journal: completed, metadata: metadata, progress: progress) {
                return answer
            }
            journal = populateJournal(for: query, metadata: metadata, fresh: true)
        }
        var (fetched, validators) = try await PopulateJournal.keeping(journal) { () async throws(FeatureCacheError) in
            try await fetchWithValidators(query, metadata: metadata, progress: progress)
        }
        fetched.ordered = !query.orderBy.isEmpty
        let result = try cachePopulated(&fetched, clearCache: clearCache, metadata: metadata)
        let writes = persistence.withLock { $0.writes }
        // What a synchronize without change tracking asks again (conditionally,
        // where the pages carried validators): this populate's query when it
        // replaced the cache, the whole table when it merged into it.
        persistence.withLock { state in
            let replaced = clearCache || query.isWholeTable
            state.populateValidators = replaced ? validators : nil
            state.populateQuery = replaced && !query.isWholeTable ? query : nil
            state.featuresVersion = replaced ? metadata.dataVersion : nil
        }
        await flushCache()  // a populate that returned is on disk
        if let journal { finish(journal, clearCache: clearCache, limitExceeded: fetched.limitExceeded, writes: writes) }
        return result
    }

    /// Fetches `query` (with the definition expression), and the validators
    /// of its pages (nil when one had none, or there were too many); the
    /// caller keeps them once the features are cached, never before.
    package func fetchWithValidators(
        _ query: QueryParameters, metadata: TableMetadata, progress: PopulateProgress?
    ) async throws(FeatureCacheError) -> (FetchedFeatures, [AnswerValidator]?) {
        let (fetched, _, validators) = try await FreshnessCollector.collecting(limit: FreshnessCollector.maxPopulateValidators) {
            () async throws(FeatureCacheError) in
            try await source.fetch(serverQuery(query), outFields: query.outFields, metadata: metadata, progress: progress)
        }
        return (fetched, validators)
    }

    /// The last step of every populate: the fetched pages (which this call owns)
    /// enter the cache pinned, replacing it when `clearCache` — unless the
    /// populate was cancelled, which leaves the cache as it was.
    func cachePopulated(
        _ fetched: inout FetchedFeatures, clearCache: Bool, metadata: TableMetadata
    ) throws(FeatureCacheError)
        -> FeatureResult
    {
        try Task.checkCancellationTyped()
        fetched.compact()  // here, where the pages have one owner: each is let go once copied
        if clearCache { interaction.restart(resetCoverage: true) }
        return merge(fetched, clearingFirst: clearCache, pinned: true, metadata: metadata)
    }

    // MARK: - Writing the cache

    /// What one write changed, to announce once the writer's locks are released.
    package struct CacheChange {
        /// The batches as cached (the fetched pages, compacted) and, for each,
        /// its rows that are current after the write (nil = all).
        package let batches: [FeatureBatch]
        package let rows: [[UInt32]?]
        package let features: Int
        /// What changed, when someone listens (`addChangeObserver`).
        package var delta: StoreDelta? = nil
        package var cause: TableChange.Cause = .fetch
    }

    /// The one place fetched features enter the cache: `replacing` empties it
    /// first, else they merge (a later copy of a feature wins). The pages become
    /// a few large batches first (`FetchedFeatures.compact()`, which a caller
    /// does before: before taking a lock, and where it owns the pages alone,
    /// so that each page is let go as soon as it is copied). Runs under the caller's lock where
    /// coverage must change with the store; the change is `announce`d after
    /// that lock.
    package func write(
        _ fetched: FetchedFeatures, replacing: Bool, keepingFinerCopies: Bool = true, cause: TableChange.Cause = .fetch,
        recording: Bool = false
    ) -> CacheChange {
        var fetched = fetched
        fetched.compact()
        var delta = recording || recordsChanges ? StoreDelta() : nil
        guard !edits.isEmpty else {
            let rows = store.apply(
                fetched.batches, clearingFirst: replacing, keepingFinerCopies: keepingFinerCopies, recording: &delta)
            return CacheChange(batches: fetched.batches, rows: rows, features: fetched.featureCount, delta: delta, cause: cause)
        }
        // Local first: the service's copy of a feature with a pending edit is
        // not cached over the user's version (or brought back after a delete).
        // The answer then holds the user's version of those features instead.
        let overlay = edits.overlay()
        var edited: [FeatureBatch] = []
        let batches = fetched.batches.map { batch in
            let kept = (0..<batch.count).filter { row in
                let id = batch.objectId(row)
                guard overlay.hidden.contains(id) else { return true }
                if let mine = overlay.rows[id] { edited.append(mine) }
                return false
            }
            return kept.count == batch.count ? batch : batch.selecting(kept)
        }
        let rows = store.apply(batches, clearingFirst: replacing, keepingFinerCopies: keepingFinerCopies, recording: &delta)
        if replacing {
            store.apply(Array(overlay.rows.values), clearingFirst: false, keepingFinerCopies: false, recording: &delta)
        }
        return CacheChange(
            batches: batches + edited, rows: rows + edited.map { _ in nil },
            features: batches.reduce(edited.count) { $0 + $1.count }, delta: delta, cause: cause)
    }

    /// Tells the observers (layers, change observers) what a write changed;
    /// never under a library lock.
    package func announce(_ change: CacheChange) {
        featuresChanged.send(change.features)
        tell(change.delta, change.cause)
        cacheChanged()
    }

    /// Writes a populate's or a query's answer, announces it, pins it when a
    /// populate brought it (pinned features are never evicted for the budget),
    /// and returns the features as they are cached.
    package func merge(
        _ fetched: FetchedFeatures, clearingFirst: Bool, pinned: Bool, metadata: TableMetadata,
        outFields: [String]? = nil, includesGeometry: Bool = true, cause: TableChange.Cause? = nil
    ) -> FeatureResult {
        // A populate's features are what the caller asked for, generalized or
        // not: they replace the cached copies. A view's never replace finer ones.
        let change = write(
            fetched, replacing: clearingFirst, keepingFinerCopies: !pinned, cause: cause ?? (pinned ? .populate : .fetch))
        announce(change)
        if pinned { interaction.pin(fetched.objectIds) }
        return FeatureResult(
            zip(change.batches, change.rows).map { (batch: $0, rows: $1) }, limitExceeded: fetched.limitExceeded,
            spatialReference: fetched.spatialReference ?? metadata.spatialReference,
            outFields: outFields, includesGeometry: includesGeometry, schema: metadata.fields)
    }

    /// Starts a populate; `completion` runs once, on a library thread, with the
    /// result or the error (`.cancelled` after `cancel()` on the operation).
    public func startPopulate(
        _ query: QueryParameters, clearCache: Bool, progress: PopulateProgress? = nil,
        completion: @escaping @Sendable (Result<FeatureResult, FeatureCacheError>) -> Void
    ) -> FeatureOperation {
        FeatureOperation { () async throws(FeatureCacheError) -> FeatureResult in
            try await self.populate(query, clearCache: clearCache, progress: progress)
        } completion: { outcome in
            completion(outcome)
        }
    }

    // MARK: - Query

    /// Where a query is answered, by the request mode: manual cache → the cache;
    /// no cache → the service; on-interaction cache → the cache when the query's
    /// area is covered for the table's filter (or every object id asked for is
    /// cached), else the service, and its answer is merged into the cache.
    package func answersLocally(_ query: QueryParameters) -> Bool {
        // Loaded offline: the cache is all there is.
        if isOffline { return requestMode != .onInteractionNoCache }
        switch requestMode {
        case .manualCache: return true
        case .onInteractionNoCache: return false
        case .onInteractionCache: return covers(query)
        }
    }

    /// Loaded from its persisted cache with the service unreachable.
    package var isOffline: Bool { persistence.withLock { $0.info.isOffline } }

    /// Whether the cache holds the whole answer to `query`: its ids, or its
    /// area covered by tiles or by an earlier complete answer.
    private func covers(_ query: QueryParameters) -> Bool {
        if !query.objectIds.isEmpty, store.containsAll(query.objectIds) { return true }
        guard let grid = tileGrid else { return false }
        var area = grid.root
        if query.geometry != nil, query.spatialRelationship != .disjoint,
            let filter = try? SpatialFilter(query, table: loadedMetadata?.spatialReference)
        {
            area = filter.box
        } else if query.geometry != nil, query.spatialRelationship != .disjoint {
            return false  // cannot project it here: the service can
        }
        return interaction.covers(area, grid: grid, signature: filterSignature)
            || interaction.coversAnswered(area, signature: answerSignature(query))
    }

    /// Under which signature a query's complete answer is recorded.
    private func answerSignature(_ query: QueryParameters) -> String {
        TileCoverage.answerSignature(filterSignature, whereClause: query.whereClause.trimmingCharacters(in: " \t\n\r"))
    }

    /// The area a server answer to `query` is complete for, nil when it is not
    /// a whole area's answer: ids, an offset or a limit, or a spatial relationship
    /// that keeps part of what lies in the query's box.
    private func answeredArea(_ query: QueryParameters) -> BoundingBox? {
        guard query.objectIds.isEmpty, query.maxFeatures == 0, query.resultOffset == 0, let grid = tileGrid else { return nil }
        guard query.geometry != nil else { return grid.root }
        guard query.spatialRelationship == .intersects || query.spatialRelationship == .envelopeIntersects,
            let filter = try? SpatialFilter(query, table: loadedMetadata?.spatialReference), filter.isRectangle
        else { return nil }
        return filter.box
    }

    /// Answers a query, count or extent by the request mode: `local` over the
    /// cache when `answersLocally`, else `server` (each counted in the
    /// statistics); loads the table first if needed.
    private func answer<T>(
        _ query: QueryParameters, validated: Bool,
        local: (LocalQuery, StoreSnapshot, TableMetadata) throws(FeatureCacheError) -> T,
        server: (TableMetadata) async throws(FeatureCacheError) -> T
    ) async throws(FeatureCacheError) -> T {
        if !validated { try query.validate() }
        try await load()
        let metadata = try metadata()
        guard answersLocally(query) else {
            statistics.update { $0.queriesServer += 1 }
            return try await server(metadata)
        }
        let evaluator = try LocalQuery(
            query, definitionExpression: definitionExpression, fields: metadata.fields,
            table: metadata.spatialReference, validated: true)
        statistics.update { $0.queriesLocal += 1 }
        return try local(evaluator, store.queryableSnapshot(), metadata)
    }

    /// Queries features, locally or from the service by the request mode
    /// (`answersLocally`); loads the table first if needed.
    public func query(_ query: QueryParameters) async throws(FeatureCacheError) -> FeatureResult {
        try await self.query(query, validated: false)
    }

    /// `query` for a caller that validated `query` already (the C ABI).
    package func query(_ query: QueryParameters, validated: Bool) async throws(FeatureCacheError) -> FeatureResult {
        let result = try await answer(query, validated: validated) { (local, snapshot, metadata) throws(FeatureCacheError) in
            try local.run(snapshot, spatialReference: metadata.spatialReference)
        } server: { (metadata) async throws(FeatureCacheError) in
            try await fetchAnswer(query, metadata: metadata)
        }
        // Offline, a query this mode would have asked the service is answered
        // from what the cache holds: it says so.
        if isOffline, requestMode == .onInteractionCache, !covers(query) { result.markIncomplete() }
        return try result.projected(to: query.outWkid)
    }

    /// A query's answer from the service: as is in no-cache mode; otherwise
    /// whole, exact features are asked for (so the cache never holds partial ones),
    /// merged, and shown with the query's out fields and geometry choice.
    private func fetchAnswer(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> FeatureResult {
        if requestMode == .onInteractionNoCache {
            let fetched = try await source.fetch(serverQuery(query), outFields: query.outFields, metadata: metadata, progress: nil)
            return FeatureResult(
                fetched.batches.map { ($0, nil) }, limitExceeded: fetched.limitExceeded,
                spatialReference: fetched.spatialReference ?? metadata.spatialReference,
                schema: metadata.fields)
        }
        var whole = serverQuery(query)
        whole.outFields = nil
        whole.maxAllowableOffset = 0  // what a query caches is exact: answered from the cache later, it may be shown closer
        whole.returnGeometry = true
        let generation = interaction.generation
        var (fetched, answers, _) = try await FreshnessCollector.collecting { () async throws(FeatureCacheError) in
            try await source.fetch(whole, outFields: nil, metadata: metadata, progress: nil)
        }
        fetched.ordered = !query.orderBy.isEmpty
        try Task.checkCancellationTyped()
        fetched.compact()  // here, where the pages have one owner: each is let go once copied
        let result = merge(
            fetched, clearingFirst: false, pinned: false, metadata: metadata, outFields: query.outFields,
            includesGeometry: query.returnGeometry)
        // A complete answer for an area is coverage: the same query is answered here next time.
        if requestMode == .onInteractionCache, fetched.complete, !fetched.limitExceeded, let area = answeredArea(query) {
            interaction.recordAnswered(
                area, signature: answerSignature(query), ids: fetched.objectIds,
                received: TileCoverage.Received(answers), generation: generation, table: self)
        }
        return result
    }

    /// How many features match, by the same local/service rule.
    public func queryCount(_ query: QueryParameters) async throws(FeatureCacheError) -> Int {
        try await queryCount(query, validated: false)
    }

    /// `queryCount` for a caller that validated `query` already (the C ABI).
    package func queryCount(_ query: QueryParameters, validated: Bool) async throws(FeatureCacheError) -> Int {
        try await answer(query, validated: validated) { (local, snapshot, _) throws(FeatureCacheError) in
            try local.count(snapshot)
        } server: { (metadata) async throws(FeatureCacheError) in
            try await source.count(serverQuery(query), metadata: metadata)
        }
    }

    /// The envelope of the matching features (table spatial reference), by the
    /// same local/service rule; nil when nothing matches.
    public func queryExtent(_ query: QueryParameters) async throws(FeatureCacheError) -> Envelope? {
        try await queryExtent(query, validated: false)
    }

    /// `queryExtent` for a caller that validated `query` already (the C ABI).
    package func queryExtent(_ query: QueryParameters, validated: Bool) async throws(FeatureCacheError) -> Envelope? {
        let extent = try await answer(query, validated: validated) { (local, snapshot, metadata) throws(FeatureCacheError) in
            try local.extent(snapshot).map {
                Envelope(xmin: $0.xmin, ymin: $0.ymin, xmax: $0.xmax, ymax: $0.ymax, spatialReference: metadata.spatialReference)
            }
        } server: { (metadata) async throws(FeatureCacheError) in
            try await source.extent(serverQuery(query), metadata: metadata)
        }
        // In the output system: the box around the projected box (edges densified).
        guard let extent, query.outWkid != 0 else { return extent }
        return try extent.projected(to: query.outWkid)
    }

    // MARK: - Cache

    /// The number of features in the cache.
    public var cachedFeatureCount: Int { store.count }

    /// The heap bytes the cache holds (columns, geometry, indexes).
    public var cachedByteSize: Int { store.byteSize }

    /// Empties the cache and forgets every covered tile.
    public func clearCache() {
        interaction.restart(resetCoverage: true)
        store.clear()
        restoreEdits()
        cacheChanged()
    }

    /// Every cached feature, as a result. Throws `.storage` when a segment
    /// of the cache cannot be read back.
    public func cachedFeatures() throws(FeatureCacheError) -> FeatureResult {
        FeatureResult(try store.snapshot(), limitExceeded: false, spatialReference: loadedMetadata?.spatialReference)
    }
}
