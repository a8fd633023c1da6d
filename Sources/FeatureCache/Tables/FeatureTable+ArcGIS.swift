// SPDX-License-Identifier: Apache-2.0
/// What only ArcGIS feature-service tables have: the format of their queries.
extension FeatureTable {
    private func arcgisSource(_ what: String) throws(FeatureCacheError) -> ArcGISLayerSource {
        guard let source = source.arcgisLayer else {
            throw FeatureCacheError(.unsupported, "\(what) applies to ArcGIS tables only")
        }
        return source
    }

    /// The format queries ask for. Any time; applies to requests sent after.
    /// Forcing `.pbf` on a layer that does not list it fails those requests.
    public func setQueryFormat(_ format: ArcGISQueryFormat) throws(FeatureCacheError) {
        try arcgisSource("the query format").queryFormat.withLock { $0 = format }
    }

    /// The format as set (`.auto` unless changed).
    public func queryFormat() throws(FeatureCacheError) -> ArcGISQueryFormat {
        try arcgisSource("the query format").queryFormat.withLock { $0 }
    }

    /// The format requests use: `.json` or `.pbf`, the setting resolved against
    /// the layer's `supportedQueryFormats`. Needs the table loaded.
    public func queryFormatInUse() throws(FeatureCacheError) -> ArcGISQueryFormat {
        try arcgisSource("the query format").format(try metadata())
    }
}
