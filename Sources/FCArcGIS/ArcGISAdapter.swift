// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Opens ArcGIS REST URLs: it sends the opening probe (the URL asked for JSON
/// with the context's token, as every ArcGIS request), and claims a document
/// with `currentVersion` and `layers`/`tables` (a service: its layers and
/// tables with features) or `fields` (a layer: itself), and every ArcGIS error body.
package struct ArcGISAdapter: ServiceAdapter {
    package init() {}

    package var describes: String { "an ArcGIS REST service or layer" }

    package func service(for probe: ServiceProbe) async throws(FeatureCacheError) -> FeatureService? {
        let requester = ArcGISRequester(context: probe.context, serviceURL: probe.parsed.string)
        // Conditional when an earlier run kept this URL's answer (a document).
        let request = probe.conditional(requester.request(probe.parsed))
        let json: JSONValue
        do throws(FeatureCacheError) {
            let response = try await probe.context.send(request, counting: nil)
            if response.status == 304, request.isConditional {
                // The kept document is the answer still: not a service.
                probe.request = request
                probe.notModified = true
                return nil
            }
            if response.status < 400, ServiceResponse.looksLikeJSON(response.body) {
                probe.response = response
                probe.request = request
                // A document of features is another adapter's; never built as a tree here.
                if probe.holdsFeatures { return nil }
            }
            // Raises the HTTP error, the non-JSON answer or the ArcGIS error body.
            json = try ArcGISResponse.decode(response, request: request)
            probe.remember(json)  // the adapters after this one read the same tree
        } catch {
            // An ArcGIS error body is ArcGIS speaking; a server that cannot be
            // reached or refuses the credentials will not answer another probe.
            let final: Set<FeatureCacheError.Code> = [
                .service, .network, .timeout, .cancelled, .protocol, .invalidArgument, .limit, .notFound,
            ]
            if error.code == .service { throw await ArcGISLayerSource.unlistedOr(error, layerURL: probe.parsed, requester: requester) }
            if final.contains(error.code) || [401, 403, 407].contains(error.httpStatus) { throw error }
            probe.findings.append("asked for JSON: \(error.message)")
            return nil
        }
        if json["currentVersion"] != nil, json["layers"]?.array != nil || json["tables"]?.array != nil {
            let service = try ArcGISService(url: probe.url, context: probe.context)
            try await service.load()
            let items = try service.layers().filter { $0.isTable || $0.geometryType != .none }.map {
                ServiceItem(id: String($0.id), name: $0.name, geometryType: $0.geometryType)
            }
            return FeatureService(
                kind: .arcgis, url: service.url, title: (try? service.serviceDescription()) ?? "",
                items: items
            ) { (item) throws(FeatureCacheError) in
                try FeatureTable.arcgis(service: service, layerId: Int(item.id) ?? -1)
            }
        }
        if json["currentVersion"] != nil || json["type"]?.string == "Feature Layer", json["fields"]?.array != nil {
            let item = ServiceItem(
                id: json["id"]?.int.map(String.init) ?? "", name: json["name"]?.string ?? "",
                geometryType: GeometryType(esriName: json["geometryType"]?.string))
            let (url, context) = (probe.url, probe.context)
            return FeatureService(
                kind: .arcgis, url: url, title: item.name, items: [item],
                namesOneItem: true
            ) { (_) throws(FeatureCacheError) in
                try FeatureTable.arcgis(url: url, context: context)
            }
        }
        return nil
    }
}
