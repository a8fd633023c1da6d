/// The kinds of service a table can read. Raw values are the C ABI's `FC_SERVICE_*`.
public enum ServiceKind: Int32, Sendable {
    case arcgis = 1
    case ogcFeatures = 2
    case wfs = 3
}

/// One protocol adapter behind a `FeatureTable`: it knows how to talk to its kind
/// of service; request modes and caching live above it, in the table.
protocol FeatureSource: Sendable {
    var kind: ServiceKind { get }
    var urlString: String { get }
    func loadMetadata() async throws(FeatureCacheError) -> TableMetadata
    /// Fetches and parses every page matching the query; changes nothing.
    func fetch(_ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
               progress: PopulateProgress?) async throws(FeatureCacheError) -> FetchedFeatures
}
