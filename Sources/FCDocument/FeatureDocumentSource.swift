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
///
/// With a cache folder the download is kept (`answer.fcc`) and asked again
/// conditionally: a 304 costs no body. The copy's content hash is the table's
/// data version and change generation, so a reopened cache of an unchanged
/// document keeps everything, and a changed one takes only the features that
/// differ between the two copies (`SourceChanges(from:to:)`), as a
/// synchronize does later in the run.
final class FeatureDocumentSource: FeatureSource, AnswerKeepingSource, ChangeTrackingSource {
    let documentURL: RequestURL
    let context: ClientContext
    let statistics: StatisticsCounter
    /// String ids → stable object ids; features without an id get their own.
    private let identity = FeatureIdentity()

    func serviceId(of objectId: Int64) -> String? { identity.serviceId(for: objectId) }

    /// How the first load starts: from what the opening probe received.
    enum Opening {
        /// The probe's answer is the document (downloaded once).
        case answer(HTTPResponse, HTTPRequest?)
        /// The probe asked conditionally with a copy kept in `folder`, and the
        /// server said it is current.
        case notModified(KeptAnswer, folder: String)
        /// The server could not be reached, and a copy is kept: the table
        /// loads offline, its fetches answered from that copy.
        case unreachable(KeptAnswer, FeatureCacheError)
    }

    /// One copy of the document, as read.
    private struct Copy {
        var store: FeatureStore
        var batch: FeatureBatch
        var metadata: TableMetadata
        var validator: AnswerValidator?
        /// The content hash: the data version and the change generation.
        var generation: String
    }

    private struct State {
        var opening: Opening?
        var cache: PersistedCache?
        var copy: Copy?
        /// What changed when the last copy replaced the one before (asked by
        /// the generation of that one: a synchronize that failed asks again).
        var lastChange: (from: String, changes: SourceChanges)?
    }
    private let state: Locked<State>

