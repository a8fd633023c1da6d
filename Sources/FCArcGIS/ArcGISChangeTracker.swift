// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables

/// ArcGIS change tracking: a layer with `ChangeTracking` in its capabilities
/// and `serverGens` (as the recorded hosted layer of shared/fixtures/arcgis-edits
/// has them) says what changed since a generation through its service's
/// `extractChanges` (POST only). No public recording of an `extractChanges`
/// exchange exists: its request and answer follow the vendor's REST API
/// reference ("Extract Changes (Feature Service)"). The ids are asked for
/// (`returnIdsOnly=true`, the one option every change-tracking service
/// supports — 10.6.1 enterprise services support it alone), and the features
/// are then read by id with the table's own query.
extension ArcGISLayerSource: ChangeTrackingSource {
    func changeGeneration(_ metadata: TableMetadata) -> String? {
        guard metadata.arcgisCapabilities.contains(where: { $0.lowercased() == "changetracking" }) else { return nil }
        return metadata.sourceFacts[ArcGISLayerFact.serverGen.rawValue].flatMap { Int64($0) != nil ? $0 : nil }
    }

    func currentGeneration(metadata: TableMetadata) async throws(FeatureCacheError) -> String? {
        guard changeGeneration(metadata) != nil else { return nil }
        return ArcGISLayerInfo.serverGens(try await requester.getJSON(layerURL)).map { String($0.current) }
    }

    func changes(since generation: String, metadata: TableMetadata) async throws(FeatureCacheError) -> SourceChanges? {
        guard changeGeneration(metadata) != nil, let since = Int64(generation), let (service, layer) = Self.service(of: layerURL)
        else { return nil }
        // The layer's own word when it loaded: older than the oldest it keeps.
        if let oldest = metadata.sourceFacts[ArcGISLayerFact.minServerGen.rawValue].flatMap(Int64.init), since < oldest { return nil }
        var form = RequestURL(base: service.base + "/extractChanges", parameters: service.parameters)
        form.set("layers", "[\(layer)]")
        form.set("layerServerGens", "[{\"id\":\(layer),\"serverGen\":\(since)}]")
        for name in ["returnInserts", "returnUpdates", "returnDeletes", "returnIdsOnly"] { form.set(name, "true") }
        form.set("dataFormat", "json")
        let json: JSONValue
        do {
            json = try await requester.postReading(form)
        } catch {
            // The service's refusal in its own words (no change tracking after
            // all, a generation older than it keeps): fetch again instead. A
            // token error, HTTP failures and unreadable answers stay errors.
            if error.code == .service, ![498, 499].contains(error.serviceCode) { return nil }
            throw error
        }
        return try Self.parseChanges(
            json, layer: layer, since: since, objectIdField: metadata.objectIdField,
            what: "the extractChanges answer of \(RequestURL.redacted(service.string))")
    }

    /// The service a layer URL (`…/FeatureServer/<id>`) belongs to, and the id.
    static func service(of layerURL: RequestURL) -> (service: RequestURL, layer: Int)? {
        let base = layerURL.base.hasSuffix("/") ? layerURL.base.dropLast() : Substring(layerURL.base)
        guard let slash = base.lastIndex(of: "/"), let id = Int(base[base.index(after: slash)...]) else { return nil }
        return (RequestURL(base: String(base[..<slash]), parameters: layerURL.parameters), id)
    }

    /// Reads an answer: `layerServerGens` (the generation to go on from) and
    /// the layer's `edits` entry, ids (`objectIds`: adds, updates, deletes) or
    /// features (`features`: adds, updates, deleteIds) — a service may send
    /// features although ids were asked for. Anything else is a parse error:
    /// nothing is applied from an answer that is not whole.
    static func parseChanges(
        _ json: JSONValue, layer: Int, since: Int64, objectIdField: String?, what: String
    ) throws(FeatureCacheError) -> SourceChanges {
        guard json.isObject, let generations = json["layerServerGens"]?.array, let edits = json["edits"]?.array else {
            throw FeatureCacheError.parse("\(what) has no layerServerGens and edits")
        }
        guard let entry = generations.first(where: { $0["id"]?.int == Int64(layer) }), let generation = entry["serverGen"]?.int
        else {
            throw FeatureCacheError.parse("\(what) gives no serverGen for layer \(layer)")
        }
        guard generation >= since else {
            throw FeatureCacheError.parse("\(what) goes back to generation \(generation), before \(since)")
        }
        var upserted: [Int64] = []
        var deleted: [Int64] = []
        for edit in edits where edit["id"]?.int == Int64(layer) {
            if let ids = edit["objectIds"] {
                upserted += try numbers(ids["adds"], "objectIds.adds", what) + numbers(ids["updates"], "objectIds.updates", what)
                deleted += try numbers(ids["deletes"], "objectIds.deletes", what)
            } else if let features = edit["features"] {
                upserted +=
                    try ids(of: features["adds"], objectIdField, "features.adds", what)
                    + ids(of: features["updates"], objectIdField, "features.updates", what)
                deleted += try numbers(features["deleteIds"], "features.deleteIds", what)
            } else {
                throw FeatureCacheError.parse("\(what): the edits of layer \(layer) have neither objectIds nor features")
            }
        }
        // An id both changed and deleted (within one answer, in either order):
        // reading it by id settles which is true now.
        let gone = Set(deleted)
        return SourceChanges(
            generation: String(generation), upserted: Array(Set(upserted)).sorted(),
            deleted: gone.subtracting(upserted).sorted())
    }

    private static func numbers(_ value: JSONValue?, _ name: String, _ what: String) throws(FeatureCacheError) -> [Int64] {
        guard let value, !value.isNull else { return [] }
        guard let items = value.array else { throw FeatureCacheError.parse("\(what): \(name) is not an array") }
        var ids: [Int64] = []
        ids.reserveCapacity(items.count)
        for item in items {
            guard let id = item.int else { throw FeatureCacheError.parse("\(what): \(name) holds a value that is not an object id") }
            ids.append(id)
        }
        return ids
    }

    private static func ids(
        of value: JSONValue?, _ field: String?, _ name: String, _ what: String
    ) throws(FeatureCacheError) -> [Int64] {
        guard let value, !value.isNull else { return [] }
        guard let features = value.array else { throw FeatureCacheError.parse("\(what): \(name) is not an array") }
        var ids: [Int64] = []
        for feature in features {
            let attributes = feature["attributes"]?.members ?? []
            let named = attributes.first { field != nil && $0.0.lowercased() == field!.lowercased() }?.1
            guard let id = named?.int else { throw FeatureCacheError.parse("\(what): a feature of \(name) has no object id") }
            ids.append(id)
        }
        return ids
    }
}
