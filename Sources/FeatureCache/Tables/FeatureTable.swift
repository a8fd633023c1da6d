/// A table of features from a remote service (the ArcGIS SDK's
/// `ServiceFeatureTable`, `OGCFeatureCollectionTable`, `WFSFeatureTable`): loadable
/// metadata, a request mode, and a local cache filled by `populate`.
public final class FeatureTable: Loadable {
    public let loadMachine = LoadMachine(label: "table")
    public let context: ClientContext
    let source: any FeatureSource
    /// The cached features.
    public let store = FeatureStore()

    private struct Settings {
        var requestMode: FeatureRequestMode = .onInteractionCache
        var metadata: TableMetadata?
    }
    private let settings = Locked(Settings())

    init(source: any FeatureSource, context: ClientContext) {
        self.source = source
        self.context = context
    }

    /// A table on an ArcGIS REST feature-service layer or table, e.g.
    /// `https://host/arcgis/rest/services/Trees/FeatureServer/0`.
    public static func arcgis(url: String, context: ClientContext = .shared) throws(FeatureCacheError) -> FeatureTable {
        let parsed = try RequestURL(parsing: url)
        return FeatureTable(source: ArcGISLayerSource(layerURL: parsed, context: context), context: context)
    }

    public var serviceKind: ServiceKind { source.kind }
    public var url: String { source.urlString }

    public func performLoad(retrying: Bool) async throws(FeatureCacheError) {
        let metadata = try await source.loadMetadata()
        try Task.checkCancellationTyped()
        settings.withLock { $0.metadata = metadata }
    }

    /// The service metadata; `.invalidState` until loaded.
    public func metadata() throws(FeatureCacheError) -> TableMetadata {
        try requireLoaded("table metadata")
        guard let metadata = settings.withLock({ $0.metadata }) else {
            throw FeatureCacheError.invalidState("table metadata is missing")
        }
        return metadata
    }

    /// The metadata when loaded, else nil (for properties with fallbacks).
    public var loadedMetadata: TableMetadata? {
        loadStatus == .loaded ? settings.withLock { $0.metadata } : nil
    }

    public var requestMode: FeatureRequestMode {
        get { settings.withLock { $0.requestMode } }
    }

    public func setRequestMode(_ mode: FeatureRequestMode) {
        settings.withLock { $0.requestMode = mode }
    }

    // MARK: - Populate

    /// Fetches every feature matching `query` from the service into the cache
    /// (the ArcGIS SDK's `populateFromService`), loading the table first if needed.
    /// All pages are parsed before the cache changes: on failure or cancellation
    /// the cache is exactly as it was. `clearCache` replaces the cache, otherwise
    /// the features merge, a newer copy of a cached feature replacing the older.
    /// - Parameter outFields: overrides `query.outFields` when not nil.
    /// - Returns: the features of this populate.
    public func populate(_ query: QueryParameters, clearCache: Bool, outFields: [String]? = nil,
                         progress: PopulateProgress? = nil) async throws(FeatureCacheError) -> FeatureResult {
        try query.validate()
        try await load()
        let metadata = try metadata()
        let fetched = try await source.fetch(query, outFields: outFields ?? query.outFields, metadata: metadata, progress: progress)
        try Task.checkCancellationTyped()
        let rows = store.apply(fetched.batches, clearingFirst: clearCache)
        let nonEmpty = fetched.batches.filter { $0.count > 0 }
        return FeatureResult(zip(nonEmpty, rows).map { (batch: $0, rows: $1) }, limitExceeded: fetched.limitExceeded,
                             spatialReference: fetched.spatialReference ?? metadata.spatialReference)
    }

    /// Starts a populate; `completion` runs once, on a library thread, with the
    /// result or the error (`.cancelled` after `cancel()` on the operation).
    public func startPopulate(_ query: QueryParameters, clearCache: Bool, outFields: [String]? = nil,
                              progress: PopulateProgress? = nil,
                              completion: @escaping @Sendable (Result<FeatureResult, FeatureCacheError>) -> Void) -> FeatureOperation {
        FeatureOperation { () async throws(FeatureCacheError) -> FeatureResult in
            try await self.populate(query, clearCache: clearCache, outFields: outFields, progress: progress)
        } completion: { outcome in
            completion(outcome)
        }
    }

    /// The number of features in the cache.
    public var cachedFeatureCount: Int { store.count }

    public func clearCache() { store.clear() }

    /// Every cached feature, as a result.
    public func cachedFeatures() -> FeatureResult {
        FeatureResult(store.snapshot(), limitExceeded: false, spatialReference: loadedMetadata?.spatialReference)
    }
}
