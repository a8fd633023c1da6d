// SPDX-License-Identifier: Apache-2.0
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
/// `finish` cancels whatever is still running: call it when the pager ends,
/// by success or failure.
final class PagePrefetcher<Key: Hashable & Sendable, Page: Sendable>: Sendable {
    typealias Fetch = @Sendable () async throws(FeatureCacheError) -> Page
    typealias Outcome = Result<Page, FeatureCacheError>

    private struct State {
        /// Started pages the pager has not taken yet.
        var started: [Key: Task<Outcome, Never>] = [:]
        /// Expected pages not started yet, in the order they will be asked for.
        var waiting: [(key: Key, fetch: Fetch)] = []
        var finished = false
        var sentAhead = 0
    }

    let window: PagingWindow
    private let state = Locked(State())

    init(window: PagingWindow) {
        self.window = window
    }

    /// Pages sent before the pager asked for them.
    var sentAhead: Int { state.withLock { $0.sentAhead } }

    /// The pages the pager will ask for next, in order (replacing what it expected before).
    func expect(_ upcoming: [(key: Key, fetch: Fetch)]) {
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
    func page(_ key: Key, fetch: @escaping Fetch) async throws(FeatureCacheError) -> Page {
        let task = state.withLock { state -> Task<Outcome, Never> in
            state.waiting.removeAll { $0.key == key }
            if let task = state.started.removeValue(forKey: key) { return task }
            return start(fetch)
        }
        // The page being waited for holds one place in the window.
        fill(reserving: 1)
        let outcome = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        return try outcome.get()
    }

    /// Cancels the pages still running or waiting; nothing starts afterwards.
    func finish() {
        let running = state.withLock { state -> [Task<Outcome, Never>] in
            state.finished = true
            state.waiting.removeAll()
            defer { state.started.removeAll() }
            return Array(state.started.values)
        }
        for task in running { task.cancel() }
    }

    /// Starts waiting pages while the window has room.
    private func fill(reserving reserved: Int) {
        let size = window.size
        state.withLock { state in
            while !state.finished, !state.waiting.isEmpty, state.started.count + reserved < size {
                let next = state.waiting.removeFirst()
                state.started[next.key] = start(next.fetch)
                state.sentAhead += 1
            }
        }
    }

    private func start(_ fetch: @escaping Fetch) -> Task<Outcome, Never> {
        let window = self.window
        return Task {
            let clock = ContinuousClock()
            let sent = clock.now
            let outcome = await PagingWindow.$current.withValue(window) { () async -> Outcome in
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
