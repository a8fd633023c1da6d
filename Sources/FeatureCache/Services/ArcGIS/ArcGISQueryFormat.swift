// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables

/// The format an ArcGIS table's queries ask for (`f=`).
public enum ArcGISQueryFormat: Int32, Sendable, CaseIterable, OptionValue {
    /// PBF when the layer lists it in `supportedQueryFormats` (ArcGIS Online
    /// hosted layers, recent ArcGIS Enterprise), else JSON. The default.
    case auto = 1
    /// Esri JSON (`f=json`).
    case json = 2
    /// Esri's protocol buffers (`f=pbf`): integer coordinates and typed
    /// values, fewer bytes and faster to read. A layer that does not list it
    /// fails with FC_E_UNSUPPORTED.
    case pbf = 3

    /// What `auto` (or a forced format) means for a layer with this metadata.
    func resolved(for metadata: TableMetadata, layer: String) throws(FeatureCacheError) -> ArcGISQueryFormat {
        let listsPBF = metadata.supportedQueryFormats.contains { $0.lowercased() == "pbf" }
        switch self {
        case .auto: return listsPBF ? .pbf : .json
        case .json: return .json
        case .pbf:
            guard listsPBF else {
                let listed = metadata.supportedQueryFormats.isEmpty ? "none" : metadata.supportedQueryFormats.joined(separator: ", ")
                throw FeatureCacheError(.unsupported, "\(layer) does not answer queries in PBF (its supportedQueryFormats: \(listed))")
            }
            return .pbf
        }
    }

    /// The option value that names it (`auto`, `json`, `pbf`), in raw-value order.
    package var optionValue: String { ["auto", "json", "pbf"][Int(rawValue) - 1] }

}
