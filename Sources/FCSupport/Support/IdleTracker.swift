// SPDX-License-Identifier: Apache-2.0
import Dispatch

/// Counts work in progress and lets threads wait until there is none.
package final class IdleTracker: Sendable {
    private struct State {
        var busy = 0
        var waiters: [DispatchSemaphore] = []
        var continuations: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())

    package init() {}

    package func begin() { state.withLock { $0.busy += 1 } }

    package func end() {
        let (waiters, continuations) = state.withLock { state -> ([DispatchSemaphore], [CheckedContinuation<Void, Never>]) in
            state.busy -= 1
            guard state.busy == 0 else { return ([], []) }
            defer {
                state.waiters.removeAll()
                state.continuations.removeAll()
            }
            return (state.waiters, state.continuations)
        }
        for waiter in waiters { waiter.signal() }
        for continuation in continuations { continuation.resume() }
    }

    package var isIdle: Bool { state.withLock { $0.busy == 0 } }

    /// Suspends until idle (for async callers, who must not block a thread).
    package func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.busy == 0 { return true }
                state.continuations.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Blocks until idle; false when `deadline` passes first.
    package func wait(until deadline: DispatchTime) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let idle = state.withLock { state -> Bool in
            if state.busy == 0 { return true }
            state.waiters.append(semaphore)
            return false
        }
        if idle { return true }
        if semaphore.wait(timeout: deadline) == .success { return true }
        // Timed out: withdraw, unless a signal raced in.
        let removed = state.withLock { state -> Bool in
            guard let index = state.waiters.firstIndex(where: { $0 === semaphore }) else { return false }
            state.waiters.remove(at: index)
            return true
        }
        return !removed
    }
}
