// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Opens WFS endpoints: asked last, it asks the URL for WFS capabilities (the
/// service's own load negotiates the version); its items are the feature types. A URL whose capabilities do not load is not claimed.
package struct WFSAdapter: ServiceAdapter {
    package init() {}

    package var describes: String { "a WFS" }

    package func service(for probe: ServiceProbe) async throws(FeatureCacheError) -> FeatureService? {
        if probe.findings.isEmpty { probe.findings.append("asked for JSON: JSON that no adapter claims") }
        let service = try WFSService(url: probe.url, context: probe.context)
        do throws(FeatureCacheError) {
            try await service.load()
        } catch {
            guard error.code == .parse || error.code == .http || error.code == .service else { throw error }
            probe.findings.append("asked for WFS capabilities: \(error.message)")
            return nil
        }
        let items = try service.featureTypes().map(\.item)
        return FeatureService(kind: .wfs, url: service.url, title: service.title, items: items) { (item) throws(FeatureCacheError) in
            try FeatureTable.wfs(service: service, typeName: item.id)
        }
    }
}

extension WFSFeatureTypeInfo {
    /// The feature type as a service item, named by its type name (the
    /// capabilities give no geometry type; its schema does).
    var item: ServiceItem { ServiceItem(id: name, name: name, geometryType: .unknown) }
}
