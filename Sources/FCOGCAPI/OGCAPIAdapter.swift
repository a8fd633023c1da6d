// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Opens OGC API - Features landing pages: a JSON answer whose `links` lead to
/// `conformance` or `data`; its items are the collections.
package struct OGCAPIAdapter: ServiceAdapter {
    package init() {}

    package var describes: String { "an OGC API - Features landing page" }

    private static let landingRelations: Set<String> = [
        "conformance", "data", "http://www.opengis.net/def/rel/ogc/1.0/conformance",
        "http://www.opengis.net/def/rel/ogc/1.0/data",
    ]

    package func service(for probe: ServiceProbe) async throws(FeatureCacheError) -> FeatureService? {
        guard let links = probe.json?["links"]?.array,
            links.contains(where: { Self.landingRelations.contains($0["rel"]?.string ?? "") })
        else { return nil }
        let service = try OGCService(url: probe.url, context: probe.context)
        try await service.load()
        let items = try service.collections().map(\.item)
        return FeatureService(kind: .ogcFeatures, url: service.url, title: service.title, items: items) {
            (item) throws(FeatureCacheError) in
            try FeatureTable.ogc(service: service, collectionId: item.id)
        }
    }
}

extension OGCCollectionSummary {
    /// The collection as a service item: the list says no geometry type (a
    /// collection's own document does).
    var item: ServiceItem { ServiceItem(id: id, name: title, geometryType: .unknown) }
}
