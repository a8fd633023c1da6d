// SPDX-License-Identifier: Apache-2.0
/// Opens WFS endpoints: asked last, it asks the URL for WFS capabilities (the
/// service's own load negotiates the version); the table is the feature type
/// `name` names. A URL whose capabilities do not load is not claimed.
struct WFSAdapter: ServiceAdapter {
    var describes: String { "a WFS" }

    func table(for probe: ServiceProbe, name: String?) async throws(FeatureCacheError) -> FeatureTable? {
        if probe.findings.isEmpty { probe.findings.append("asked for JSON: JSON that no adapter claims") }
        let service = try WFSService(url: probe.url, context: probe.context)
        do throws(FeatureCacheError) {
            try await service.load()
        } catch {
            guard error.code == .parse || error.code == .http || error.code == .service else { throw error }
            probe.findings.append("asked for WFS capabilities: \(error.message)")
            return nil
        }
        let typeName = try ServiceOpener.pick(name, from: service.featureTypes().map(\.name), what: "feature type", at: probe.url)
        return try FeatureTable.wfs(service: service, typeName: typeName)
    }
}
