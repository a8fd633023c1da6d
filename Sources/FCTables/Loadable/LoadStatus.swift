// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

extension LoadStatus: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notLoaded: return "NOT_LOADED"
        case .loading: return "LOADING"
        case .failedToLoad: return "FAILED_TO_LOAD"
        case .loaded: return "LOADED"
        }
    }
}
