// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// How far a running populate has come.
public struct FetchProgress: Sendable, Equatable {
    /// Pages received so far.
    public var pages: Int
    /// Features kept so far.
    public var features: Int
    /// How many features the populate will keep in all, when the server's own
    /// count says it (`numberMatched` with every row kept as sent); nil otherwise.
    public var totalFeatures: Int?

    public init(pages: Int, features: Int, totalFeatures: Int? = nil) {
        self.pages = pages
        self.features = features
        self.totalFeatures = totalFeatures
    }

    /// The total a server count promises for `query`: the rows matched after the
    /// offset, up to the maximum; nil when rows are dropped locally (the count then
    /// includes rows that will not be kept) or the server gave no count.
    package static func total(matched: Int64?, dropsRowsLocally: Bool, query: QueryParameters) -> Int? {
        guard let matched, !dropsRowsLocally, matched >= 0 else { return nil }
        let afterOffset = max(0, Int(clamping: matched) - query.resultOffset)
        return query.maxFeatures > 0 ? min(afterOffset, query.maxFeatures) : afterOffset
    }
}

/// Reports progress of a running populate. Called on a library thread, never
/// under a library lock.
public typealias PopulateProgress = @Sendable (FetchProgress) -> Void

/// Everything a protocol adapter fetched for one populate, parsed but not yet in
/// the cache: the table applies it in one step, or not at all.
package struct FetchedFeatures: Sendable {
    package var batches: [FeatureBatch] = []
    /// `maxFeatures` cut the set short.
    package var limitExceeded = false
    package var spatialReference: SpatialReference?
    /// False when a page limit stopped the fetch while the service had more.
    package var complete = true
    /// The service was asked for an order (ORDER BY, sortBy): the cache keeps
    /// the rows in it rather than in spatial order.
    package var ordered = false
    /// `batches` are compacted already (`compact()`).
    package private(set) var isCompacted = false
    /// Pages appended so far (`append`); `batches` may hold several in one.
    package private(set) var pageCount = 0
    /// The last batches, pages appended since the last gather: rows and count.
    private var pendingRows = 0, pendingPages = 0
    /// Where appended pages go instead when a query is streamed (`PageSink`):
    /// the sink current where this was made. `batches` then stays empty.
    package let sink: PageSink?
    /// Rows handed to `sink`.
    private var streamedRows = 0

    /// Rows of appended pages that are gathered into one batch as soon as they
    /// are there (`append`).
    package static let gatheredRows = 1 << 15

    /// Pages kept here, or handed to the sink of the query being streamed.
    package init() { sink = PageSink.current }

    /// Pages kept here, or handed to `sink`.
    package init(streaming sink: PageSink?) { self.sink = sink }

    /// Adds a page (empty ones are dropped). Every `gatheredRows` rows of
    /// pages of one layout become one batch as they arrive, and the pages go:
    /// a populate's heap then holds a few pages at a time rather than all of
    /// them until the end (whose small blocks the allocator keeps after they
    /// are freed, beside the compacted copy; measured in BENCHMARKS.md).
    package mutating func append(_ page: FeatureBatch) {
        guard page.count > 0 else { return }
        if let sink {
            sink.deliver(page, spatialReference: spatialReference)
            pageCount += 1
            streamedRows += page.count
            return
        }
        batches.append(page)
        pageCount += 1
        pendingPages += 1
        pendingRows += page.count
        guard pendingRows >= Self.gatheredRows else { return }
        let start = batches.count - pendingPages
        pendingRows = 0
        pendingPages = 0
        guard batches[start...].allSatisfy({ $0.hasLayout(of: batches[start]) }) else { return }
        let pages = Array(batches[start...])
        batches.removeSubrange(start...)
        batches.append(FeatureBatch.concatenating(consume pages))
    }

    /// The pages as they enter the cache: a few large batches, large ones in
    /// spatial order unless `ordered` (FeatureBatch.compacting). Done before a
    /// writer takes its lock, since it copies every row.
    package mutating func compact() {
        guard !isCompacted else { return }
        // Handed over, not shared: compaction lets each page go once copied.
        let pages = batches
        batches = []
        batches = FeatureBatch.compacting(consume pages, spatialOrder: !ordered)
        isCompacted = true
    }
    package var featureCount: Int { batches.reduce(streamedRows) { $0 + $1.count } }
    package var objectIds: [Int64] { batches.flatMap { batch in (0..<batch.count).map { batch.objectId($0) } } }
    /// How generalized the coarsest page's geometry is (0 = all exact).
    package var geometryTolerance: Double { batches.map(\.geometryTolerance).max() ?? 0 }
}
