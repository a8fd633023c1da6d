// SPDX-License-Identifier: Apache-2.0
/// Opens ArcGIS REST URLs: it sends the opening probe (the URL asked for JSON
/// with the context's token, as every ArcGIS request), and claims a document
/// with `currentVersion` and `layers`/`tables` (a service: the layer `name`
/// names) or `fields` (a layer), and every ArcGIS error body.
struct ArcGISAdapter: ServiceAdapter {
    var describes: String { "an ArcGIS REST service or layer" }

    func table(for probe: ServiceProbe, name: String?) async throws(FeatureCacheError) -> FeatureTable? {
        let requester = ArcGISRequester(context: probe.context, serviceURL: probe.parsed.string)
        let request = requester.request(probe.parsed)
        do throws(FeatureCacheError) {
            let response = try await probe.context.send(request, counting: nil)
            if response.status < 400, ServiceResponse.looksLikeJSON(response.body) {
                probe.response = response
                // A document of features is another adapter's; never built as a tree here.
                if probe.holdsFeatures { return nil }
            }
            // Raises the HTTP error, the non-JSON answer or the ArcGIS error body.
            _ = try ArcGISResponse.decode(response, request: request)
        } catch {
            // An ArcGIS error body is ArcGIS speaking; a server that cannot be
            // reached or refuses the credentials will not answer another probe.
            let final: Set<FeatureCacheError.Code> = [.service, .network, .timeout, .cancelled, .protocol, .invalidArgument, .limit, .notFound]
            if error.code == .service { throw await ArcGISLayerSource.unlistedOr(error, layerURL: probe.parsed, requester: requester) }
            if final.contains(error.code) || [401, 403, 407].contains(error.httpStatus) { throw error }
            probe.findings.append("asked for JSON: \(error.message)")
            return nil
        }
        guard let json = probe.json else {
            probe.findings.append("asked for JSON: an answer that does not parse")
            return nil
        }
        if json["currentVersion"] != nil, json["layers"]?.array != nil || json["tables"]?.array != nil {
            return try await serviceTable(ArcGISService(url: probe.url, context: probe.context), name: name)
        }
        if json["currentVersion"] != nil || json["type"]?.string == "Feature Layer", json["fields"]?.array != nil {
            let layerName = json["name"]?.string ?? ""
            if let name, name != layerName, name != json["id"]?.int.map(String.init) {
                throw FeatureCacheError.invalidArgument("\(RequestURL.redacted(probe.url)) is the ArcGIS layer '\(layerName)', not '\(name)'")
            }
            return try FeatureTable.arcgis(url: probe.url, context: probe.context)
        }
        return nil
    }

    private func serviceTable(_ service: ArcGISService, name: String?) async throws(FeatureCacheError) -> FeatureTable {
        try await service.load()
        let layers = try service.layers().filter { $0.isTable || $0.geometryType != .none }
        let id: Int
        if let name, let number = Int(name), layers.contains(where: { $0.id == number }) {
            id = number
        } else {
            let chosen = try ServiceOpener.pick(name, from: layers.map(\.name), what: "layer", at: service.url)
            id = layers.first { $0.name.lowercased() == chosen.lowercased() }!.id
        }
        return try FeatureTable.arcgis(service: service, layerId: id)
    }
}
