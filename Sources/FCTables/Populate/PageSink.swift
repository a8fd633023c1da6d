// SPDX-License-Identifier: Apache-2.0
import Dispatch
import FCSupport
import FCData

/// Where the pages of a streamed query go, one at a time, to a consumer that
/// pulls them (the Arrow C stream of `fc_table_open_arrow_stream`), instead
/// of into one `FetchedFeatures` that holds them all.
///
/// The pagers need no change: a `FetchedFeatures` made while a sink is
/// current (`current`, a task local) hands each page it is given to the sink
/// as it is appended, after every check the pager makes, and keeps only
/// counts. The memory is bounded by the consumer: a pager waits for room
/// before it asks for its next page (`PagePrefetcher.page`), so at most one
/// page waits to be taken (`capacity`) while the pages sent ahead are in
/// flight (`prefetch`: the prefetcher's window).
///
/// What was handed over cannot be taken back, so a source that would start
/// its answer over (ArcGIS's PBF → JSON fallback, another output system)
/// asks `mayRestart` first, and fails instead once a page went out.
package final class PageSink: Sendable {
    @TaskLocal package static var current: PageSink?

    /// One handed-over page and the spatial reference its pager gave it.
    package typealias Page = (batch: FeatureBatch, spatialReference: SpatialReference?)

    /// Pages requested ahead of the consumer (the prefetcher's window, at least one).
    package let prefetch: Int
    /// Pages that wait for the consumer before the pager asks for more.
    package let capacity = 1

    private struct State {
        var pages: [Page] = []
        var delivered = 0
        var outcome: Result<Void, FeatureCacheError>?
        var cancelled = false
        var producers: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())
    /// Signalled once per page handed over and once at the end: the consumer waits on it.
    private let arrivals = DispatchSemaphore(value: 0)
    /// When set, the sink every page goes through first (`keeping`).
    private let filter: Filter?

    package init(prefetch: Int) {
        self.prefetch = max(1, prefetch)
        filter = nil
    }

    private init(filtering keeper: PageKeeper, into parent: PageSink) {
        prefetch = parent.prefetch
        filter = Filter(keeper: keeper, parent: parent)
    }

    // MARK: - The producer's side

    /// A page the pager took: to the consumer (through the filter, if any).
    package func deliver(_ batch: FeatureBatch, spatialReference: SpatialReference?) {
        if let filter {
            filter.deliver(batch, spatialReference: spatialReference)
            return
        }
        let accepted = state.withLock { state -> Bool in
            guard !state.cancelled, state.outcome == nil else { return false }
            state.pages.append((batch, spatialReference))
            state.delivered += 1
            return true
        }
        if accepted { arrivals.signal() }
    }

    /// Waits until the consumer has room for another page; `.cancelled`
    /// once the consumer let the stream go.
    package func waitForRoom() async throws(FeatureCacheError) {
        if let filter { return try await filter.parent.waitForRoom() }
        while true {
            let ready = state.withLock { $0.cancelled || $0.pages.count < capacity }
            if ready { break }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.cancelled || state.pages.count < capacity { return true }
                    state.producers.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
        if state.withLock({ $0.cancelled }) { throw .cancelled }
        try Task.checkCancellationTyped()
    }

    /// Whether the source may start its answer over: nothing was handed over yet.
    package var mayRestart: Bool {
        if let filter { return filter.parent.mayRestart }
        return state.withLock { $0.delivered == 0 }
    }

    /// The source is done: every page was handed over, or it failed.
    package func finish(_ outcome: Result<Void, FeatureCacheError>) {
        let first = state.withLock { state -> Bool in
            guard state.outcome == nil else { return false }
            state.outcome = outcome
            return true
        }
        if first { arrivals.signal() }
    }

    // MARK: - The consumer's side

    /// What the consumer gets next.
    package enum Next {
        case page(Page)
        case end
        case failure(FeatureCacheError)
    }

    /// The next page, waiting for it (on the caller's thread: a C consumer's,
    /// never one of the library's); then the end or the failure, again and again.
    package func next() -> Next {
        while true {
            let (found, resumed) = state.withLock { state -> (Next?, [CheckedContinuation<Void, Never>]) in
                if !state.pages.isEmpty {
                    let page = state.pages.removeFirst()
                    let waiting = state.producers
                    state.producers = []
                    return (.page(page), waiting)
                }
                switch state.outcome {
                case .success: return (.end, [])
                case .failure(let error): return (.failure(error), [])
                case nil: return (state.cancelled ? .failure(.cancelled) : nil, [])
                }
            }
            for producer in resumed { producer.resume() }
            if let found { return found }
            arrivals.wait()
        }
    }

    /// The consumer let the stream go: the pages waiting are dropped and a
    /// pager waiting for room stops with `.cancelled`.
    package func cancel() {
        let resumed = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.cancelled = true
            state.pages = []
            defer { state.producers = [] }
            return state.producers
        }
        for producer in resumed { producer.resume() }
        arrivals.signal()
    }

    /// Runs `work` with this sink current.
    package func running<R>(_ work: () async throws(FeatureCacheError) -> R) async throws(FeatureCacheError) -> R {
        let outcome = await Self.$current.withValue(self) { () async -> Result<R, FeatureCacheError> in
            do throws(FeatureCacheError) {
                return .success(try await work())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    // MARK: - A keeper between a pager and the consumer

    /// Runs `body` (a pager) so that every page it takes passes `keeper`
    /// before anyone sees it: one page at a time into the current sink when
    /// a query is streamed, all of them at the end otherwise. For a source
    /// that asks the service for more than the query (a box widened into
    /// another system) and keeps what the query asked for.
    package static func keeping(
        _ keeper: PageKeeper?, _ body: () async throws(FeatureCacheError) -> FetchedFeatures
    ) async throws(FeatureCacheError) -> FetchedFeatures {
        guard var keeper else { return try await body() }
        guard let sink = current else {
            let fetched = try await body()
            var kept = FetchedFeatures(streaming: nil)
            kept.complete = fetched.complete
            kept.spatialReference = fetched.spatialReference
            for batch in fetched.batches { try keeper.keep(batch, into: &kept) }
            return kept
        }
        let child = PageSink(filtering: keeper, into: sink)
        var fetched = try await child.running(body)
        let (failure, limitExceeded) = child.filter!.result
        if let failure { throw failure }
        fetched.limitExceeded = fetched.limitExceeded || limitExceeded
        return fetched
    }

    /// A keeper's state, shared by the pages a pager hands over one by one.
    private final class Filter: Sendable {
        let parent: PageSink
        private struct State {
            var keeper: PageKeeper
            var failure: FeatureCacheError?
            var limitExceeded = false
        }
        private let state: Locked<State>

        init(keeper: PageKeeper, parent: PageSink) {
            self.parent = parent
            state = Locked(State(keeper: keeper))
        }

        func deliver(_ batch: FeatureBatch, spatialReference: SpatialReference?) {
            let kept = state.withLock { state -> [FeatureBatch] in
                guard state.failure == nil else { return [] }
                var page = FetchedFeatures(streaming: nil)
                do throws(FeatureCacheError) { try state.keeper.keep(batch, into: &page) } catch {
                    state.failure = error
                    return []
                }
                state.limitExceeded = state.limitExceeded || page.limitExceeded
                return page.batches
            }
            for page in kept { parent.deliver(page, spatialReference: spatialReference) }
        }

        var result: (FeatureCacheError?, Bool) { state.withLock { ($0.failure, $0.limitExceeded) } }
    }
}
