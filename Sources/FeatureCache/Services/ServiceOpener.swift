// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

extension FeatureService {
    /// Opens a service from any kind of URL the library reads (see
    /// `ServiceOpener`): its items are listed; no table is made yet.
    public static func open(url: String, context: ClientContext = .shared) async throws(FeatureCacheError) -> FeatureService {
        try await ServiceOpener.service(url: url, context: context)
    }
}

extension FeatureTable {
    /// Opens and loads a table from any kind of URL the library reads (an ArcGIS
    /// REST service or layer, an OGC API landing page, a GeoJSON or Esri JSON
    /// document, a WFS endpoint) and the name of a layer, collection or feature
    /// type in it (nil: the only one), deciding the kind from what the server
    /// answers (see `ServiceOpener`).
    public static func open(url: String, name: String?, context: ClientContext = .shared) async throws(FeatureCacheError) -> FeatureTable {
        let table = try await ServiceOpener.service(url: url, context: context).table(name)
        try await table.load()
        return table
    }
}

/// Opens a service from a URL, deciding its kind from what the server answers,
/// never from the URL's spelling or a product name: each registered adapter in
/// turn reads the evidence (the answer to asking the URL for JSON, then, for a
/// WFS, its capabilities) and claims the URL or passes. A URL no adapter claims
/// fails with `.unsupported`, saying what each probe answered.
enum ServiceOpener {
    static func service(url: String, context: ClientContext) async throws(FeatureCacheError) -> FeatureService {
        let probe = try ServiceProbe(url: url, context: context)
        for adapter in ServiceAdapters.registered { adapter.prepare(probe) }
        for adapter in ServiceAdapters.registered {
            do {
                if let service = try await adapter.service(for: probe) { return service }
            } catch {
                // Unreachable, with the URL's document kept by an earlier run:
                // the adapters after go on, and the document's opens offline.
                guard probe.unreachable == nil, probe.kept != nil, FeatureTable.isUnreachable(error) else { throw error }
                probe.unreachable = error
            }
        }
        if let error = probe.unreachable { throw error }
        let kinds = ServiceAdapters.registered.map(\.describes)
        throw FeatureCacheError(
            .unsupported,
            "\(RequestURL.redacted(url)) is not \(kinds.dropLast().joined(separator: ", ")) or \(kinds.last ?? ""): "
                + probe.findings.joined(separator: "; "))
    }
}
