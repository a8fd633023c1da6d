// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// What the service says of an edit whose answer was lost.
package enum Reconciled: Sendable {
    /// It landed: the service has it (an add under this id).
    case landed(EditOutcome)
    /// It did not land, by a query the service cannot get wrong: send it again.
    case absent
    /// No such query could tell: it stays in doubt, never sent again blindly.
    case unknown(FeatureCacheError)
}

/// Finding on the service what a lost answer left in doubt, through the
/// source's own queries (any protocol). A negative answer is trusted only from
/// a query the service cannot get wrong: a delete by the feature's own id, an
/// add by geometry alone — a box around it, no attribute filter (servers
/// compare query values as they please: pygeoapi's TinyDB provider finds no
/// `Status=2` where Status is the number 2) — whose features are then matched
/// here, value by value. An add without a geometry has no such query and stays
/// in doubt.
extension FeatureEditor {
    package func reconcileByQuery(
        _ edits: [LocalEdit], metadata: TableMetadata, isCached: @Sendable (Int64) -> Bool
    ) async throws(FeatureCacheError) -> [Reconciled] {
        var found: [Int64: Reconciled] = [:]
        var claimed = Set<Int64>()
        for edit in edits where edit.kind == .add {
            guard let row = edit.current else { continue }
            let answer = try await presence(of: row, metadata: metadata) { !claimed.contains($0) && !isCached($0) }
            if case let .landed(outcome) = answer, let id = outcome.serverObjectId { claimed.insert(id) }
            found[edit.objectId] = answer
        }
        let deletes = edits.filter { $0.kind == .delete }.map(\.objectId)
        if !deletes.isEmpty {
            var query = QueryParameters()
            query.objectIds = deletes
            query.returnGeometry = false
            let present = Set(try await fetch(query, outFields: nil, metadata: metadata, progress: nil, maxPages: nil).objectIds)
            for id in deletes { found[id] = present.contains(id) ? .absent : .landed(EditOutcome(objectId: id)) }
        }
        return edits.map { found[$0.objectId] ?? .absent }
    }

    /// Whether the service holds a feature with the row's geometry and every
    /// value it carries: the features in a box around its geometry (nothing
    /// else asked of the server) matched here. Several matches: the newest
    /// (without an id the client made, nothing better tells one added feature
    /// from another with the same values). A feature there that matches the
    /// geometry but not every value may be the add as the service stored it
    /// (rounded, normalised): in doubt, not absent.
    private func presence(
        of row: FeatureBatch, metadata: TableMetadata, candidate: (Int64) -> Bool
    ) async throws(FeatureCacheError) -> Reconciled {
        let objectId = row.objectId(0)
        let (xmin, ymin, xmax, ymax) = row.geometry.box(0)
        guard !row.geometry.wkb(0).isEmpty, xmin.isFinite, ymin.isFinite, xmax.isFinite, ymax.isFinite else {
            return Self.inDoubt(
                objectId, "a feature without a geometry can only be looked up by its values, which a service may compare wrongly")
        }
        // Servers round coordinates (a float column, a GML precision): the box is that much larger.
        let magnitude = Swift.max(abs(xmin), abs(ymin), abs(xmax), abs(ymax))
        let pad = Swift.max(1e-9, magnitude * 1e-7, Swift.max(xmax - xmin, ymax - ymin) * 1e-6)
        var query = QueryParameters()
        query.returnGeometry = true
        query.geometry = .envelope(
            Envelope(xmin: xmin - pad, ymin: ymin - pad, xmax: xmax + pad, ymax: ymax + pad, spatialReference: metadata.spatialReference))
        let fetched = try await fetch(query, outFields: nil, metadata: metadata, progress: nil, maxPages: nil)
        let wanted = EditedRow.values(of: row, row: 0, fields: metadata.fields)
        let compared = metadata.fields.indices.filter { metadata.fields[$0].editable }
        var newest: Int64? = nil
        var nearMiss: String? = nil
        for batch in fetched.batches {
            for index in 0..<batch.count {
                let id = batch.objectId(index)
                guard id > 0, candidate(id) else { continue }
                let (bxmin, bymin, bxmax, bymax) = batch.geometry.box(index)
                guard abs(bxmin - xmin) <= pad, abs(bymin - ymin) <= pad, abs(bxmax - xmax) <= pad, abs(bymax - ymax) <= pad else {
                    continue  // another feature near it, not at its place
                }
                let values = EditedRow.values(of: batch, row: index, fields: metadata.fields)
                if let differs = compared.first(where: { !Self.sameValue(wanted[$0], values[$0]) }) {
                    nearMiss =
                        nearMiss
                        ?? "feature \(id) lies at its place but its '\(metadata.fields[differs].name)' is \(values[differs]), not \(wanted[differs])"
                } else if newest.map({ id > $0 }) ?? true {
                    newest = id
                }
            }
        }
        if let newest { return .landed(EditOutcome(objectId: objectId, serverObjectId: newest)) }
        if let nearMiss { return Self.inDoubt(objectId, nearMiss) }
        return .absent
    }

