// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// What a loadable learned by loading (a service's description, a WFS's
/// capabilities), readable once the loadable is loaded: one guard for every
/// getter instead of one per service.
package final class LoadedValue<Value: Sendable>: Sendable {
    private let value = Locked<Value?>(nil)

    package init() {}

    /// Keeps what a load read (the load then finishes and the owner is loaded).
    package func set(_ loaded: Value) { value.withLock { $0 = loaded } }

    /// The value; `.invalidState` naming `what` until `owner` is loaded.
    package func get(of owner: some Loadable, _ what: String) throws(FeatureCacheError) -> Value {
        try owner.requireLoaded(what)
        guard let loaded = value.withLock({ $0 }) else { throw FeatureCacheError.invalidState("the \(what) is not loaded") }
        return loaded
    }
}

extension Loadable {
    /// Loads, or retries a failed load when `retrying` (a table loading the
    /// service it depends on, as the table itself was asked).
    package func load(retrying: Bool) async throws(FeatureCacheError) {
        if retrying { try await retryLoad() } else { try await load() }
    }
}
