// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// What an OpenAPI 3 document says of the `items` paths of an OGC API -
/// Features service: the largest `limit` each accepts, and the parameters that
/// filter on a feature property (Part 1 §7.15.5: `?Condition=4`), which a
/// server without CQL still takes.
package struct OpenAPIItems: Sendable {
    /// By collection id ("" = a `{collectionId}` template path or the shared parameter).
    var limitMaximum: [String: Int] = [:]
    /// Property parameters by collection id ("" = a `{collectionId}` template path).
    var propertyParameters: [String: Set<String>] = [:]
    /// The methods a collection's `items` (`post`) and `items/{featureId}`
    /// (`put`, `patch`, `delete`) paths declare: Part 4's operations, by collection id.
    var editMethods: [String: Set<String>] = [:]

    /// The parameters Part 1, 2 and 3 define, and common ones that select
    /// rather than filter: none of them is a feature property.
    static let standardParameters: Set<String> = [
        "limit", "offset", "bbox", "bbox-crs", "crs", "datetime", "f", "filter", "filter-lang", "filter-crs",
        "sortby", "sortdesc", "resulttype", "properties", "skipgeometry", "q", "ids", "startindex", "token",
    ]

    init() {}

    package init(_ document: JSONValue) {
        let shared = document["components"]?["parameters"]
        if let limit = shared?["limit"], let maximum = Self.maximum(limit) { limitMaximum[""] = maximum }
        for (path, item) in document["paths"]?.members ?? [] {
            // `…/collections/{id}/items`; paths may carry the API's base path (QGIS Server: `/wfs3/collections/…`).
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count >= 4, parts[parts.count - 2] == "items", parts[parts.count - 4] == "collections",
                parts[parts.count - 1].hasPrefix("{")
            {
                let id = String(parts[parts.count - 3])
                let methods = Set(["put", "patch", "delete"].filter { item[$0] != nil })
                editMethods[id.hasPrefix("{") ? "" : RequestURL.percentDecode(id), default: []].formUnion(methods)
                continue
            }
            guard parts.count >= 3, parts[parts.count - 1] == "items", parts[parts.count - 3] == "collections" else { continue }
            let id = String(parts[parts.count - 2])
            let key = id.hasPrefix("{") ? "" : RequestURL.percentDecode(id)
            if let post = item["post"], Self.createsFeatures(post, document: document) { editMethods[key, default: []].insert("post") }
            var properties: Set<String> = []
            for parameter in item["get"]?["parameters"]?.array ?? [] {
                guard let resolved = Self.resolve(parameter, shared: shared), let name = resolved["name"]?.string else { continue }
                if name == "limit", let maximum = Self.maximum(resolved) { limitMaximum[key] = maximum }
                if resolved["in"]?.string == "query", !Self.standardParameters.contains(name.lowercased()) {
                    properties.insert(name)
                }
            }
            if !properties.isEmpty { propertyParameters[key] = properties }
        }
    }

    /// Whether a `POST …/items` is Part 4's create: its request body is a
    /// GeoJSON feature (`application/geo+json`) or it answers 201 Created. A
    /// POST on items may be something else — a CQL2 search with a JSON body
    /// answering 200 — and taking it for create queues adds the server then
    /// refuses.
    static func createsFeatures(_ post: JSONValue, document: JSONValue) -> Bool {
        var body = post["requestBody"]
        if let ref = body?["$ref"]?.string, ref.hasPrefix("#/components/requestBodies/") {
            body = document["components"]?["requestBodies"]?[String(ref.dropFirst("#/components/requestBodies/".count))]
        }
        let types = (body?["content"]?.members ?? []).map { $0.0.lowercased() }
        if types.contains(where: { $0.hasPrefix("application/geo+json") }) { return true }
        return post["responses"]?["201"] != nil
    }

    private static func resolve(_ parameter: JSONValue, shared: JSONValue?) -> JSONValue? {
        guard let ref = parameter["$ref"]?.string else { return parameter }
        guard ref.hasPrefix("#/components/parameters/") else { return nil }
        return shared?[String(ref.dropFirst("#/components/parameters/".count))]
    }

    private static func maximum(_ parameter: JSONValue) -> Int? {
        guard let value = parameter["schema"]?["maximum"]?.int, value > 0 else { return nil }
        return Int(clamping: value)
    }
}
