// SPDX-License-Identifier: Apache-2.0
/// Opens a table from any of the three kinds of URL — an ArcGIS REST service or
/// layer, an OGC API - Features landing page, a WFS endpoint — deciding the kind
/// from what the server answers, never from the URL's spelling or a product name.
///
/// Evidence, in order: the URL asked for JSON (`f=json`): an ArcGIS error body, or
/// a document with `currentVersion` and `layers`/`tables` (a service) or `fields`
/// (a layer), is ArcGIS; a document whose `links` lead to `conformance` or `data`
/// is an OGC API landing page. Anything else (HTML, XML, an HTTP error) is asked
/// for WFS capabilities, which the WFS service's own load negotiates. A URL that
/// is none of them fails with `.unsupported`, saying what each probe answered.
enum ServiceOpener {
    static func open(url: String, name: String?, context: ClientContext) async throws(FeatureCacheError) -> FeatureTable {
        let name = name.flatMap { $0.isEmpty ? nil : $0 }
        let table = try await table(url: url, name: name, context: context)
        try await table.load()
        return table
    }

    private static func table(url: String, name: String?, context: ClientContext) async throws(FeatureCacheError) -> FeatureTable {
        var parsed = try RequestURL(parsing: url)
        parsed.remove("f")
        let probe: String
        let requester = ArcGISRequester(context: context, serviceURL: parsed.string)
        do throws(FeatureCacheError) {
            let json = try await requester.getJSON(parsed)
            if json["currentVersion"] != nil, json["layers"]?.array != nil || json["tables"]?.array != nil {
                return try await arcgisServiceTable(ArcGISService(url: url, context: context), name: name)
            }
            if json["currentVersion"] != nil || json["type"]?.string == "Feature Layer", json["fields"]?.array != nil {
                let layerName = json["name"]?.string ?? ""
                if let name, name != layerName, name != json["id"]?.int.map(String.init) {
                    throw FeatureCacheError.invalidArgument("\(RequestURL.redacted(url)) is the ArcGIS layer '\(layerName)', not '\(name)'")
                }
                return try FeatureTable.arcgis(url: url, context: context)
            }
            if let links = json["links"]?.array, links.contains(where: { link in
                ["conformance", "data", "http://www.opengis.net/def/rel/ogc/1.0/conformance",
                 "http://www.opengis.net/def/rel/ogc/1.0/data"].contains(link["rel"]?.string ?? "")
            }) {
                return try await ogcTable(OGCService(url: url, context: context), name: name)
            }
            probe = "JSON without ArcGIS 'currentVersion' or OGC API 'links'"
        } catch {
            // An ArcGIS error body is ArcGIS speaking; a server that cannot be
            // reached or refuses the credentials will not answer another probe.
            let final: Set<FeatureCacheError.Code> = [.service, .network, .timeout, .cancelled, .protocol, .invalidArgument, .limit, .notFound]
            if error.code == .service { throw await ArcGISLayerSource.unlistedOr(error, layerURL: parsed, requester: requester) }
            if final.contains(error.code) || [401, 403, 407].contains(error.httpStatus) { throw error }
            probe = error.message
        }
        let service = try WFSService(url: url, context: context)
        do throws(FeatureCacheError) {
            try await service.load()
        } catch {
            guard error.code == .parse || error.code == .http || error.code == .service else { throw error }
            throw FeatureCacheError(.unsupported, "\(RequestURL.redacted(url)) is not an ArcGIS REST service or layer, an OGC API - Features landing page or a WFS: asked for JSON: \(probe); asked for WFS capabilities: \(error.message)")
        }
        return try FeatureTable.wfs(service: service, typeName: try pick(name, from: service.featureTypes().map(\.name), what: "feature type", at: url))
    }

    private static func arcgisServiceTable(_ service: ArcGISService, name: String?) async throws(FeatureCacheError) -> FeatureTable {
        try await service.load()
        let layers = try service.layers().filter { $0.isTable || $0.geometryType != .none }
        let id: Int
        if let name, let number = Int(name), layers.contains(where: { $0.id == number }) {
            id = number
        } else {
            let chosen = try pick(name, from: layers.map(\.name), what: "layer", at: service.url)
            id = layers.first { $0.name.lowercased() == chosen.lowercased() }!.id
        }
        return try FeatureTable.arcgis(service: service, layerId: id)
    }

    private static func ogcTable(_ service: OGCService, name: String?) async throws(FeatureCacheError) -> FeatureTable {
        try await service.load()
        return try FeatureTable.ogc(service: service, collectionId: try pick(name, from: service.collections().map(\.id),
                                                                             what: "collection", at: service.url))
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
