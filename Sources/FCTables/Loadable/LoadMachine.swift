// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import Dispatch

/// The one load state machine behind every loadable (tables, layers, maps).
///
/// `NotLoaded → Loading → Loaded | FailedToLoad`, with the error of a failed load
/// kept. Concurrent `load` calls coalesce into one attempt; `load` on a settled
/// machine answers with the past result and starts nothing; `retryLoad` starts a
/// new attempt only from `NotLoaded`/`FailedToLoad`; `cancelLoad` acts only while
/// loading, fails every waiting callback with `.cancelled` and cancels the attempt's
/// task (which aborts its HTTP requests).
///
/// Callbacks and status observers never run under the machine's lock: each
/// transition and each completion becomes an event on a serial queue, enqueued
/// while the lock is held (so events keep the order of transitions) and run after
/// it is released (so a callback may call back into the library).
public final class LoadMachine: Sendable {
    public typealias Completion = @Sendable (FeatureCacheError?) -> Void
    public typealias StatusObserver = @Sendable (LoadStatus) -> Void

    private struct State {
        var status: LoadStatus = .notLoaded
        var error: FeatureCacheError?
        /// Bumped for every attempt and every cancel: a finishing attempt whose number
        /// is not current lost a race with cancel and is ignored.
        var attempt: UInt64 = 0
        var task: Task<Void, Never>?
        var waiting: [Completion] = []
        var observers: [(token: UInt64, observer: StatusObserver)] = []
        var nextToken: UInt64 = 1
    }

    private let state = Locked(State())
    private let events: DispatchQueue
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    public init(label: String = "loadable") {
        events = DispatchQueue(label: "featurecache.load-events.\(label)", target: .global())
        events.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    public var status: LoadStatus { state.withLock { $0.status } }
    public var error: FeatureCacheError? { state.withLock { $0.status == .failedToLoad ? $0.error : nil } }

    // MARK: - Load, retry, cancel

    /// Starts or joins a load. `perform` is called once per attempt, off any lock.
    public func load(
        retrying: Bool, completion: Completion?,
        perform: @escaping @Sendable (_ retrying: Bool) async throws(FeatureCacheError) -> Void
    ) {
        state.withLock { state in
            switch state.status {
            case .loaded:
                enqueueCompletion(completion, nil)
            case .failedToLoad where !retrying:
                enqueueCompletion(completion, state.error)
            case .loading:
                if let completion { state.waiting.append(completion) }
            case .notLoaded, .failedToLoad:
                state.attempt &+= 1
                state.status = .loading
                state.error = nil
                if let completion { state.waiting.append(completion) }
                enqueueStatus(.loading)
                let attempt = state.attempt
                state.task = Task.detached { [self] in
                    var failure: FeatureCacheError? = nil
                    do { try await perform(retrying) } catch { failure = FeatureCacheError(wrapping: error) }
                    finish(attempt: attempt, error: failure)
                }
            }
        }
    }

    /// Cancels a load in progress; does nothing in any other state.
    public func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            guard state.status == .loading else { return nil }
            state.attempt &+= 1
            settle(&state, error: .cancelled)
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()  // outside the lock: cancellation handlers run synchronously
    }

    private func finish(attempt: UInt64, error: FeatureCacheError?) {
        state.withLock { state in
            guard state.attempt == attempt, state.status == .loading else { return }
            state.task = nil
            settle(&state, error: error)
        }
    }

    /// LOADING → LOADED or FAILED_TO_LOAD; queues the transition and every waiting callback.
    private func settle(_ state: inout State, error: FeatureCacheError?) {
        state.status = error == nil ? .loaded : .failedToLoad
        state.error = error
        enqueueStatus(state.status)
        for completion in state.waiting { enqueueCompletion(completion, error) }
        state.waiting.removeAll()
    }

    // MARK: - Observers

    public func addStatusObserver(_ observer: @escaping StatusObserver) -> UInt64 {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.observers.append((token, observer))
            return token
        }
    }

    /// Returns false when no observer has that token. Once this returns, the observer
    /// is not called again, except when it is running right now on another thread;
    /// `flushEvents()` waits for that.
    @discardableResult
    public func removeStatusObserver(_ token: UInt64) -> Bool {
        state.withLock { state in
            guard let index = state.observers.firstIndex(where: { $0.token == token }) else { return false }
            state.observers.remove(at: index)
            return true
        }
    }

    // MARK: - Waiting

    /// Blocks the calling thread until the machine is not loading and every event
    /// queued before has been delivered. Returns false on timeout (negative = none).
    /// Never call from a library callback (see `CallbackScope`).
    public func waitUntilSettled(timeout: Double) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        state.withLock { state in
            // A waiter is an event like the others, so it runs after the callbacks
            // queued before it; while loading it waits for the attempt to settle.
            let wake: Completion = { _ in semaphore.signal() }
            if state.status == .loading {
                state.waiting.append(wake)
            } else {
                events.async { semaphore.signal() }
            }
        }
        if timeout < 0 {
            semaphore.wait()
            return true
        }
        return semaphore.wait(timeout: .now() + .nanoseconds(Int(min(timeout, 1e9) * 1e9))) == .success
    }

    /// Waits until every event queued so far has run, unless called from this
    /// machine's own event queue (where it would wait for itself).
    public func flushEvents() {
        guard DispatchQueue.getSpecific(key: Self.queueKey) != ObjectIdentifier(self) else { return }
        events.sync {}
    }

    // MARK: - Events (always enqueued under the lock, run outside it)

    private func enqueueStatus(_ status: LoadStatus) {
        events.async { [self] in
            let observers = state.withLock { $0.observers.map(\.observer) }
            for observer in observers { CallbackScope.run { observer(status) } }
        }
    }

    private func enqueueCompletion(_ completion: Completion?, _ error: FeatureCacheError?) {
        guard let completion else { return }
        events.async { CallbackScope.run { completion(error) } }
    }
}
