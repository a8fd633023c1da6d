/// A table of features from a remote service (the ArcGIS SDK's
/// `ServiceFeatureTable`, `OGCFeatureCollectionTable`, `WFSFeatureTable`): loadable
/// metadata, a request mode, and (in later parts) a local cache.
public final class FeatureTable: Loadable {
    public let loadMachine = LoadMachine(label: "table")
    public let context: ClientContext
    let source: any FeatureSource

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
}
