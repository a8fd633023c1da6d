// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// How many page requests one operation keeps in flight: starts at two,
/// grows by one per page answered in its usual time, shrinks by one when a
/// page takes more than twice the recent average (the server slowed down),
/// and halves when the server pushes back (429, 503 and other retried
/// answers). Never above the context's per-host connection cap, never below
/// one; after a page failed beside others, one for the rest of the operation.
///
/// The average follows latency that grows slowly (pages deeper in an offset
/// scan cost a database more; another request in flight adds a little
/// queueing), so only a sudden slowdown shrinks the window. The connection
/// cap is the bound on what a server is asked to take at once.
package final class PagingWindow: PushBackListener {
    private struct State {
        var size: Int
        /// Exponentially weighted moving average of page latency, in seconds.
        var average: Double?
        /// A page failed beside others: one at a time from then on.
        var serialized = false
    }

    package let limit: Int
    private let state: Locked<State>

    package init(limit: Int) {
        self.limit = max(1, limit)
        state = Locked(State(size: min(2, max(1, limit))))
    }

    package var size: Int { state.withLock { $0.size } }

    /// Whether pages go one at a time for the rest of the operation.
    package var isSerialized: Bool { state.withLock { $0.serialized } }

    /// A page arrived `latency` after it was sent.
    package func answered(after latency: Duration) {
        let seconds = Double(latency.components.seconds) + Double(latency.components.attoseconds) * 1e-18
        state.withLock { state in
            let average = state.average ?? seconds
            state.average = average * 0.7 + seconds * 0.3
            if state.serialized {
                state.size = 1
            } else if seconds > average * 2 {
                state.size = max(1, state.size - 1)
            } else {
                state.size = min(limit, state.size + 1)
            }
        }
    }

    /// The server answered 429/503 (or a connection failed) and the request is retried.
    package func pushedBack() {
        state.withLock { $0.size = max(1, $0.size / 2) }
    }

    /// A page failed while others were in flight: some servers fail under
    /// concurrent requests (pygeoapi's GeoPackage provider answers 500 when two
    /// workers open the file at once), so the rest go one at a time.
    package func serialize() {
        state.withLock { state in
            state.serialized = true
            state.size = 1
        }
    }
}