    init(url: RequestURL, context: ClientContext, statistics: StatisticsCounter, opening: Opening? = nil) {
        documentURL = url
        self.context = context
        self.statistics = statistics
        state = Locked(State(opening: opening))
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

    func keepAnswers(in cache: PersistedCache) { state.withLock { $0.cache = cache } }

    func loadMetadata(retrying: Bool) async throws(FeatureCacheError) -> TableMetadata {
        let (opening, cache) = state.withLock { state in
            defer { state.opening = nil }
            return (state.opening, state.cache)
        }
        let copy: Copy
        switch opening {
        case .notModified(let kept, let folder):
            copy = try read(kept)
            // Kept in another folder than this table's: this one keeps it too.
            if let cache, cache.folder != folder { try? cache.keep(kept) }
        case .unreachable(let kept, let error):
            _ = try read(kept)
            throw error
        case .answer(let response, let request):
            copy = try replace(with: response, asked: request, kept: cache?.readKeptAnswer(), cache: cache).copy
        case nil:
            copy = try await download(kept: cache?.readKeptAnswer(), cache: cache)
        }
        return copy.metadata
    }

    /// Asks for the document (conditionally when a copy is kept) and reads
    /// the answer, or the kept copy on a 304.
    private func download(kept: KeptAnswer?, cache: PersistedCache?) async throws(FeatureCacheError) -> Copy {
        switch try await ask(kept?.validator, offline: kept) {
        case .notModified(let response):
            guard let kept else { throw FeatureCacheError(.protocol, "a 304 answered a request that asked for none") }
            let renewed = KeptAnswer(validator: kept.validator?.renewed(by: response), body: kept.body)
            if renewed.validator != kept.validator { try? cache?.keep(renewed) }
            return try read(renewed)
        case .changed(let response, let request):
            return try replace(with: response, asked: request, kept: kept, cache: cache).copy
        }
    }

    private enum Answer {
        case notModified(HTTPResponse)
        case changed(HTTPResponse, HTTPRequest)
    }

    /// A GET of the document, conditional on `validator` when there is one:
    /// of the URL that copy came from (the opening probe's asked for JSON)
    /// and the representation it validates. Unreachable with an `offline`
    /// copy: that copy answers the fetches (the table loads offline).
    private func ask(_ validator: AnswerValidator?, offline: KeptAnswer?) async throws(FeatureCacheError) -> Answer {
        var headers: [(name: String, value: String)] = [("Accept", Self.accept)]
        if let validator {
            headers = validator.conditionalHeaders
            if validator.accept == nil { headers.append(("Accept", Self.accept)) }
        }
        let request = context.makeRequest(
            .get, url: validator?.url ?? documentURL.string, headers: headers, credentialsFor: documentURL.string)
        let response: HTTPResponse
        do {
            response = try await context.send(request, counting: statistics)
        } catch {
            if let offline, FeatureTable.isUnreachable(error) { _ = try? read(offline) }
            throw error
        }
        if response.status == 304, request.isConditional { return .notModified(response) }
        if response.status >= 400 { throw ServiceResponse.httpError(response, request: request, detail: nil) }
        return .changed(response, request)
    }

    private static let accept = "application/geo+json, application/json;q=0.9, */*;q=0.1"

    /// Reads a new answer as the copy, keeps it (a failure to keep costs a
    /// whole download next run, never this one's features), and returns what
    /// changed since the copy before (this run's, else the kept one). With
    /// `loaded` (the metadata the table loaded with), a copy whose fields or
    /// geometry type differ is refused and changes nothing: the table is
    /// opened again to take them.
    private func replace(
        with response: HTTPResponse, asked request: HTTPRequest?, kept: KeptAnswer?, cache: PersistedCache?,
        loaded: TableMetadata? = nil
    ) throws(FeatureCacheError) -> (copy: Copy, changes: SourceChanges) {
        guard ServiceResponse.looksLikeJSON(response.body) else {
            throw ServiceResponse.notJSONError(response, request: request ?? context.makeRequest(.get, url: documentURL.string))
        }
        let answer = KeptAnswer(validator: request.flatMap { AnswerValidator.of(response, to: $0) }, body: response.body)
        let copy = try parse(answer)
        if let loaded, copy.metadata.fields != loaded.fields || copy.metadata.geometryType != loaded.geometryType {
            throw FeatureCacheError(
                .invalidState,
                "the document \(RequestURL.redacted(documentURL.string)) changed its fields or geometry type since the table loaded: open it again"
            )
        }
        // The kept copy is read only to compare: an equal one changed nothing.
        let before = state.withLock { $0.copy } ?? kept.flatMap { $0.body == answer.body ? nil : try? parse($0) }
        if let cache, kept?.body != answer.body || kept?.validator != answer.validator { try? cache.keep(answer) }
        var changes = SourceChanges(generation: copy.generation, upserted: [], deleted: [])
        if let before, before.generation != copy.generation {
            changes = SourceChanges(from: before.batch, to: copy.batch, generation: copy.generation)
        }
        state.withLock { state in
            if let before, before.generation != copy.generation { state.lastChange = (before.generation, changes) }
            state.copy = copy
        }
        return (copy, changes)
    }

    /// Reads a copy and makes it the one every fetch answers from.
    private func read(_ answer: KeptAnswer) throws(FeatureCacheError) -> Copy {
        let copy = try parse(answer)
        state.withLock { $0.copy = copy }
        return copy
    }

    private func parse(_ answer: KeptAnswer) throws(FeatureCacheError) -> Copy {
        let (batch, read) = try FeatureDocumentReader.read(
            answer.body, name: name, url: RequestURL.redacted(documentURL.string), identity: identity)
        let generation = "document:" + String(answer.body.withUnsafeBytes { ContentHash.of($0) }, radix: 16)
        var metadata = read
        metadata.dataVersion = generation
        let store = FeatureStore()
        _ = store.apply([batch], clearingFirst: true)
        return Copy(store: store, batch: batch, metadata: metadata, validator: answer.validator, generation: generation)
    }

    // MARK: - Changes

    func changeGeneration(_ metadata: TableMetadata) -> String? { metadata.dataVersion }

    /// What changed since `generation`: the last replacement's changes when it
    /// replaced that generation; else, when it is the copy's, the document
    /// asked again (304: nothing); nil for any other (the caller fetches again).
    func changes(since generation: String, metadata: TableMetadata) async throws(FeatureCacheError) -> SourceChanges? {
        let (last, current) = state.withLock { ($0.lastChange, $0.copy?.generation) }
        if let last, last.from == generation, last.changes.generation == current { return last.changes }
        guard generation == current else { return nil }
        return try await renew(metadata: metadata)
    }

    func currentGeneration(metadata: TableMetadata) async throws(FeatureCacheError) -> String? {
        try await renew(metadata: metadata).generation
    }

    /// Asks the document again (conditionally when it came with a validator):
    /// a changed one replaces the copy, unless its fields changed.
    private func renew(metadata: TableMetadata) async throws(FeatureCacheError) -> SourceChanges {
        let (copy, cache) = state.withLock { ($0.copy, $0.cache) }
        guard let copy else { throw FeatureCacheError.invalidState("the document is not loaded") }
        switch try await ask(copy.validator, offline: nil) {
        case .notModified:
            return SourceChanges(generation: copy.generation, upserted: [], deleted: [], notModified: true)
        case .changed(let response, let request):
            return try replace(with: response, asked: request, kept: nil, cache: cache, loaded: metadata).changes
        }
    }

    // MARK: - Fetching from the copy

    private func store() throws(FeatureCacheError) -> FeatureStore {
        guard let store = state.withLock({ $0.copy?.store }) else { throw FeatureCacheError.invalidState("the document is not loaded") }
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
