// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// The one path to what only some kinds of service have: the options their
/// adapter declares (GDAL's open options) and requests in the service's own
/// language.
extension FeatureTable {
    /// The options this table's kind of service declares.
    public var options: [SourceOptionInfo] { source.options.map(\.info) }

    private func declared(_ name: String) throws(FeatureCacheError) -> SourceOption {
        let wanted = name.lowercased()
        guard let option = source.options.first(where: { $0.name == wanted }) else {
            let names = source.options.map(\.name)
            throw FeatureCacheError(
                .unsupported,
                "\(source.kindName) tables have no option '\(name)'"
                    + (names.isEmpty ? " (they declare none)" : " (they declare: \(names.joined(separator: ", ")))"))
        }
        return option
    }

    /// The option's current value (names ignore case). `.unsupported` for an
    /// option this kind of table does not declare; `.invalidState` for one that
    /// needs the table loaded, before it is.
    public func option(_ name: String) throws(FeatureCacheError) -> String {
        try declared(name).read(loadedMetadata)
    }

    /// Sets an option (names ignore case): any time, for requests sent after.
    /// `.unsupported` for an option this kind of table does not declare or one
    /// that only reports; `.invalidArgument` for a value it does not take.
    public func setOption(_ name: String, _ value: String) throws(FeatureCacheError) {
        let option = try declared(name)
        guard let write = option.write else {
            throw FeatureCacheError(.unsupported, "\(option.name) only reports; it cannot be set")
        }
        try write(value)
    }

    /// Sends `request`, a complete request in the service's own language (a WFS
    /// `GetFeature` document), as it is, and puts the features of its one answer
    /// into the cache (the ArcGIS SDK's `populateFromService(usingXMLRequest:)`).
    /// The request's own order is kept. `.unsupported` for kinds of service
    /// without one. On failure the cache is exactly as it was.
    public func populate(
        nativeRequest request: String, clearCache: Bool,
        progress: PopulateProgress? = nil
    ) async throws(FeatureCacheError) -> FeatureResult {
        try await load()
        let metadata = try metadata()
        var fetched = try await source.fetch(nativeRequest: request, metadata: metadata)
        fetched.ordered = true
        progress?(FetchProgress(pages: 1, features: fetched.featureCount))
        return try cachePopulated(&fetched, clearCache: clearCache, metadata: metadata)
    }
}
