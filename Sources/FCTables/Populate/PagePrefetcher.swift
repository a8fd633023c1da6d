// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// Fetches the pages a pager will ask for next while it reads the current one.
///
/// The pager stays sequential: it asks for each page by key (`page`), checks it
/// and applies it in order, exactly as without prefetching. Whenever the pages
/// it will need are known from the server's own evidence (a total count and
/// offset paging, a list of object ids), it says so (`expect`), and up to the
/// window's size of them are sent ahead. A page asked for that was not
/// expected is fetched then; expected pages that stop being expected (the
/// server did not page as predicted) are cancelled. Started pages, finished or
/// not, count against the window until the pager takes them, so at most a
/// window of pages is held in memory.
///
/// A page that fails with server trouble (a 5xx, a lost connection, a
/// timeout) while other pages were in flight is asked once more alone, the
/// others cancelled and every later page sent one at a time: a server that
/// cannot take concurrent requests costs speed, not the populate.
///
/// A resumable populate's journal (`PopulateJournal.current`) answers the
/// pages it holds, which are then neither fetched nor sent ahead, and keeps
/// each page the pager takes.
///
/// `finish` cancels whatever is still running: call it when the pager ends,
/// by success or failure.
package final class PagePrefetcher<Key: Hashable & Sendable, Page: Sendable>: Sendable {
    package typealias Fetch = @Sendable () async throws(FeatureCacheError) -> Page
    package typealias Outcome = Result<Page, FeatureCacheError>

    private struct State {
        /// Started pages the pager has not taken yet.
        var started: [Key: Task<Outcome, Never>] = [:]
        /// Expected pages not started yet, in the order they will be asked for.
        var waiting: [(key: Key, fetch: Fetch)] = []
        var finished = false
    }

    package let window: PagingWindow
    private let state = Locked(State())
    /// The populate's journal, when it runs resumable and its pages can be kept.
    private let journal: PopulateJournal?

    package init(window: PagingWindow) {
        self.window = window
        journal = Page.self is any JournaledPage.Type ? PopulateJournal.current : nil
    }

    /// Up to `context`'s connections per host in flight (for a streamed
    /// query, up to the pages its consumer lets go ahead: `PageSink.prefetch`).
    package convenience init(context: ClientContext) {
        let connections = context.settings.maxConnectionsPerHost
        self.init(window: PagingWindow(limit: PageSink.current.map { min($0.prefetch, connections) } ?? connections))
    }

    /// The pages the pager will ask for next, in order (replacing what it expected before).
    package func expect(_ upcoming: [(key: Key, fetch: Fetch)]) {
        let upcoming = journal.map { journal in upcoming.filter { !journal.holds($0.key) } } ?? upcoming
        let dropped = state.withLock { state -> [Task<Outcome, Never>] in
            guard !state.finished else { return [] }
            let keys = Set(upcoming.map(\.key))
            let dropped = state.started.filter { !keys.contains($0.key) }
            for key in dropped.keys { state.started[key] = nil }
            state.waiting = upcoming.filter { state.started[$0.key] == nil }
            return Array(dropped.values)
        }
        for task in dropped { task.cancel() }
        fill(reserving: 0)
    }

    /// The page for `key`: the one sent ahead, or fetched now with `fetch`.
    package func page(_ key: Key, fetch: @escaping Fetch) async throws(FeatureCacheError) -> Page {
        // A streamed query: not before its consumer has room for the page.
        try await PageSink.current?.waitForRoom()
        guard let journal, let kept = Page.self as? any JournaledPage.Type else { return try await fetched(key, fetch: fetch) }
        if let page = journal.replayed(key, as: kept) as? Page { return page }
        let page = try await fetched(key, fetch: fetch)
        if let page = page as? any JournaledPage { journal.record(key, page) }
        return page
    }

    private func fetched(_ key: Key, fetch: @escaping Fetch) async throws(FeatureCacheError) -> Page {
        let (task, concurrent) = state.withLock { state -> (Task<Outcome, Never>, Bool) in
            state.waiting.removeAll { $0.key == key }
            // Sent ahead means it ran beside the page before it.
            if let task = state.started.removeValue(forKey: key) { return (task, true) }
            return (start(fetch), !state.started.isEmpty)
        }
        // The page being waited for holds one place in the window.
        fill(reserving: 1)
        let outcome = await wait(for: task)
        if case let .failure(error) = outcome, concurrent, !window.isSerialized, Self.isServerTrouble(error) {
            window.serialize()
            let others = takeStarted()
            for task in others { task.cancel() }
            for task in others { _ = await task.value }
            return try await wait(for: start(fetch)).get()
        }
        return try outcome.get()
    }

    private func wait(for task: Task<Outcome, Never>) async -> Outcome {
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// A failure the server's load may explain, as opposed to an answer that
    /// would be the same alone (4xx, a parse error, a limit).
    private static func isServerTrouble(_ error: FeatureCacheError) -> Bool {
        switch error.code {
        case .network, .timeout: return true
        case .http: return error.httpStatus >= 500
        case .service: return error.serviceCode >= 500 || error.httpStatus >= 500
        default: return false
        }
    }

    /// Cancels the pages still running or waiting; nothing starts afterwards.
    package func finish() {
        state.withLock { state in
            state.finished = true
            state.waiting.removeAll()
        }
        for task in takeStarted() { task.cancel() }
    }

    /// The started pages, no longer the prefetcher's.
    private func takeStarted() -> [Task<Outcome, Never>] {
        state.withLock { state in
            defer { state.started.removeAll() }
            return Array(state.started.values)
        }
    }

    /// Starts waiting pages while the window has room.
    private func fill(reserving reserved: Int) {
        let size = window.size
        state.withLock { state in
            while !state.finished, !state.waiting.isEmpty, state.started.count + reserved < size {
                let next = state.waiting.removeFirst()
                state.started[next.key] = start(next.fetch)
            }
        }
    }

    private func start(_ fetch: @escaping Fetch) -> Task<Outcome, Never> {
        let window = self.window
        return Task {
            let clock = ContinuousClock()
            let sent = clock.now
            let outcome = await PushBack.$listener.withValue(window) { () async -> Outcome in
                do throws(FeatureCacheError) {
                    return .success(try await fetch())
                } catch {
                    return .failure(error)
                }
            }
            if case .success = outcome { window.answered(after: clock.now - sent) }
            return outcome
        }
    }
}
