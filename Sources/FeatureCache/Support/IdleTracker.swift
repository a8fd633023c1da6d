import Dispatch

/// Counts work in progress and lets threads wait until there is none.
final class IdleTracker: Sendable {
    private struct State {
        var busy = 0
        var waiters: [DispatchSemaphore] = []
    }
    private let state = Locked(State())

    func begin() { state.withLock { $0.busy += 1 } }

    func end() {
        let waiters = state.withLock { state -> [DispatchSemaphore] in
            state.busy -= 1
            guard state.busy == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.signal() }
    }

    var isIdle: Bool { state.withLock { $0.busy == 0 } }

    /// Blocks until idle; false when `deadline` passes first.
    func wait(until deadline: DispatchTime) -> Bool {
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
