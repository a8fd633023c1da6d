// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// A resource whose metadata must be loaded before use: tables, layers, maps.
/// Conformers own a `LoadMachine` and say how one attempt loads.
public protocol Loadable: AnyObject, Sendable {
    var loadMachine: LoadMachine { get }

    /// One load attempt: fetch metadata, load strong dependencies. `retrying` is true
    /// for `retryLoad`, which also retries failed dependencies. Must honour task
    /// cancellation.
    func performLoad(retrying: Bool) async throws(FeatureCacheError)
}

extension Loadable {
    public var loadStatus: LoadStatus { loadMachine.status }

    /// The error of the last attempt, nil unless `.failedToLoad`.
    public var loadError: FeatureCacheError? { loadMachine.error }

    /// Loads if not loaded; joins a load in progress; answers at once, sending
    /// nothing, when already loaded or failed.
    public func load(completion: LoadMachine.Completion?) {
        startLoad(retrying: false, completion: completion)
    }

    /// Starts a new attempt from not loaded or failed (retrying failed strong
    /// dependencies); joins one in progress; reports the past result when loaded.
    public func retryLoad(completion: LoadMachine.Completion?) {
        startLoad(retrying: true, completion: completion)
    }

    private func startLoad(retrying: Bool, completion: LoadMachine.Completion?) {
        loadMachine.load(retrying: retrying, completion: completion) { [self] retrying throws(FeatureCacheError) in
            try await performLoad(retrying: retrying)
        }
    }

    public func cancelLoad() { loadMachine.cancel() }

    /// `load()` for async callers.
    public func load() async throws(FeatureCacheError) {
        try await awaitCompletion { load(completion: $0) }
    }

    /// `retryLoad()` for async callers.
    public func retryLoad() async throws(FeatureCacheError) {
        try await awaitCompletion { retryLoad(completion: $0) }
    }

    /// Loads (if not loaded) and blocks until settled. Throws the load error,
    /// `.timeout` (the load goes on), or `.invalidState` inside a library callback.
    public func loadAndWait(timeout: Double = -1) throws(FeatureCacheError) {
        try CallbackScope.checkMayBlock("waiting for a load")
        if loadStatus == .notLoaded { load(completion: nil) }
        guard loadMachine.waitUntilSettled(timeout: timeout) else {
            throw FeatureCacheError(.timeout, "the load did not finish within \(timeout) s")
        }
        if let error = loadError { throw error }
        if loadStatus != .loaded { throw FeatureCacheError.invalidState("not loaded (\(loadStatus))") }
    }

    public func addStatusObserver(_ observer: @escaping LoadMachine.StatusObserver) -> UInt64 {
        loadMachine.addStatusObserver(observer)
    }

    @discardableResult
    public func removeStatusObserver(_ token: UInt64) -> Bool {
        loadMachine.removeStatusObserver(token)
    }

    /// Throws `.invalidState` unless loaded: the guard of every metadata getter.
    public func requireLoaded(_ what: String) throws(FeatureCacheError) {
        let status = loadStatus
        guard status == .loaded else {
            throw FeatureCacheError.invalidState("\(what) is available once loaded (status is \(status))")
        }
    }
}

private func awaitCompletion(_ start: (@escaping LoadMachine.Completion) -> Void) async throws(FeatureCacheError) {
    let error: FeatureCacheError? = await withCheckedContinuation { continuation in
        start { continuation.resume(returning: $0) }
    }
    if let error { throw error }
}
