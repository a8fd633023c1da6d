// SPDX-License-Identifier: Apache-2.0
/// Opens OGC API - Features landing pages: a JSON answer whose `links` lead to
/// `conformance` or `data`; the table is the collection `name` names.
struct OGCAPIAdapter: ServiceAdapter {
    var describes: String { "an OGC API - Features landing page" }

    private static let landingRelations: Set<String> = ["conformance", "data", "http://www.opengis.net/def/rel/ogc/1.0/conformance",
                                                        "http://www.opengis.net/def/rel/ogc/1.0/data"]

    func table(for probe: ServiceProbe, name: String?) async throws(FeatureCacheError) -> FeatureTable? {
        guard let links = probe.json?["links"]?.array,
              links.contains(where: { Self.landingRelations.contains($0["rel"]?.string ?? "") }) else { return nil }
        let service = try OGCService(url: probe.url, context: probe.context)
        try await service.load()
        let id = try ServiceOpener.pick(name, from: service.collections().map(\.id), what: "collection", at: service.url)
        return try FeatureTable.ogc(service: service, collectionId: id)
    }
}
