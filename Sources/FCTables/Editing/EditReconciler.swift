// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// Finding on the service what a lost answer left in doubt, through the
/// source's own queries (any protocol): a delete landed when the feature is
/// gone; an add landed when a feature with every value it carries lies where
/// its geometry is (the newest such feature: without an id the client made,
/// nothing better tells one added feature from another with the same values).
extension FeatureEditor {
    package func reconcileByQuery(_ edits: [LocalEdit], metadata: TableMetadata) async throws(FeatureCacheError) -> [EditOutcome?] {
        var found: [Int64: EditOutcome] = [:]
        var claimed = Set<Int64>()
        for edit in edits where edit.kind == .add {
            guard let row = edit.current else { continue }
            if let id = try await newestMatch(of: row, metadata: metadata, excluding: claimed) {
                claimed.insert(id)
                found[edit.objectId] = EditOutcome(objectId: edit.objectId, serverObjectId: id)
            }
        }
        let deletes = edits.filter { $0.kind == .delete }.map(\.objectId)
        if !deletes.isEmpty {
            var query = QueryParameters()
            query.objectIds = deletes
            query.returnGeometry = false
            let present = Set(try await fetch(query, outFields: nil, metadata: metadata, progress: nil, maxPages: nil).objectIds)
            for id in deletes where !present.contains(id) { found[id] = EditOutcome(objectId: id) }
        }
        return edits.map { found[$0.objectId] }
    }

    /// The newest feature on the service with the row's integer and text
    /// values (NULLs too) inside the row's geometry box.
    private func newestMatch(
        of row: FeatureBatch, metadata: TableMetadata, excluding claimed: Set<Int64>
    ) async throws(FeatureCacheError) -> Int64? {
        let values = EditedRow.values(of: row, row: 0, fields: metadata.fields)
        var clauses: [String] = []
        for (index, field) in metadata.fields.enumerated() where field.editable {
            let name = "\"\(field.name.replacingAll("\"", with: "\"\""))\""
            switch values[index] {
            case .null: clauses.append("\(name) IS NULL")
            case let .integer(v): clauses.append("\(name) = \(v)")
            case let .text(v): clauses.append("\(name) = '\(v.replacingAll("'", with: "''"))'")
            case .double, .boolean: continue  // not compared exactly by every service
            }
        }
        var query = QueryParameters()
        query.whereClause = clauses.joined(separator: " AND ")
        query.returnGeometry = false
        let (xmin, ymin, xmax, ymax) = row.geometry.box(0)
        if !row.geometry.wkb(0).isEmpty, xmin.isFinite, ymin.isFinite {
            let pad = Swift.max(1e-9, Swift.max(xmax - xmin, ymax - ymin) * 1e-6)
            query.geometry = .envelope(
                Envelope(
                    xmin: xmin - pad, ymin: ymin - pad, xmax: xmax + pad, ymax: ymax + pad, spatialReference: metadata.spatialReference))
        }
        let fetched = try await fetch(query, outFields: nil, metadata: metadata, progress: nil, maxPages: nil)
        return fetched.objectIds.filter { !claimed.contains($0) && $0 > 0 }.max()
    }
}
