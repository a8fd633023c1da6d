// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// ArcGIS REST feature-service tables: creation, and typed calls for the
/// options the ArcGIS adapter declares (`ArcGISLayerSource.options`).
extension FeatureTable {
    /// A table on an ArcGIS REST feature-service layer or table, e.g.
    /// `https://host/arcgis/rest/services/Trees/FeatureServer/0`.
    public static func arcgis(url: String, context: ClientContext = .shared) throws(FeatureCacheError) -> FeatureTable {
        let parsed = try RequestURL(parsing: url)
        let statistics = StatisticsCounter()
        return FeatureTable(
            source: ArcGISLayerSource(layerURL: parsed, context: context, statistics: statistics),
            context: context, statistics: statistics)
    }

    /// A table on layer or table `layerId` of `service` (a strong dependency:
    /// loading the table loads the service, and an id it does not list fails the
    /// load naming the ones it has).
    public static func arcgis(service: ArcGISService, layerId: Int) throws(FeatureCacheError) -> FeatureTable {
        guard layerId >= 0 else { throw FeatureCacheError.invalidArgument("a layer id must be >= 0 (got \(layerId))") }
        let statistics = StatisticsCounter()
        let source = ArcGISLayerSource(
            layerURL: service.layerURL(layerId), context: service.context,
            statistics: statistics, service: service, layerId: layerId)
        return FeatureTable(source: source, context: service.context, statistics: statistics)
    }

    /// The format queries ask for (option `query_format`). Any time; applies to
    /// requests sent after. Forcing `.pbf` on a layer that does not list it fails those requests.
    public func setQueryFormat(_ format: ArcGISQueryFormat) throws(FeatureCacheError) {
        try setOption(ArcGISLayerSource.Option.queryFormat.rawValue, format.optionValue)
    }

    /// The format as set (`.auto` unless changed).
    public func queryFormat() throws(FeatureCacheError) -> ArcGISQueryFormat {
        ArcGISQueryFormat(optionValue: try option(ArcGISLayerSource.Option.queryFormat.rawValue))
    }

    /// The format requests use (option `query_format_in_use`): `.json` or `.pbf`,
    /// the setting resolved against the layer's `supportedQueryFormats`. Needs the table loaded.
    public func queryFormatInUse() throws(FeatureCacheError) -> ArcGISQueryFormat {
        ArcGISQueryFormat(optionValue: try option(ArcGISLayerSource.Option.queryFormatInUse.rawValue))
    }
}
