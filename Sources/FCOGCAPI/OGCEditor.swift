// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// OGC API - Features Part 4 on a collection: `POST` items (the new item's id
/// from `Location`), `PUT` (or, where only it is declared, `PATCH`) and
/// `DELETE` an item. Part 4 has no request of several edits: each edit is a
/// request of its own, applied or refused on its own, and one whose answer is
/// lost leaves only itself in doubt. Before an update or delete the item is
/// read: one whose properties differ from the cached copy changed on the
/// service (a conflict, not overwritten), and its `ETag`, when the server
/// gives one, goes with the change as `If-Match` (a change between the read
/// and the write is then refused with 412, a conflict too).
extension OGCCollectionSource: FeatureEditor {
    /// Editable when the service declares Part 4 (create-replace-delete) and
    /// its API definition declares the methods for this collection: the
    /// conformance class alone is service-wide, not per collection.
    static func editing(conforms: (String) -> Bool, methods: Set<String>) -> EditCapabilities {
        var editing = EditCapabilities()
        guard conforms("/conf/create-replace-delete") || conforms("/conf/update") else { return editing }
        editing.canAdd = methods.contains("post")
        editing.canUpdate = methods.contains("put") || methods.contains("patch")
        editing.canDelete = methods.contains("delete")
        editing.maxEditsPerRequest = 1
        return editing
    }

    func maxEditsPerRequest(_ metadata: TableMetadata) -> Int { 1 }

    func serviceId(of objectId: Int64) -> String? { identity.serviceId(for: objectId) }

    func send(_ edits: [LocalEdit], metadata: TableMetadata, options: ApplyOptions) async throws(FeatureCacheError) -> [EditOutcome] {
        var outcomes: [EditOutcome] = []
        for edit in edits { outcomes.append(try await send(edit, metadata: metadata)) }
        return outcomes
    }

    private func send(_ edit: LocalEdit, metadata: TableMetadata) async throws(FeatureCacheError) -> EditOutcome {
        let items = try loadedInfo().itemsURL
        let base = RequestURL(base: items.base, parameters: [])
        let methods = service.editMethods(for: collectionId)
        let request: HTTPRequest
        switch edit.kind {
        case .add:
            request = try editRequest(.post, base, body: feature(edit, metadata: metadata, id: nil))
        case .update:
            guard let id = edit.serviceId ?? serviceId(of: edit.objectId) else {
                throw FeatureCacheError(.invalidState, "feature \(edit.objectId) has no item id to update")
            }
            let url = base.appendingPath(RequestURL.percentEncode(id))
            let served = state.withLock { $0.served.removeValue(forKey: id) }
            // What changed where the API declares PATCH; else the whole item as
            // just read, only the user's changes replaced (a PUT replaces every
            // property: one left out is lost on the server).
            request =
                methods.contains("patch")
                ? try editRequest(.patch, url, body: patch(edit, metadata: metadata), contentType: "application/merge-patch+json")
                : try editRequest(.put, url, body: replacement(edit, metadata: metadata, id: id, served: served))
        case .delete:
            guard let id = edit.serviceId ?? serviceId(of: edit.objectId) else {
                throw FeatureCacheError(.invalidState, "feature \(edit.objectId) has no item id to delete")
            }
            request = try editRequest(.delete, base.appendingPath(RequestURL.percentEncode(id)), body: nil)
        }
        var sent = request
        if edit.kind != .add, let id = edit.serviceId ?? serviceId(of: edit.objectId),
            let etag = state.withLock({ $0.etags.removeValue(forKey: id) })
        {
            sent.headers.append(("If-Match", etag))
        }
        let response = try await service.context.send(sent, counting: statistics)
        if response.status == 412 {
            return EditOutcome(
                objectId: edit.objectId,
                error: FeatureCacheError(
                    .conflict, "feature \(edit.objectId) changed on the service since it was read (HTTP 412 to If-Match)", httpStatus: 412))
        }
        if response.status >= 500 {
            // A server failure may come after the change was made: in doubt.
            throw ServiceResponse.httpError(response, request: request, detail: nil)
        }
        if response.status >= 400 {
            if edit.kind == .delete, response.status == 404 || response.status == 410 {
                return EditOutcome(objectId: edit.objectId)  // gone either way
            }
            let detail =
                ServiceResponse.looksLikeJSON(response.body) ? (try? JSONValue.parse(response.body)).flatMap(OGCRequester.exception) : nil
            return EditOutcome(objectId: edit.objectId, error: ServiceResponse.httpError(response, request: request, detail: detail))
        }
        if ServiceResponse.looksLikeMarkup(response.body) {
            // A page (a proxy's sign-in, an error page) is no Part 4 answer: whether
            // the edit reached the service is unknown.
            throw ServiceResponse.notJSONError(response, request: request)
        }
        guard edit.kind == .add else { return EditOutcome(objectId: edit.objectId) }
        // The new item's id: the last segment of Location (Part 4), else the id of a returned feature.
        var id: String? = nil
        if let location = response.header("Location"), let path = location.split(separator: "?").first,
            let last = path.split(separator: "/").last
        {
            id = RequestURL.percentDecode(last)
        } else if ServiceResponse.looksLikeJSON(response.body), let json = try? JSONValue.parse(response.body) {
            id = json["id"]?.string ?? json["id"]?.int.map(String.init)
        }
        guard let id, !id.isEmpty else {
            return EditOutcome(
                objectId: edit.objectId, error: .protocol("the service created the item but says neither its Location nor its id"))
        }
        return EditOutcome(objectId: edit.objectId, serverObjectId: identity.objectId(for: id), serverId: id)
    }

