// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// How a table gets its features. Raw values are the C ABI's `FC_REQUEST_MODE_*`.
public enum FeatureRequestMode: Int32, Sendable, CaseIterable {
    /// Fetch what the visible extent needs, keep it, answer later queries from the cache.
    case onInteractionCache = 1
    /// Always ask the server; keep only the latest view.
    case onInteractionNoCache = 2
    /// Only an explicit populate fetches; queries read the cache.
    case manualCache = 3
}
