// SPDX-License-Identifier: Apache-2.0
extension FeatureTable {
    /// Opens and loads a table from any kind of URL the library reads (an ArcGIS
    /// REST service or layer, an OGC API landing page, a GeoJSON or Esri JSON
    /// document, a WFS endpoint) and the name of a layer, collection or feature
    /// type in it (nil: the only one), deciding the kind from what the server
    /// answers (see `ServiceOpener`).
    public static func open(url: String, name: String?, context: ClientContext = .shared) async throws(FeatureCacheError) -> FeatureTable {
        try await ServiceOpener.open(url: url, name: name, context: context)
    }
}

/// Opens a table from a URL, deciding its kind from what the server answers,
/// never from the URL's spelling or a product name: each registered adapter in
/// turn reads the evidence (the answer to asking the URL for JSON, then, for a
/// WFS, its capabilities) and claims the URL or passes. A URL no adapter claims
/// fails with `.unsupported`, saying what each probe answered.
enum ServiceOpener {
    static func open(url: String, name: String?, context: ClientContext) async throws(FeatureCacheError) -> FeatureTable {
        let name = name.flatMap { $0.isEmpty ? nil : $0 }
        let probe = try ServiceProbe(url: url, context: context)
        for adapter in ServiceAdapters.registered {
            if let table = try await adapter.table(for: probe, name: name) {
                try await table.load()
                return table
            }
        }
        let kinds = ServiceAdapters.registered.map(\.describes)
        throw FeatureCacheError(.unsupported, "\(RequestURL.redacted(url)) is not \(kinds.dropLast().joined(separator: ", ")) or \(kinds.last ?? ""): "
                                + probe.findings.joined(separator: "; "))
    }

    /// The item `name` names (exactly, else the one that matches ignoring case and
    /// a WFS prefix), or the only item when no name is given.
    static func pick(_ name: String?, from items: [String], what: String, at url: String) throws(FeatureCacheError) -> String {
        let listed = items.prefix(20).joined(separator: ", ") + (items.count > 20 ? ", …" : "")
        guard let name else {
            guard items.count == 1 else {
                throw FeatureCacheError.invalidArgument("\(RequestURL.redacted(url)) has \(items.count) \(what)s: name one (\(listed))")
            }
            return items[0]
        }
        if items.contains(name) { return name }
        func plain(_ text: String) -> String { String(text.split(separator: ":").last ?? Substring(text)).lowercased() }
        let matches = items.filter { $0.lowercased() == name.lowercased() || plain($0) == plain(name) }
        guard !matches.isEmpty else {
            throw FeatureCacheError.notFound("\(RequestURL.redacted(url)) has no \(what) '\(name)' (it has: \(listed))")
        }
        guard matches.count == 1 else {
            throw FeatureCacheError.invalidArgument("\(RequestURL.redacted(url)) has no \(what) '\(name)' (it is ambiguous) (it has: \(listed))")
        }
        return matches[0]
    }
}
