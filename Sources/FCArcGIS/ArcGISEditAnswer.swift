// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// What an ArcGIS `applyEdits` answer says of each edit: its `addResults`,
/// `updateResults` and `deleteResults`, matched to the edits by GlobalID where
/// the answer gives them (with or without braces), else by place. The shapes
/// users reported from real servers are read: a failed add with no `objectId`,
/// a refused edit with the other arrays empty (rolled back), results missing.
package enum ArcGISEditAnswer {

    /// What an `applyEdits` answer says of each edit it carried (adds, then
    /// updates, then deletes), from its three result arrays.
    package static func outcomes(
        of json: JSONValue, adds: [LocalEdit], updates: [LocalEdit], deletes: [LocalEdit], useGlobalIds: Bool, rolledBack: Bool,
        metadata: TableMetadata
    ) -> [EditOutcome] {
        var outcomes: [EditOutcome] = []
        for (key, group) in [("addResults", adds), ("updateResults", updates), ("deleteResults", deletes)] where !group.isEmpty {
            let results = json[key]?.array ?? []
            var byGlobalId: [String: JSONValue] = [:]
            if useGlobalIds {
                for result in results { if let id = result["globalId"]?.string { byGlobalId[normalized(id)] = result } }
            }
            let anyFailed = results.contains { $0["success"]?.bool != true }
            for (position, edit) in group.enumerated() {
                // By GlobalID when the answer gives them; else by place, which
                // says something only when every edit has its entry.
                let byPlace = position < results.count && (results.count == group.count || !useGlobalIds) ? results[position] : nil
                let result = useGlobalIds ? globalId(of: edit, metadata).flatMap { byGlobalId[normalized($0)] } ?? byPlace : byPlace
                outcomes.append(outcome(edit, result, rolledBack: rolledBack || anyFailed && results.count < group.count))
            }
        }
        return outcomes
    }

    /// What one entry of a results array says; an edit with no entry was rolled
    /// back (when the request asked for it, or another failed) or is unknown.
    private static func outcome(_ edit: LocalEdit, _ result: JSONValue?, rolledBack: Bool) -> EditOutcome {
        guard let result, result.isObject else {
            return EditOutcome(
                objectId: edit.objectId,
                error: rolledBack
                    ? FeatureCacheError(.service, "not applied: the request was rolled back (another edit of it failed)")
                    : .protocol("the applyEdits answer has no result for this \(edit.kind.name)"))
        }
        if result["success"]?.bool == true {
            let id = result["objectId"]?.int
            guard edit.kind != .add || id != nil else {
                return EditOutcome(objectId: edit.objectId, error: .protocol("the service added the feature but gave no objectId"))
            }
            return EditOutcome(objectId: edit.objectId, serverObjectId: id, globalId: result["globalId"]?.string ?? edit.globalId)
        }
        let error = result["error"]
        let code = Int32(clamping: error?["code"]?.int ?? 0)
        let text = error?["description"]?.string ?? error?["message"]?.string ?? "the service refused the \(edit.kind.name)"
        return EditOutcome(objectId: edit.objectId, error: FeatureCacheError(.service, text, serviceCode: code))
    }

    /// The GlobalID naming an edit's feature: an add's own, else the cached row's.
    package static func globalId(of edit: LocalEdit, _ metadata: TableMetadata) -> String? {
        if let id = edit.globalId { return id }
        guard let field = metadata.globalIdField, let row = edit.original ?? edit.current, let column = row.columnIndex(named: field),
            !row.columns[column].isNull(0)
        else { return nil }
        return row.columns[column].string(0)
    }

    /// GlobalIDs compare without braces and case: ArcGIS Online answers
    /// `8f2…` where ArcGIS Enterprise takes and answers `{8F2…}`.
    package static func normalized(_ globalId: String) -> String {
        globalId.trimmingCharacters(in: "{} ").uppercased()
    }
}
