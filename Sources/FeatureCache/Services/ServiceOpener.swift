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

extension FeatureTable {
    /// Opens again, and loads, the table whose persisted cache is in `folder`
    /// (a table's own folder under a cache folder, as `CacheInfo.folder`
    /// names it): the URL and item its features file records, opened as
    /// `open(url:name:)` opens them, with the spatial reference and definition
    /// expression of its identity and the folder's parent as its cache folder,
    /// so the load restores what was saved. `.notFound` for a folder without
    /// a saved table; `.storage` for a file that cannot say what it holds, a
    /// URL saved with credentials in it, or when the URL now opens another
    /// table than the one saved there.
    public static func openCached(folder: String, context: ClientContext = .shared) async throws(FeatureCacheError) -> FeatureTable {
        var folder = folder
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        let recorded = try PersistedCache.recordedTable(in: folder)
        guard let settings = FeatureTable.settings(ofCacheIdentity: recorded.identity),
            let slash = folder.lastIndex(of: "/"), slash > folder.startIndex
        else { throw FeatureCacheError(.storage, "\(folder) does not say which table it holds") }
        // Credentials are never written: a URL that held one (masked, "***")
        // cannot be opened again as it was, and its cache is another table's.
        guard !recorded.url.contains("***") else {
            throw FeatureCacheError(
                .storage,
                "\(recorded.url) was saved with credentials in its URL, which the cache does not keep: "
                    + "open it with the URL and its credentials (or give them to the context instead)")
        }
        let table = try await ServiceOpener.service(url: recorded.url, context: context).table(recorded.name)
        if settings.wkid != 0 { try table.setSpatialReference(settings.wkid) }
        if !settings.definitionExpression.isEmpty { try table.setDefinitionExpression(settings.definitionExpression) }
        let root = String(folder[..<slash])
        try table.setCacheFolder(root)
        // The folder is named by its table's identity: the same name, the same table.
        guard PersistedCache.folder(root: root, identity: table.cacheIdentity).split(separator: "/").last == folder[slash...].dropFirst()
        else {
            throw FeatureCacheError(
                .storage, "\(RequestURL.redacted(recorded.url)) now opens another table than the one saved in \(folder)")
        }
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
