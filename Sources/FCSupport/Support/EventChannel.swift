// SPDX-License-Identifier: Apache-2.0
import Dispatch

/// Observers of one kind of event, called in order on a serial queue, never
/// under a library lock. After `remove` returns the observer is not called
/// again, except if it is running now on another thread: `flush` waits for that.
package final class EventChannel<Value: Sendable>: Sendable {
    package typealias Observer = @Sendable (Value) -> Void
    private struct State {
        var observers: [(token: UInt64, observer: Observer)] = []
        var nextToken: UInt64 = 1
    }
    private let state = Locked(State())
    private let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    package init(label: String) {
        queue = DispatchQueue(label: "featurecache.events.\(label)", target: .global())
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    package func add(_ observer: @escaping Observer) -> UInt64 {
        state.withLock { state in
            defer { state.nextToken += 1 }
            state.observers.append((state.nextToken, observer))
            return state.nextToken
        }
    }

    @discardableResult
    package func remove(_ token: UInt64) -> Bool {
        state.withLock { state in
            guard let index = state.observers.firstIndex(where: { $0.token == token }) else { return false }
            state.observers.remove(at: index)
            return true
        }
    }

    /// Whether any observer is registered (a sender may skip preparing a value).
    package var hasObservers: Bool { state.withLock { !$0.observers.isEmpty } }

    package func send(_ value: Value) {
        queue.async { [self] in
            let observers = state.withLock { $0.observers }
            for (token, observer) in observers {
                // Removed since the list was taken: not called any more.
                guard state.withLock({ $0.observers.contains { $0.token == token } }) else { continue }
                CallbackScope.run { observer(value) }
            }
        }
    }

    /// Waits until every event sent so far has been delivered (not from the
    /// channel's own queue, where it would wait for itself).
    package func flush() {
        guard DispatchQueue.getSpecific(key: queueKey) != ObjectIdentifier(self) else { return }
        queue.sync {}
    }
}
