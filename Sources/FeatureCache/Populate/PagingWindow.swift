// SPDX-License-Identifier: Apache-2.0
/// How many page requests one operation keeps in flight: starts at two, grows
/// by one per page the server answers about as fast as its fastest page, and
/// shrinks when it slows down (its workers are busy: more requests would only
/// queue there) or pushes back (429, 503 and other retried answers halve it).
/// Never above the context's per-host connection cap, never below one.
///
/// Latency, not throughput, is the signal (as in TCP Vegas): a server with two
/// workers answers a third concurrent request no sooner, only later, so the
/// window settles where requests stop waiting in the server's queue.
final class PagingWindow: Sendable {
    private struct State {
        var size: Int
        var fastest: Duration?
    }

    let limit: Int
    private let state: Locked<State>

    /// The window of the page request running in this task, told by the
    /// transport's retry loop when the server pushes back.
    @TaskLocal static var current: PagingWindow?

    init(limit: Int) {
        self.limit = max(1, limit)
        state = Locked(State(size: min(2, max(1, limit))))
    }

    var size: Int { state.withLock { $0.size } }

    /// A page arrived `latency` after it was sent.
    func answered(after latency: Duration) {
        state.withLock { state in
            let fastest = min(state.fastest ?? latency, latency)
            state.fastest = fastest
            if latency > fastest * 3 {
                state.size = max(1, state.size - 1)
            } else if latency <= fastest * 2 {
                state.size = min(limit, state.size + 1)
            }
        }
    }

    /// The server answered 429/503 (or a connection failed) and the request is retried.
    func pushedBack() {
        state.withLock { $0.size = max(1, $0.size / 2) }
    }
}