    private func editRequest(
        _ method: HTTPRequest.Method, _ url: RequestURL, body: String?, contentType: String = "application/geo+json"
    ) throws(FeatureCacheError) -> HTTPRequest {
        var request = requester.request(url, method: method, post: body.map { (contentType, Array($0.utf8)) })
        request.isIdempotent = false
        return request
    }

    /// The feature as a GeoJSON Feature: every property, the geometry in CRS84
    /// (what Part 4 takes without a Content-Crs).
    private func feature(_ edit: LocalEdit, metadata: TableMetadata, id: String?) throws(FeatureCacheError) -> String {
        guard let row = edit.current else { return "{}" }
        let values = EditedRow.values(of: row, row: 0, fields: metadata.fields)
        let properties = metadata.fields.indices.map { "\(JSONStringText.quoted(metadata.fields[$0].name)):\(values[$0].jsonLiteral)" }
        var members = ["\"type\":\"Feature\""]
        if let id { members.append("\"id\":\(JSONStringText.quoted(id))") }
        members.append("\"geometry\":\(try geometry(row, metadata: metadata) ?? "null")")
        members.append("\"properties\":{\(properties.joined(separator: ","))}")
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The item a PUT sends: the item as the server served it just before
    /// (every property, those outside the table's fields and those the
    /// queryables mark as the id among them), with the fields and the
    /// geometry the user changed replaced; the cached copy when the item
    /// could not be read.
    private func replacement(
        _ edit: LocalEdit, metadata: TableMetadata, id: String, served: JSONValue?
    ) throws(FeatureCacheError)
        -> String
    {
        guard let served, let properties = served["properties"]?.members, let row = edit.current else {
            return try feature(edit, metadata: metadata, id: id)
        }
        let values = EditedRow.values(of: row, row: 0, fields: metadata.fields)
        var changed: [String: String] = [:]
        for name in edit.changedFields {
            guard let index = metadata.fields.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else { continue }
            changed[metadata.fields[index].name] = values[index].jsonLiteral
        }
        var members = properties.map { (name, value) in
            JSONStringText.quoted(name) + ":" + (changed.removeValue(forKey: name) ?? value.jsonText)
        }
        members += changed.map { JSONStringText.quoted($0.key) + ":" + $0.value }
        let geometry = edit.geometryChanged ? try geometry(row, metadata: metadata) ?? "null" : served["geometry"]?.jsonText ?? "null"
        return
            "{\"type\":\"Feature\",\"id\":\(JSONStringText.quoted(id)),\"geometry\":\(geometry),\"properties\":{\(members.joined(separator: ","))}}"
    }

    /// A JSON merge patch of what the update changed.
    private func patch(_ edit: LocalEdit, metadata: TableMetadata) throws(FeatureCacheError) -> String {
        guard let row = edit.current else { return "{}" }
        let values = EditedRow.values(of: row, row: 0, fields: metadata.fields)
        let changed = Set(edit.changedFields.map { $0.lowercased() })
        let properties = metadata.fields.indices.filter { changed.contains(metadata.fields[$0].name.lowercased()) }.map {
            "\(JSONStringText.quoted(metadata.fields[$0].name)):\(values[$0].jsonLiteral)"
        }
        var members = ["\"properties\":{\(properties.joined(separator: ","))}"]
        if edit.geometryChanged { members.append("\"geometry\":\(try geometry(row, metadata: metadata) ?? "null")") }
        return "{" + members.joined(separator: ",") + "}"
    }

    private func geometry(_ row: FeatureBatch, metadata: TableMetadata) throws(FeatureCacheError) -> String? {
        guard var wkb = EditedRow.geometry(of: row, row: 0) else { return nil }
        if let transform = try Projection.transform(from: metadata.spatialReference, to: .wgs84) {
            var shape = try VertexGeometry(wkb: wkb)
            for index in shape.paths.indices {
                for start in stride(from: 0, to: shape.paths[index].count, by: shape.stride) {
                    (shape.paths[index][start], shape.paths[index][start + 1]) = transform(
                        shape.paths[index][start], shape.paths[index][start + 1])
                }
            }
            wkb = shape.wkb
        }
        return wkb.withUnsafeBytes { GeoJSONWriter.geometry($0) }
    }

    func conflicts(_ edits: [LocalEdit], metadata: TableMetadata) async throws(FeatureCacheError) -> [Int64: FeatureCacheError] {
        var found: [Int64: FeatureCacheError] = [:]
        let items = try loadedInfo().itemsURL
        for edit in edits {
            guard let original = edit.original, let id = edit.serviceId ?? serviceId(of: edit.objectId) else { continue }
            let url = RequestURL(base: items.base, parameters: items.parameters).appendingPath(RequestURL.percentEncode(id))
            let request = requester.request(url)
            let response = try await service.context.send(request, counting: statistics)
            if response.status == 404 || response.status == 410 {
                if edit.kind == .update {
                    found[edit.objectId] = FeatureCacheError(
                        .conflict, "feature \(edit.objectId) was deleted on the service after it was cached")
                }
                continue
            }
            try OGCRequester.check(response, request: request)
            if let etag = response.header("ETag") { state.withLock { $0.etags[id] = etag } }
            guard let item = try? JSONValue.parse(response.body), let properties = item["properties"], properties.isObject else { continue }
            let cached = EditedRow.values(of: original, row: 0, fields: metadata.fields)
            if let field = metadata.fields.indices.first(where: { !Self.same(cached[$0], properties[metadata.fields[$0].name]) }) {
                found[edit.objectId] = FeatureCacheError(
                    .conflict,
                    "feature \(edit.objectId) changed on the service after it was cached (its '\(metadata.fields[field].name)' differs): refresh it, then edit again"
                )
            } else if edit.kind == .update {
                state.withLock { $0.served[id] = item }  // what its PUT sends back (a conflict is not sent)
            }
        }
        return found
    }

    /// Whether a cached value is the one an item's JSON property holds (a
    /// property the item leaves out says nothing).
    private static func same(_ cached: AttributeValue, _ json: JSONValue?) -> Bool {
        guard let json else { return true }
        switch cached {
        case .null: return json.isNull
        case let .text(text): return json.string == text
        case let .boolean(flag): return json.bool == flag
        case .integer, .double: return json.double.map { $0 == cached.number } ?? false
        }
    }

    func reconcile(
        _ edits: [LocalEdit], metadata: TableMetadata, isCached: @Sendable (Int64) -> Bool
    ) async throws(FeatureCacheError) -> [Reconciled] {
        try await reconcileByQuery(edits, metadata: metadata, isCached: isCached)
    }
}
