// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// The adapter of a table on one document of features served whole over HTTP
/// (a `.geojson` file, an Esri JSON export, an ArcGIS `query` answer an
/// open-data portal links to). Loading downloads and reads the document once;
/// every fetch after — a populate, a view of the on-interaction modes, a
/// server query of the no-cache mode — is answered from that copy by the same
/// local query the cache runs (where, geometry, ids, order, offset, limit), so
/// all three request modes work without asking the server again. Retrying a
/// failed load downloads it anew.
final class FeatureDocumentSource: FeatureSource {
    let documentURL: RequestURL
    let context: ClientContext
    let statistics: StatisticsCounter
    /// String ids → stable object ids; features without an id get their own.
    private let identity = FeatureIdentity()

    func serviceId(of objectId: Int64) -> String? { identity.serviceId(for: objectId) }

    /// The document as read, queried by every fetch.
    private let loaded = Locked<FeatureStore?>(nil)
    /// The answer the opening probe downloaded already: the first load reads it
    /// rather than asking again.
    private let prefetched: Locked<HTTPResponse?>

    init(url: RequestURL, context: ClientContext, statistics: StatisticsCounter, prefetched: HTTPResponse? = nil) {
        documentURL = url
        self.context = context
        self.statistics = statistics
        self.prefetched = Locked(prefetched)
    }

    var kind: ServiceKind { .document }
    var urlString: String { documentURL.string }

    /// The document's file name without its extension (`parks` for
    /// `…/parks.geojson`), else the last path segment.
    var name: String {
        let segment = RequestURL.percentDecode(documentURL.base.split(separator: "/").last ?? "features")
        let stem = segment.split(separator: ".").first.map(String.init) ?? segment
        return stem.isEmpty ? segment : stem
    }

    func loadMetadata(retrying: Bool) async throws(FeatureCacheError) -> TableMetadata {
        let response = try await download()
        try Task.checkCancellationTyped()
        let (batch, metadata) = try FeatureDocumentReader.read(
            response.body, name: name, url: RequestURL.redacted(documentURL.string),
            identity: identity)
        let store = FeatureStore()
        _ = store.apply([batch], clearingFirst: true)
        loaded.withLock { $0 = store }
        return metadata
    }

    /// The document: the probe's copy once, else a GET of the URL as given.
    private func download() async throws(FeatureCacheError) -> HTTPResponse {
        if let response = prefetched.withLock({ $0.take() }) { return response }
        let request = context.makeRequest(
            .get, url: documentURL.string,
            headers: [("Accept", "application/geo+json, application/json;q=0.9, */*;q=0.1")],
            credentialsFor: documentURL.string)
        let response = try await context.send(request, counting: statistics)
        if response.status >= 400 {
            throw ServiceResponse.httpError(response, request: request, detail: nil)
        }
        guard ServiceResponse.looksLikeJSON(response.body) else { throw ServiceResponse.notJSONError(response, request: request) }
        return response
    }

    private func store() throws(FeatureCacheError) -> FeatureStore {
        guard let store = loaded.withLock({ $0 }) else { throw FeatureCacheError.invalidState("the document is not loaded") }
        return store
    }

    private func run(_ query: QueryParameters, metadata: TableMetadata) throws(FeatureCacheError) -> LocalQuery {
        try LocalQuery(
            query, definitionExpression: "", fields: metadata.fields,
            tableWkid: metadata.spatialReference?.effectiveWkid ?? 4326)
    }

    func fetch(
        _ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
        progress: PopulateProgress?, maxPages: Int?
    ) async throws(FeatureCacheError) -> FetchedFeatures {
        let result = try run(query, metadata: metadata).run(try store().queryableSnapshot(), spatialReference: metadata.spatialReference)
        var fetched = FetchedFeatures()
        fetched.spatialReference = metadata.spatialReference
        fetched.limitExceeded = result.limitExceeded
        for part in result.parts {
            let rows = part.rows.map { $0.map(Int.init) }
            fetched.append((rows.map { part.batch.gathering($0, spatial: false) } ?? part.batch).projecting(outFields))
        }
        progress?(FetchProgress(pages: 1, features: fetched.featureCount, totalFeatures: fetched.featureCount))
        return fetched
    }

    func count(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Int {
        try run(query, metadata: metadata).count(try store().queryableSnapshot())
    }

    func extent(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Envelope? {
        try run(query, metadata: metadata).extent(try store().queryableSnapshot()).map {
            Envelope(xmin: $0.xmin, ymin: $0.ymin, xmax: $0.xmax, ymax: $0.ymax, spatialReference: metadata.spatialReference)
        }
    }
}
