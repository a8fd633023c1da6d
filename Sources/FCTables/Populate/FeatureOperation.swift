// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import Dispatch

/// A running asynchronous operation (a populate): cancel it, or wait for it.
/// Its completion runs exactly once, on a library thread, outside every lock,
/// before `wait` returns.
public final class FeatureOperation: Sendable {
    private let task = Locked<Task<Void, Never>?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    private let done = Locked(false)

    package init<T: Sendable>(
        _ work: @escaping @Sendable () async throws(FeatureCacheError) -> T,
        completion: @escaping @Sendable (Result<T, FeatureCacheError>) -> Void
    ) {
        let started = Task.detached { [finished, done] in
            let outcome: Result<T, FeatureCacheError>
            do throws(FeatureCacheError) {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
            CallbackScope.run { completion(outcome) }
            done.withLock { $0 = true }
            finished.signal()
        }
        task.withLock { $0 = started }
    }

    /// Asks the operation to stop: the HTTP transfer in flight is aborted and the
    /// completion receives `.cancelled` (unless it had already finished).
    public func cancel() {
        task.withLock { $0 }?.cancel()
    }

    public var isFinished: Bool { done.withLock { $0 } }

    /// Blocks until the completion has run; false on timeout (negative = no timeout).
    public func wait(timeout: Double = -1) throws(FeatureCacheError) -> Bool {
        try CallbackScope.checkMayBlock("waiting for an operation")
        if isFinished { return true }
        let signalled: Bool
        if timeout < 0 {
            finished.wait()
            signalled = true
        } else {
            signalled = finished.wait(timeout: .now() + .nanoseconds(Int(min(timeout, 1e9) * 1e9))) == .success
        }
        if signalled { finished.signal() }  // let every other waiter through too
        return signalled
    }
}
