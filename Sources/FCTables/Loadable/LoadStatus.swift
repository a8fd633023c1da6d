// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// Where a loadable is in its life. The raw values are the C ABI's
/// `FC_LOAD_STATUS_*` values and never change.
public enum LoadStatus: Int32, Sendable, CustomStringConvertible {
    case notLoaded = 0
    case loading = 1
    case failedToLoad = 2
    case loaded = 3

    public var description: String {
        switch self {
        case .notLoaded: return "NOT_LOADED"
        case .loading: return "LOADING"
        case .failedToLoad: return "FAILED_TO_LOAD"
        case .loaded: return "LOADED"
        }
    }
}
