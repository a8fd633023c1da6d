// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// One way of sending a filter to an OGC API server.
enum OGCFilterDialect: Sendable, Equatable {
    case cql2Text
    /// The pre-standard CQL/ECQL text pygeoapi 0.21 takes (`filter-lang=cql-text`).
    case cqlText
    case cql2JSON
    /// CQL2-JSON as the POST body (`Content-Type: application/query-cql-json`).
    case cql2JSONPost

    /// The dialects to try, in order, for a language setting.
    static func candidates(
        _ language: QueryLanguage, declaresFilter: Bool, declaresQueryables: Bool,
        declared: (String) -> Bool
    ) -> [OGCFilterDialect] {
        switch language {
        case .local: return []
        case .cql2Text: return [.cql2Text]
        case .cql2JSON: return [.cql2JSON, .cql2JSONPost]
        case .auto:
            // Part 3 filtering declared, or queryables (servers that filter without
            // declaring it, as pygeoapi 0.21): probe; otherwise never send a filter.
            guard declaresFilter || declaresQueryables else { return [] }
            if declared("/conf/cql2-json"), !declared("/conf/cql2-text") { return [.cql2JSON, .cql2JSONPost] }
            return [.cql2Text, .cqlText, .cql2JSON, .cql2JSONPost]
        }
    }

    var isJSON: Bool { self == .cql2JSON || self == .cql2JSONPost }

    var filterLang: String? {
        switch self {
        case .cql2Text: "cql2-text"
        case .cqlText: "cql-text"
        case .cql2JSON: "cql2-json"
        case .cql2JSONPost: nil
        }
    }
}
