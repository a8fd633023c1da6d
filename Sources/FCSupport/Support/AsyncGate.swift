// SPDX-License-Identifier: Apache-2.0
/// An asynchronous counting semaphore: at most `limit` holders at a time, the
/// rest waiting in arrival order. A waiting task that is cancelled leaves the
/// queue at once with `.cancelled`.
package final class AsyncGate: Sendable {
    private struct State {
        var limit: Int
        var holders = 0
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        /// Acquisitions that got a slot.
        var granted: Set<UInt64> = []
        /// Acquisitions cancelled before they started waiting.
        var cancelled: Set<UInt64> = []
        var nextId: UInt64 = 0
    }
    private let state: Locked<State>

    package init(limit: Int) { state = Locked(State(limit: max(1, limit))) }

    package func acquire() async throws(FeatureCacheError) {
        let id = state.withLock { state -> UInt64 in
            state.nextId += 1
            return state.nextId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.cancelled.contains(id) { return true }
                    if state.holders < state.limit {
                        state.holders += 1
                        state.granted.insert(id)
                        return true
                    }
                    state.waiting.append((id, continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.waiting.remove(at: index).continuation
            }
            waiter?.resume()
        }
        let granted = state.withLock { state -> Bool in
            state.cancelled.remove(id)
            return state.granted.remove(id) != nil
        }
        guard granted else { throw FeatureCacheError.cancelled }
        if Task.isCancelled {
            release()
            throw FeatureCacheError.cancelled
        }
    }

    package func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.holders -= 1
                return nil
            }
            let next = state.waiting.removeFirst()  // the slot passes on
            state.granted.insert(next.id)
            return next.continuation
        }
        next?.resume()
    }
}
