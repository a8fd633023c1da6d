// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

extension ArcGISQueryFormat {
    /// What `auto` (or a forced format) means for a layer with this metadata.
    func resolved(for metadata: TableMetadata, layer: String) throws(FeatureCacheError) -> ArcGISQueryFormat {
        let listsPBF = metadata.arcgisQueryFormats.contains { $0.lowercased() == "pbf" }
        switch self {
        case .auto: return listsPBF ? .pbf : .json
        case .json: return .json
        case .pbf:
            guard listsPBF else {
                let listed = metadata.arcgisQueryFormats.isEmpty ? "none" : metadata.arcgisQueryFormats.joined(separator: ", ")
                throw FeatureCacheError(.unsupported, "\(layer) does not answer queries in PBF (its supportedQueryFormats: \(listed))")
            }
            return .pbf
        }
    }
}
