// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// OGC API - Features collection tables: creation, and typed calls for the
/// option the OGC API adapter declares (`query_language`).
extension FeatureTable {
    /// A table on one collection of an OGC API - Features service, e.g.
    /// `https://host/ogcapi` and `buildings`. It makes its own service object,
    /// loaded with the table.
    public static func ogc(apiURL: String, collectionId: String, context: ClientContext = .shared) throws(FeatureCacheError) -> FeatureTable
    {
        try ogc(service: OGCService(url: apiURL, context: context), collectionId: collectionId)
    }

    /// A table on a collection of `service` (a strong dependency: loading the
    /// table loads the service).
    public static func ogc(service: OGCService, collectionId: String) throws(FeatureCacheError) -> FeatureTable {
        guard !collectionId.isEmpty, !collectionId.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw FeatureCacheError.invalidArgument("a collection id must be a non-empty string without control characters")
        }
        let statistics = StatisticsCounter()
        return FeatureTable(
            source: OGCCollectionSource(service: service, collectionId: collectionId, statistics: statistics),
            context: service.context, statistics: statistics)
    }

    /// How where clauses reach the server (option `query_language`; tables of
    /// other kinds send them as they are: `.auto`).
    public var queryLanguage: QueryLanguage {
        guard options.contains(where: { $0.name == OGCCollectionSource.Option.queryLanguage.rawValue }),
            let value = try? option(OGCCollectionSource.Option.queryLanguage.rawValue)
        else { return .auto }
        return QueryLanguage(optionValue: value)
    }

    /// Chooses how where clauses reach the server; `.auto` is accepted by every
    /// table, any other language by OGC API tables only (`.unsupported`).
    public func setQueryLanguage(_ language: QueryLanguage) throws(FeatureCacheError) {
        guard options.contains(where: { $0.name == OGCCollectionSource.Option.queryLanguage.rawValue }) || language != .auto else { return }
        do {
            try setOption(OGCCollectionSource.Option.queryLanguage.rawValue, language.optionValue)
        } catch  where error.code == .unsupported {
            throw FeatureCacheError(
                .unsupported, "the query language can only be chosen for OGC API tables (where clauses go to this service as they are)")
        }
    }
}
