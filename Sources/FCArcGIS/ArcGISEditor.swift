// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// The ArcGIS REST edit side of a layer: `applyEdits` on the layer, as the REST
/// API documents it (adds and updates as Esri JSON features, deletes as a comma
/// list, `rollbackOnFailure` where `supportsRollbackOnFailureParameter`,
/// `useGlobalIds` where `supportsApplyEditsWithGlobalIds`). Results are matched
/// to edits by GlobalID when there is one, else by their place in each array.
extension ArcGISLayerSource: FeatureEditor {
    func maxEditsPerRequest(_ metadata: TableMetadata) -> Int {
        metadata.editing.maxEditsPerRequest > 0 ? metadata.editing.maxEditsPerRequest : metadata.maxRecordCount
    }

    /// A GlobalID made here (a random, version 4 UUID in braces, as ArcGIS
    /// Enterprise requires them on input), when the layer takes them.
    func newGlobalId(_ metadata: TableMetadata) -> String? {
        guard metadata.editing.supportsGlobalIds, metadata.globalIdField != nil else { return nil }
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }
        return "{" + [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-") + "}"
    }

    func send(_ edits: [LocalEdit], metadata: TableMetadata, options: ApplyOptions) async throws(FeatureCacheError) -> [EditOutcome] {
        // With useGlobalIds every edit of the request is named by its GlobalID:
        // edits of features whose GlobalID is not known go in a request of their own.
        let byGlobalId = metadata.editing.supportsGlobalIds ? edits.filter { ArcGISEditAnswer.globalId(of: $0, metadata) != nil } : []
        let byObjectId = metadata.editing.supportsGlobalIds ? edits.filter { ArcGISEditAnswer.globalId(of: $0, metadata) == nil } : edits
        var outcomes: [Int64: EditOutcome] = [:]
        for (group, useGlobalIds) in [(byGlobalId, true), (byObjectId, false)] where !group.isEmpty {
            for outcome in try await applyEdits(group, useGlobalIds: useGlobalIds, metadata: metadata, options: options) {
                outcomes[outcome.objectId] = outcome
            }
        }
        return edits.map {
            outcomes[$0.objectId] ?? EditOutcome(objectId: $0.objectId, error: .protocol("the service's answer says nothing of this edit"))
        }
    }

    /// One `applyEdits` request. A service error body (a refused or rolled-back
    /// request, an expired token) refuses every edit of it with that error.
    private func applyEdits(
        _ edits: [LocalEdit], useGlobalIds: Bool, metadata: TableMetadata, options: ApplyOptions
    ) async throws(FeatureCacheError) -> [EditOutcome] {
        let adds = edits.filter { $0.kind == .add }, updates = edits.filter { $0.kind == .update },
            deletes = edits.filter { $0.kind == .delete }
        var form = RequestURL(base: layerURL.appendingPath("applyEdits").base, parameters: layerURL.parameters)
        if !adds.isEmpty {
            form.set("adds", "[" + adds.map { feature($0, metadata: metadata, useGlobalIds: useGlobalIds) }.joined(separator: ",") + "]")
        }
        if !updates.isEmpty {
            form.set(
                "updates", "[" + updates.map { feature($0, metadata: metadata, useGlobalIds: useGlobalIds) }.joined(separator: ",") + "]")
        }
        if !deletes.isEmpty {
            let ids = deletes.map { useGlobalIds ? ArcGISEditAnswer.globalId(of: $0, metadata) ?? "" : String($0.objectId) }
            form.set(
                "deletes",
                useGlobalIds ? "[" + ids.map { JSONStringText.quoted($0) }.joined(separator: ",") + "]" : ids.joined(separator: ","))
        }
        if metadata.editing.supportsRollback { form.set("rollbackOnFailure", options.rollbackOnFailure ? "true" : "false") }
        if useGlobalIds { form.set("useGlobalIds", "true") }
        let json: JSONValue
        do {
            json = try await requester.post(form)
        } catch  where error.code == .service || (error.code == .http && error.serviceCode != 0) {
            return edits.map { EditOutcome(objectId: $0.objectId, error: error) }  // answered: nothing applied
        }
        guard json.isObject else {
            throw FeatureCacheError.parse("\(RequestURL.redacted(form.base)): the applyEdits answer is not a JSON object")
        }
        let rolledBack = metadata.editing.supportsRollback && options.rollbackOnFailure
        return ArcGISEditAnswer.outcomes(
            of: json, adds: adds, updates: updates, deletes: deletes, useGlobalIds: useGlobalIds, rolledBack: rolledBack, metadata: metadata
        )
    }

    /// One feature of `adds` or `updates`: its attributes (an add's writable
    /// values; an update's object id and changed fields) and geometry.
    private func feature(_ edit: LocalEdit, metadata: TableMetadata, useGlobalIds: Bool) -> String {
        guard let row = edit.current else { return "{}" }
        let values = EditedRow.values(of: row, row: 0, fields: metadata.fields)
        let changed = Set(edit.changedFields.map { $0.lowercased() })
        var attributes: [String] = []
        for (index, field) in metadata.fields.enumerated() {
            let name = field.name.lowercased()
            let isId = name == metadata.objectIdField?.lowercased(), isGlobalId = name == metadata.globalIdField?.lowercased()
            let send: Bool
            switch edit.kind {
            case .add: send = isGlobalId ? useGlobalIds : field.editable && !isId && !values[index].isNull
            case .update: send = isId || (isGlobalId && useGlobalIds) || changed.contains(name)
            case .delete: send = false
            }
            if send { attributes.append("\(JSONStringText.quoted(field.name)):\(values[index].jsonLiteral)") }
        }
        var members = ["\"attributes\":{\(attributes.joined(separator: ","))}"]
        if edit.kind == .add || edit.geometryChanged, let wkb = EditedRow.geometry(of: row, row: 0),
            let geometry = try? VertexGeometry(wkb: wkb)
        {
            members.insert("\"geometry\":" + ArcGISGeometryJSON.feature(geometry, spatialReference: metadata.spatialReference), at: 0)
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    // MARK: - After a lost answer

    /// Adds are looked for by their GlobalID, or else by every value they
    /// carry (`reconcileByQuery`); deletes by whether the feature is gone.
    /// Updates are sent again (the same values twice are one update).
    func reconcile(
        _ edits: [LocalEdit], metadata: TableMetadata, isCached: @Sendable (Int64) -> Bool
    ) async throws(FeatureCacheError) -> [Reconciled] {
        var found: [Int64: Reconciled] = [:]
        let oidField = metadata.objectIdField ?? "OBJECTID"
        let adds = edits.filter { $0.kind == .add }
        if let field = metadata.globalIdField {
            let ids = adds.compactMap(\.globalId)
            for start in stride(from: 0, to: ids.count, by: 200) {
                let part = ids[start..<min(start + 200, ids.count)]
                let quoted = part.flatMap { [Self.sql($0), Self.sql(ArcGISEditAnswer.normalized($0))] }.joined(separator: ",")
                let rows = try await queryRows(where: "\(field) IN (\(quoted))", outFields: [oidField, field])
                for row in rows {
                    guard let id = row[oidField]?.int, let global = row[field]?.string,
                        let edit = adds.first(where: { $0.globalId.map(ArcGISEditAnswer.normalized) == ArcGISEditAnswer.normalized(global) }
                        )
                    else { continue }
                    found[edit.objectId] = .landed(EditOutcome(objectId: edit.objectId, serverObjectId: id, globalId: global))
                }
            }
        }
        // Adds without a GlobalID, and deletes: found by the source's own queries.
        let rest = edits.filter { $0.kind == .delete || ($0.kind == .add && $0.globalId == nil) }
        for (edit, answer) in zip(rest, try await reconcileByQuery(rest, metadata: metadata, isCached: isCached)) {
            found[edit.objectId] = answer
        }
        // An add with a GlobalID not found by it did not land (the query is by the id the client chose).
        return edits.map { found[$0.objectId] ?? .absent }
    }

    /// With editor tracking, an update or delete of a feature whose edit date on
    /// the service is later than the cached one is a conflict.
    func conflicts(_ edits: [LocalEdit], metadata: TableMetadata) async throws(FeatureCacheError) -> [Int64: FeatureCacheError] {
        guard let dateField = metadata.editing.editDateField, !edits.isEmpty else { return [:] }
        let oidField = metadata.objectIdField ?? "OBJECTID"
        var cached: [Int64: Int64] = [:]
        for edit in edits {
            guard let original = edit.original, let column = original.columnIndex(named: dateField), !original.columns[column].isNull(0)
            else { continue }
            cached[edit.objectId] = original.columns[column].int64(0)
        }
        guard !cached.isEmpty else { return [:] }
        var conflicts: [Int64: FeatureCacheError] = [:]
        for row in try await queryRows(objectIds: Array(cached.keys), outFields: [oidField, dateField]) {
            guard let id = row[oidField]?.int, let date = row[dateField]?.int, let known = cached[id], date > known else { continue }
            conflicts[id] = FeatureCacheError(
                .conflict,
                "feature \(id) was edited on the service (\(dateField) \(date)) after it was cached (\(known)): refresh it, then edit again"
            )
        }
        return conflicts
    }

    private func queryRows(
        where clause: String = "1=1", objectIds: [Int64] = [], outFields: [String]
    ) async throws(FeatureCacheError) -> [JSONValue] {
        var url = RequestURL(base: layerURL.appendingPath("query").base, parameters: layerURL.parameters)
        url.set("where", clause)
        if !objectIds.isEmpty { url.set("objectIds", objectIds.map(String.init).joined(separator: ",")) }
        url.set("outFields", outFields.joined(separator: ","))
        url.set("returnGeometry", "false")
        let json = try await requester.getJSON(url)
        return (json["features"]?.array ?? []).compactMap { $0["attributes"] }
    }

    private static func sql(_ text: String) -> String { "'" + text.replacingAll("'", with: "''") + "'" }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
