// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// One protocol adapter behind a `FeatureTable`: it knows how to talk to its kind
/// of service; request modes, caching and local queries live above it, in the
/// table, which names no protocol. What only one protocol has is declared as an
/// option (`options`) or reached through `fetch(nativeRequest:)`.
package protocol FeatureSource: Sendable {
    var kind: ServiceKind { get }
    var urlString: String { get }
    /// What tells this source's data from every other's: its URL, and the item
    /// where the URL alone does not name it (a WFS feature type). Names a
    /// persisted cache.
    var cacheIdentity: String { get }
    /// How the table is opened again from its URL alone (`fc_table_open`'s
    /// URL and name), as a persisted cache records it: its service's URL and
    /// the item in it (nil: the URL names the item).
    var reopening: (url: String, name: String?) { get }
    /// Reads the metadata (loading what the source depends on first; `retrying`
    /// retries a dependency that failed).
    func loadMetadata(retrying: Bool) async throws(FeatureCacheError) -> TableMetadata
    /// The settings this kind of source has (GDAL's open options), by name.
    var options: [SourceOption] { get }
    /// Fetches and parses the pages matching the query (all of them, or at most
    /// `maxPages`, then `complete` says whether the service had more); changes nothing.
    func fetch(
        _ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
        progress: PopulateProgress?, maxPages: Int?
    ) async throws(FeatureCacheError) -> FetchedFeatures
    /// Sends a complete request written in the service's own language (a WFS
    /// `GetFeature` document) and parses the features of its one answer.
    func fetch(nativeRequest: String, metadata: TableMetadata) async throws(FeatureCacheError) -> FetchedFeatures
    /// How many features match, asked of the service.
    func count(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Int
    /// The envelope of the matching features, asked of the service (in the
    /// table's spatial reference); nil when nothing matches.
    func extent(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Envelope?
    /// The service's own id of a feature the source read, as the service
    /// writes it: the object id as text by default; sources whose services
    /// name features by text (OGC API, documents, WFS) give that text, nil
    /// for an id they never read.
    func serviceId(of objectId: Int64) -> String?
    /// The layer-wide evidence of change (`TableMetadata.dataVersion`) as
    /// the service gives it now, asked again; nil for a source that has none
    /// or cannot ask for it alone.
    func currentDataVersion(metadata: TableMetadata) async throws(FeatureCacheError) -> String?
}

extension FeatureSource {
    /// What error messages call this kind ("ArcGIS", "WFS", …).
    var kindName: String { kind.name }

    package var options: [SourceOption] { [] }

    package var cacheIdentity: String { urlString }
    package var reopening: (url: String, name: String?) { (urlString, nil) }
    package func currentDataVersion(metadata: TableMetadata) async throws(FeatureCacheError) -> String? { nil }

    package func serviceId(of objectId: Int64) -> String? { objectId > 0 ? String(objectId) : nil }

    package func fetch(nativeRequest: String, metadata: TableMetadata) async throws(FeatureCacheError) -> FetchedFeatures {
        throw FeatureCacheError(.unsupported, "\(kindName) tables take no request in the service's own language")
    }

    package func fetch(
        _ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
        progress: PopulateProgress?
    ) async throws(FeatureCacheError) -> FetchedFeatures {
        try await fetch(query, outFields: outFields, metadata: metadata, progress: progress, maxPages: nil)
    }
}

extension FeatureSource {
    /// The envelope of the matching features, from fetching them (for services
    /// that cannot say it themselves); nil when nothing matches.
    package func extentOfFetched(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Envelope? {
        var query = query
        query.returnGeometry = true
        let fetched = try await fetch(query, outFields: nil, metadata: metadata, progress: nil, maxPages: nil)
        var box = BoundingBox()
        for batch in fetched.batches {
            for row in 0..<batch.count { batch.geometry.addBox(of: row, to: &box) }
        }
        return box.isEmpty
            ? nil
            : Envelope(
                xmin: box.xmin, ymin: box.ymin, xmax: box.xmax, ymax: box.ymax,
                spatialReference: metadata.spatialReference)
    }
}