    /// An add no lookup could settle, and why.
    private static func inDoubt(_ objectId: Int64, _ why: String) -> Reconciled {
        .unknown(
            FeatureCacheError(
                .protocol,
                "whether add \(objectId) reached the service is unknown: its answer was lost, and \(why); check the service, then undo the add (the service has it) or undo it and add it again (it does not)"
            ))
    }

    /// Whether a value the service holds is the one sent: numbers by value
    /// (an integer column may come back as a double), text exactly.
    package static func sameValue(_ sent: AttributeValue, _ held: AttributeValue) -> Bool {
        switch (sent, held) {
        case (.null, .null): return true
        case let (.text(a), .text(b)): return a == b
        default:
            guard let a = sent.number, let b = held.number else { return false }
            return a == b || abs(a - b) <= 1e-9 * Swift.max(abs(a), abs(b))
        }
    }
}

/// Features changed on the service since they were cached, found through the
/// source's own query by id (any protocol that reads features by id): an
/// update or delete of a feature whose values on the service differ from the
/// cached copy the edit was made on is a conflict; an update of a feature gone
/// from the service is one too (a delete of it is not: gone either way).
extension FeatureEditor {
    package func conflictsByQuery(
        _ edits: [LocalEdit], metadata: TableMetadata
    ) async throws(FeatureCacheError) -> [Int64: FeatureCacheError] {
        let checked = edits.filter { $0.original != nil && $0.objectId > 0 }
        guard !checked.isEmpty else { return [:] }
        var found: [Int64: FeatureCacheError] = [:]
        let size = max(1, min(metadata.maxRecordCount, 500))
        let compared = metadata.fields.indices.filter { metadata.fields[$0].editable }
        for start in stride(from: 0, to: checked.count, by: size) {
            let part = Array(checked[start..<min(start + size, checked.count)])
            var query = QueryParameters()
            query.objectIds = part.map(\.objectId)
            query.returnGeometry = false
            let fetched = try await fetch(query, outFields: nil, metadata: metadata, progress: nil, maxPages: nil)
            var now: [Int64: [AttributeValue]] = [:]
            for batch in fetched.batches {
                for row in 0..<batch.count { now[batch.objectId(row)] = EditedRow.values(of: batch, row: row, fields: metadata.fields) }
            }
            for edit in part {
                guard let original = edit.original else { continue }
                guard let values = now[edit.objectId] else {
                    if edit.kind == .update {
                        found[edit.objectId] = FeatureCacheError(
                            .conflict, "feature \(edit.objectId) was deleted on the service after it was cached")
                    }
                    continue
                }
                let cached = EditedRow.values(of: original, row: 0, fields: metadata.fields)
                if let field = compared.first(where: { !Self.sameValue(cached[$0], values[$0]) }) {
                    found[edit.objectId] = FeatureCacheError(
                        .conflict,
                        "feature \(edit.objectId) changed on the service after it was cached (its '\(metadata.fields[field].name)' differs): refresh it, then edit again"
                    )
                }
            }
        }
        return found
    }
}
