// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// A query's features read from the service page by page as a consumer
/// pulls them (the Arrow C stream of `fc_table_open_arrow_stream`): the
/// table's pager runs as for a populate, each page it takes handed over
/// through a `PageSink` instead of kept. Nothing enters the cache.
///
/// Memory: the page the consumer holds, one page waiting for it, and at most
/// `prefetch` pages in flight. Letting the stream go (`cancel`, or its last
/// reference) cancels the requests in flight and drops what waits.
public final class FeatureStream: Sendable {
    private let sink: PageSink
    private let task: Task<Void, Never>
    private let query: QueryParameters
    /// The table's fields and spatial reference, known once it loaded.
    private let shape = Locked<(fields: [FieldInfo], spatialReference: SpatialReference?)?>(nil)
    /// Pages merged into batches of a fixed size; nil: a batch per page.
    /// Locked across a `next` call: consumers take batches one at a time.
    private let gatherer: Locked<PageGatherer>?

    /// Starts fetching `query` (validated here) from `table`'s service,
    /// loading the table first if needed; `batchRows` > 0: batches of that
    /// many rows (`PageGatherer`), 0: a batch per page.
    public init(_ table: FeatureTable, query: QueryParameters, prefetch: Int, batchRows: Int = 0) throws(FeatureCacheError) {
        try query.validate()
        let sink = PageSink(prefetch: prefetch)
        let shape = self.shape
        self.sink = sink
        self.query = query
        gatherer = batchRows > 0 ? Locked(PageGatherer(rows: batchRows)) : nil
        task = Task {
            do throws(FeatureCacheError) {
                try await table.load()
                let metadata = try table.metadata()
                shape.withLock { $0 = (metadata.fields, metadata.spatialReference) }
                let fetched = try await sink.running { () async throws(FeatureCacheError) in
                    try await table.source.fetch(
                        table.serverQuery(query), outFields: query.outFields, metadata: metadata, progress: nil)
                }
                // A source that built its answer without the sink hands it over whole.
                for batch in fetched.batches { sink.deliver(batch, spatialReference: fetched.spatialReference) }
                sink.finish(.success(()))
            } catch {
                sink.finish(.failure(error))
            }
        }
    }

    deinit { cancel() }

    /// The next page's features (or the next gathered batch's) as a result
    /// in the query's output system, with its fields and geometry choice,
    /// waiting for it on the calling thread; nil at the end. Throws the
    /// failure that ended the stream, and again on every later call.
    public func next() throws(FeatureCacheError) -> FeatureResult? {
        let next: PageSink.Page
        if let gatherer {
            guard let batch = try gatherer.withLock({ (gatherer) throws(FeatureCacheError) in try gatherer.next(sink.next) })
            else { return nil }
            next = batch
        } else {
            switch sink.next() {
            case .end: return nil
            case .failure(let error): throw error
            case .page(let page): next = page
            }
        }
        let known = shape.withLock { $0 }
        return try FeatureResult(
            [(next.batch, nil)], limitExceeded: false,
            spatialReference: next.spatialReference ?? known?.spatialReference, outFields: query.outFields,
            includesGeometry: query.returnGeometry, schema: known?.fields ?? []
        ).projected(to: query.outWkid)
    }

    /// A result of no features with the stream's columns (for the schema of
    /// a stream that ended without any); nil before the table loaded.
    public func emptyResult() -> FeatureResult? {
        guard let known = shape.withLock({ $0 }) else { return nil }
        return FeatureResult(
            [], limitExceeded: false, spatialReference: known.spatialReference, outFields: query.outFields,
            includesGeometry: query.returnGeometry, schema: known.fields)
    }

    /// Stops fetching: the requests in flight are cancelled, what waits is dropped.
    public func cancel() {
        task.cancel()
        sink.cancel()
    }
}
