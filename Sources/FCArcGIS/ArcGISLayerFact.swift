// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// What only an ArcGIS layer says of itself, kept in the neutral metadata's
/// `sourceFacts` under the name of the report-only table option that shows it
/// (`fc_table_get_option(table, "supports_pagination", …)`); this file alone
/// gives them their types.
enum ArcGISLayerFact: String, CaseIterable {
    case capabilities
    case supportedQueryFormats = "supported_query_formats"
    case supportsPagination = "supports_pagination"
    case currentVersion = "current_version"
    case layerType = "layer_type"
    case serverGen = "server_gen"
    case minServerGen = "min_server_gen"

    var summary: String {
        switch self {
        case .capabilities: "The layer's capabilities as it lists them, comma-separated (e.g. Query,Create,Update)."
        case .supportedQueryFormats: "The query formats the layer lists, comma-separated (e.g. JSON,geoJSON,PBF)."
        case .supportsPagination:
            "true when the layer pages with resultOffset and resultRecordCount "
                + "(advancedQueryCapabilities.supportsPagination), false when it is read in object-id batches."
        case .currentVersion: "The server's REST API version (currentVersion, e.g. 10.91); empty when not given."
        case .layerType: "The layer's type: Feature Layer or Table."
        case .serverGen:
            "The layer's change-tracking generation when it loaded (serverGens.serverGen; "
                + "with ChangeTracking in capabilities, synchronize asks extractChanges since the cache's); empty when not given."
        case .minServerGen: "The oldest generation the layer can give changes since (serverGens.minServerGen); empty when not given."
        }
    }

    /// The report-only option that shows it.
    var option: SourceOption { .fact(rawValue, summary) }
}

extension TableMetadata {
    /// The layer's capabilities ("Query", "Create", …), as listed.
    var arcgisCapabilities: [String] { ArcGISLayerInfo.list(sourceFacts[ArcGISLayerFact.capabilities.rawValue]) }
    /// The query formats the layer lists ("JSON", "geoJSON", "PBF").
    var arcgisQueryFormats: [String] { ArcGISLayerInfo.list(sourceFacts[ArcGISLayerFact.supportedQueryFormats.rawValue]) }
    /// Whether queries page with resultOffset/resultRecordCount.
    var arcgisSupportsPagination: Bool { sourceFacts[ArcGISLayerFact.supportsPagination.rawValue] == "true" }
    /// `currentVersion`; 0 when not given.
    var arcgisCurrentVersion: Double { sourceFacts[ArcGISLayerFact.currentVersion.rawValue].flatMap(Double.init) ?? 0 }

    mutating func setArcGIS(_ fact: ArcGISLayerFact, _ value: String) { sourceFacts[fact.rawValue] = value }
}
