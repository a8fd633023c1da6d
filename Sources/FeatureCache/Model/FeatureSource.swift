// SPDX-License-Identifier: Apache-2.0
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
    /// Reads the metadata (loading what the source depends on first; `retrying`
    /// retries a dependency that failed).
    func loadMetadata(retrying: Bool) async throws(FeatureCacheError) -> TableMetadata
    /// How where clauses reach the server (only OGC API tables have a choice).
    var queryLanguage: QueryLanguage { get }
    func setQueryLanguage(_ language: QueryLanguage) throws(FeatureCacheError)
    /// The WFS feature type behind the table, for what only WFS has (axis
    /// orders, output format, GetFeature documents); nil for other kinds.
    var wfsFeatureType: WFSFeatureTypeSource? { get }
    /// The ArcGIS layer behind the table (its query format); nil for other kinds.
    var arcgisLayer: ArcGISLayerSource? { get }
    /// Fetches and parses the pages matching the query (all of them, or at most
    /// `maxPages`, then `complete` says whether the service had more); changes nothing.
    func fetch(_ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
               progress: PopulateProgress?, maxPages: Int?) async throws(FeatureCacheError) -> FetchedFeatures
    /// How many features match, asked of the service.
    func count(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Int
    /// The envelope of the matching features, asked of the service (in the
    /// table's spatial reference); nil when nothing matches.
    func extent(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Envelope?
}

extension FeatureSource {
    var queryLanguage: QueryLanguage { .auto }
    var wfsFeatureType: WFSFeatureTypeSource? { nil }
    var arcgisLayer: ArcGISLayerSource? { nil }

    func setQueryLanguage(_ language: QueryLanguage) throws(FeatureCacheError) {
        guard language == .auto else {
            throw FeatureCacheError(.unsupported, "the query language can only be chosen for OGC API tables (where clauses go to this service as they are)")
        }
    }

    func fetch(_ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
               progress: PopulateProgress?) async throws(FeatureCacheError) -> FetchedFeatures {
        try await fetch(query, outFields: outFields, metadata: metadata, progress: progress, maxPages: nil)
    }
}

extension FeatureSource {
    /// The envelope of the matching features, from fetching them (for services
    /// that cannot say it themselves); nil when nothing matches.
    func extentOfFetched(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Envelope? {
        var query = query
        query.returnGeometry = true
        let fetched = try await fetch(query, outFields: nil, metadata: metadata, progress: nil, maxPages: nil)
        var box = BoundingBox()
        for batch in fetched.batches {
            for row in 0..<batch.count { batch.geometry.addBox(of: row, to: &box) }
        }
        return box.isEmpty ? nil : Envelope(xmin: box.xmin, ymin: box.ymin, xmax: box.xmax, ymax: box.ymax,
                                            spatialReference: metadata.spatialReference)
    }
}
