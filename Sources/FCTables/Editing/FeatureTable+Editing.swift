// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// Local edits and applying them (the ArcGIS SDK's `addFeature`, `updateFeature`,
/// `deleteFeature`, `undoLocalEdits`, `applyEdits`). An edit is checked against
/// the schema, kept pending and shown by the cache at once; an apply sends the
/// pending edits and leaves each one either applied (the cache then holds the
/// service's version) or pending — never lost, never sent twice: an edit whose
/// answer was lost is looked up on the service before it is sent again.
extension FeatureTable {
    /// The writing side of the table's source; `.unsupported` for a read-only kind.
    private var editor: any FeatureEditor {
        get throws(FeatureCacheError) {
            guard let editor = source as? any FeatureEditor else {
                throw FeatureCacheError(.unsupported, "\(serviceKindName) tables cannot be edited")
            }
            return editor
        }
    }

    /// The metadata of a loaded table that may take an edit of `kind`.
    private func editableMetadata(_ kind: EditKind) throws(FeatureCacheError) -> TableMetadata {
        _ = try editor
        let metadata = try metadata()
        let editing = metadata.editing
        let allowed = kind == .add ? editing.canAdd : kind == .update ? editing.canUpdate : editing.canDelete
        guard allowed else {
            let said = editing.declared.isEmpty ? "" : " (\(editing.declared))"
            throw FeatureCacheError(
                .unsupported,
                "the service does not allow features to be \(kind == .add ? "added" : kind == .update ? "updated" : "deleted")\(said)")
        }
        guard requestMode != .onInteractionNoCache else {
            throw .invalidState(
                "edits are kept in the cache: the no-cache request mode has none (use on-interaction cache or manual cache)")
        }
        return metadata
    }

    /// Adds a feature locally; returns its local (negative) object id, which
    /// an apply replaces with the service's.
    public func addFeature(_ draft: FeatureDraft) throws(FeatureCacheError) -> Int64 {
        let metadata = try editableMetadata(.add)
        let checked = try EditValidator(metadata: metadata).check(draft, adding: true)
        var values = metadata.fields.map { $0.defaultValue ?? .null }
        for (index, value) in checked.values { values[index] = value }
        let id = edits.newLocalId()
        let globalId = try editor.newGlobalId(metadata)
        if let globalId, let field = metadata.globalIdField,
            let index = metadata.fields.firstIndex(where: { $0.name.lowercased() == field.lowercased() })
        {
            values[index] = .text(globalId)
        }
        let row = try EditedRow.make(
            values: values, geometry: checked.geometry?.wkb, box: checked.geometry?.box, objectId: id, metadata: metadata)
        try edits.put(LocalEdit(objectId: id, kind: .add, current: row, globalId: globalId))
        show(row)
        return id
    }

    /// Updates a cached feature (or a pending add) locally: the fields and
    /// geometry the draft sets change, the rest stay.
    public func updateFeature(_ objectId: Int64, _ draft: FeatureDraft) throws(FeatureCacheError) {
        let pending = edits.edit(objectId)
        let metadata = try editableMetadata(pending?.kind == .add ? .add : .update)
        let editor = try editor
        guard !draft.isEmpty else { throw .invalidArgument("the update sets no field and no geometry") }
        if pending?.kind == .delete { throw .invalidState("feature \(objectId) is deleted locally: undo the delete first") }
        guard let cached = store.locate(objectId) else {
            throw .notFound("feature \(objectId) is not in the cache: populate or query it before updating it")
        }
        let checked = try EditValidator(metadata: metadata).check(draft, adding: false)
        var values = EditedRow.values(of: cached.batch, row: cached.row, fields: metadata.fields)
        for (index, value) in checked.values { values[index] = value }
        let geometry = draft.clearsGeometry ? nil : checked.geometry?.wkb ?? EditedRow.geometry(of: cached.batch, row: cached.row)
        let row = try EditedRow.make(
            values: values, geometry: geometry, box: draft.clearsGeometry ? nil : checked.geometry?.box, objectId: objectId,
            metadata: metadata)
        var edit = pending ?? LocalEdit(objectId: objectId, kind: .update, original: cached.batch.selecting([cached.row]))
        edit.current = row
        if edit.kind == .update {
            let names = checked.values.keys.map { metadata.fields[$0].name }
            edit.changedFields += names.filter { name in !edit.changedFields.contains(name) }
            edit.geometryChanged = edit.geometryChanged || checked.geometry != nil || draft.clearsGeometry
            edit.serviceId = edit.serviceId ?? editor.serviceId(of: objectId)
        }
        edit.lastError = nil
        try edits.put(edit)
        show(row)
    }

    /// Deletes a feature locally (a pending add is simply dropped).
    public func deleteFeature(_ objectId: Int64) throws(FeatureCacheError) {
        if let pending = edits.edit(objectId), pending.kind == .add {
            _ = try editableMetadata(.add)
            edits.remove(objectId)
            hide(objectId)
            return
        }
        _ = try editableMetadata(.delete)
        if edits.edit(objectId)?.kind == .delete { return }
        let original: FeatureBatch
        if let pending = edits.edit(objectId), let kept = pending.original {
            original = kept
        } else if let cached = store.locate(objectId) {
            original = cached.batch.selecting([cached.row])
        } else {
            throw .notFound("feature \(objectId) is not in the cache: populate or query it before deleting it")
        }
        let serviceId = try editor.serviceId(of: objectId)
        try edits.put(LocalEdit(objectId: objectId, kind: .delete, original: original, serviceId: serviceId))
        hide(objectId)
    }

    /// Undoes the pending edits of these features (all when `ids` is nil): the
    /// cache shows the service's version again (and loses local adds).
    /// Returns how many edits were undone.
    @discardableResult
    public func undoEdits(_ ids: [Int64]? = nil) -> Int {
        let targets = ids ?? edits.snapshot().map(\.objectId)
        var undone = 0
        var delta = recordsChanges ? StoreDelta() : nil
        for id in targets {
            guard let edit = edits.remove(id) else { continue }
            undone += 1
            if let original = edit.original {
                store.apply([original], clearingFirst: false, keepingFinerCopies: false, recording: &delta)
            } else {
                store.remove([id], recording: &delta)
            }
        }
        if undone > 0 {
            featuresChanged.send(undone)
            tell(delta, .edit)
            cacheChanged()
        }
        return undone
    }

    /// Whether the table has edits not yet applied.
    public var hasLocalEdits: Bool { !edits.isEmpty }

    /// The pending edits, in the order they were made, each with its state
    /// (pending, in doubt, refused) and the last apply's refusal of it, if any.
    public var localEdits: [EditResult] {
        edits.snapshot().map { edit in
            EditResult(edit, state: edit.state, error: edit.lastError, serverId: serverIdText(of: edit))
        }
    }

    /// The service's own id of a feature, as the service writes it (an OGC API
    /// item id, a WFS `gml:id`, an ArcGIS object id as text); nil for a local
    /// add and for an id the table never saw.
    public func serverId(of objectId: Int64) -> String? {
        objectId > 0 ? source.serviceId(of: objectId) : nil
    }

    /// The service's own id of an edit's feature; nil for an add not applied.
    private func serverIdText(of edit: LocalEdit) -> String? {
        edit.kind == .add ? nil : edit.serviceId ?? source.serviceId(of: edit.objectId)
    }

    // MARK: - Apply

    /// Sends the pending edits to the service, as few requests as it allows,
    /// and returns an outcome per edit sent. Applied edits leave the log and
    /// the cache re-reads those features from the service (new ids, defaults,
    /// server-computed fields); refused edits stay pending, unchanged, with
    /// their error. Edits a lost answer left in doubt are looked up on the
    /// service first and sent again only when it does not have them. Throws
    /// when a request got no answer (those edits stay pending, in doubt) or was
    /// cancelled; edits of requests answered before stay applied
    /// (`applyEditsReporting` gives the outcomes then too).
    public func applyEdits(
        options: ApplyOptions = ApplyOptions(), progress: PopulateProgress? = nil
    ) async throws(FeatureCacheError) -> [EditResult] {
        let report = await applyEditsReporting(options: options, progress: progress)
        if let error = report.error { throw error }
        return report.results
    }

    /// An apply's outcome: one result per edit it was given, always — the
    /// applied, the refused, and, when the apply stopped (`error`), those in
    /// doubt and those not sent.
    public struct ApplyReport: Sendable {
        public var results: [EditResult]
        /// Why the apply stopped before its end; nil when it ran through.
        public var error: FeatureCacheError?
    }

    /// `applyEdits`, never throwing: the outcome of every edit, and the error
    /// that stopped the apply, if one did.
    public func applyEditsReporting(options: ApplyOptions = ApplyOptions(), progress: PopulateProgress? = nil) async -> ApplyReport {
        await applyEditsReporting(options: options, progress: progress, conflicts: [:])
    }

    /// `applyEditsReporting`, with conflicts the caller knows of already (a
    /// synchronize's changed ids): those edits are refused with them, not sent.
    package func applyEditsReporting(
        options: ApplyOptions, progress: PopulateProgress?, conflicts known: [Int64: FeatureCacheError]
    ) async -> ApplyReport {
        var results: [EditResult] = []
        var given: [LocalEdit] = []
        do {
            try await apply(options: options, progress: progress, known: known, given: &given, results: &results)
            return ApplyReport(results: results, error: nil)
        } catch {
            let answered = Set(results.map(\.objectId))
            for edit in given where !answered.contains(edit.objectId) {
                let now = edits.edit(edit.objectId)
                let inDoubt = now?.inDoubt ?? false
                results.append(
                    EditResult(
                        edit, state: inDoubt ? .inDoubt : .pending, error: inDoubt ? error : nil, serverId: serverIdText(of: edit)))
            }
            return ApplyReport(results: results, error: error)
        }
    }

    private func apply(
        options: ApplyOptions, progress: PopulateProgress?, known: [Int64: FeatureCacheError], given: inout [LocalEdit],
        results: inout [EditResult]
    ) async throws(FeatureCacheError) {
        try await load()
        let editor = try editor
        let metadata = try metadata()
        var landed = LandedEdits()
        let gate = context.gate(for: url)
        try await gate.acquire()
        defer { gate.release() }

        var pending = edits.snapshot()
        given = pending
        guard !pending.isEmpty else { return }
        // 1. What a lost answer left in doubt: ask the service before sending again.
        let doubtful = pending.filter(\.inDoubt)
        if !doubtful.isEmpty {
            let store = self.store
            let found = try await editor.reconcile(doubtful, metadata: metadata) { store.locate($0) != nil }
            var settled = Set<Int64>()
            for (edit, answer) in zip(doubtful, found) {
                switch answer {
                case let .landed(outcome):
                    results.append(land(edit, outcome, metadata: metadata, into: &landed))
                    settled.insert(edit.objectId)
                case .absent:
                    edits.update(edit.objectId) { $0.inDoubt = false }
                case let .unknown(error):
                    // Not sent again blindly: it stays in doubt, reported.
                    edits.update(edit.objectId) { $0.lastError = error }
                    results.append(EditResult(edit, state: .inDoubt, error: error, serverId: nil))
                    settled.insert(edit.objectId)
                }
            }
            commit(&landed)
            pending = pending.filter { !settled.contains($0.objectId) }.map { edit in
                var edit = edit
                edit.inDoubt = false
                return edit
            }
        }
        // 2. Features changed on the service since they were cached are conflicts, not overwritten.
        let wasInDoubt = Set(doubtful.map(\.objectId))
        let asked = pending.filter { $0.kind != .add && !wasInDoubt.contains($0.objectId) && known[$0.objectId] == nil }
        let sendable = Set(pending.map(\.objectId)).subtracting(wasInDoubt)
        let conflicts = try await editor.conflicts(asked, metadata: metadata).merging(
            known.filter { sendable.contains($0.key) }
        ) { found, _ in found }
        for edit in pending {
            guard let conflict = conflicts[edit.objectId] else { continue }
            edits.update(edit.objectId) { $0.lastError = conflict }
            results.append(EditResult(edit, state: .refused, error: conflict, serverId: serverIdText(of: edit)))
        }
        pending = pending.filter { conflicts[$0.objectId] == nil }
        // 3. Send, in requests of the service's size, in the order edits were made.
        let size = max(1, editor.maxEditsPerRequest(metadata))
        var sent = 0
        var start = 0
        while start < pending.count {
            try Task.checkCancellationTyped()
            let chunk = Array(pending[start..<min(start + size, pending.count)])
            start += chunk.count
            try edits.markInDoubt(chunk.map(\.objectId))
            let outcomes: [EditOutcome]
            do {
                outcomes = try await editor.send(chunk, metadata: metadata, options: options)
            } catch {
                // No answer: the service may have any of them. They stay pending,
                // in doubt, and the next apply asks before sending them again.
                await rereadApplied(landed.reread, metadata: metadata)
                throw error
            }
            // Each edit leaves doubt in the one change that lands it (a record
            // clearing the doubt first, then a crash, would leave it to be sent again).
            for (edit, outcome) in zip(chunk, outcomes) {
                results.append(land(edit, outcome, metadata: metadata, into: &landed))
            }
            commit(&landed)
            sent += chunk.count
            progress?(FetchProgress(pages: (sent + size - 1) / size, features: sent, totalFeatures: pending.count))
        }
        await rereadApplied(landed.reread, metadata: metadata)
        await flushCache()
    }

    /// What landing a request's edits changes in the cache, written in one step
    /// per request (one store change for a thousand adds, not a thousand).
    private struct LandedEdits {
        /// Local ids of applied adds, and their rows under the service's ids.
        var removed: [Int64] = []
        var added: [FeatureBatch] = []
        /// Applied adds and updates, to be read back from the service.
        var reread: [Int64] = []
    }

    private func commit(_ landed: inout LandedEdits) {
        var delta = recordsChanges ? StoreDelta() : nil
        store.remove(landed.removed, recording: &delta)
        if !landed.added.isEmpty {
            let rows = landed.added.count == 1 ? landed.added[0] : FeatureBatch.concatenating(landed.added)
            store.apply([rows], clearingFirst: false, keepingFinerCopies: false, recording: &delta)
            interaction.pin((0..<rows.count).map(rows.objectId))
        }
        landed.removed = []
        landed.added = []
        tell(delta, .apply)
    }

    /// Records what the service said of one edit: applied → out of the log and
    /// into the cache under the service's id; refused → pending with its error.
    private func land(_ edit: LocalEdit, _ outcome: EditOutcome, metadata: TableMetadata, into cache: inout LandedEdits) -> EditResult {
        if let error = outcome.error {
            // A protocol error is no word on the edit: it may have landed, so it is in doubt.
            let inDoubt = error.code == .protocol
            edits.update(edit.objectId) {
                $0.lastError = error
                $0.inDoubt = inDoubt
            }
            return EditResult(
                edit, state: inDoubt ? .inDoubt : .refused, error: error,
                serverId: serverIdText(of: edit))
        }
        let serverId = edit.kind == .add ? outcome.serverObjectId ?? 0 : edit.objectId
        let current = edits.edit(edit.objectId)
        let unchangedSince = current?.revision == edit.revision
        switch edit.kind {
        case .add:
            edits.remove(edit.objectId)
            cache.removed.append(edit.objectId)
            let row = current?.current ?? edit.current
            if let row, let renumbered = try? EditedRow.renumbered(row, to: serverId, metadata: metadata) {
                cache.added.append(renumbered)
                if current != nil, !unchangedSince {
                    // Edited again while the apply ran: the later version is now
                    // an update of the new feature, every writable field sent.
                    var update = LocalEdit(objectId: serverId, kind: .update, current: renumbered)
                    update.changedFields = metadata.fields.filter(\.editable).map(\.name)
                    update.geometryChanged = true
                    update.serviceId = outcome.serverId
                    try? edits.put(update, keepingUnrecorded: true)
                } else {
                    cache.reread.append(serverId)
                }
            } else if current == nil {
                cache.reread.append(serverId)  // undone while the apply ran: the service has it all the same
            }
        case .update:
            if !edits.remove(edit.objectId, ifRevision: edit.revision) { edits.update(edit.objectId) { $0.inDoubt = false } }
            cache.reread.append(serverId)
        case .delete:
            if !edits.remove(edit.objectId, ifRevision: edit.revision) { edits.update(edit.objectId) { $0.inDoubt = false } }
        }
        let text =
            outcome.serverId ?? (edit.kind == .add ? nil : edit.serviceId) ?? (serverId > 0 ? source.serviceId(of: serverId) : nil)
        return EditResult(
            objectId: edit.objectId, serverObjectId: serverId, kind: edit.kind, globalId: outcome.globalId ?? edit.globalId,
            state: .applied, serverId: text)
    }

    /// The service's version of applied adds and updates (new ids, defaults,
    /// server-computed fields) replaces the local one. A failure here changes
    /// nothing: the edits are applied, and the cache keeps the local version.
    private func rereadApplied(_ ids: [Int64], metadata: TableMetadata) async {
        guard !ids.isEmpty else { return }
        let size = max(1, metadata.maxRecordCount)
        for start in stride(from: 0, to: ids.count, by: size) {
            var query = QueryParameters()
            query.objectIds = Array(ids[start..<min(start + size, ids.count)])
            guard var fetched = try? await source.fetch(query, outFields: nil, metadata: metadata, progress: nil) else { return }
            fetched.compact()
            _ = merge(fetched, clearingFirst: false, pinned: true, metadata: metadata, cause: .apply)
        }
    }

    // MARK: - The cache shows edits

    /// Puts the user's version of a feature in the cache, pinned.
    private func show(_ row: FeatureBatch) {
        var delta = recordsChanges ? StoreDelta() : nil
        store.apply([row], clearingFirst: false, keepingFinerCopies: false, recording: &delta)
        interaction.pin([row.objectId(0)])
        featuresChanged.send(1)
        tell(delta, .edit)
        cacheChanged()
    }

    private func hide(_ objectId: Int64) {
        var delta = recordsChanges ? StoreDelta() : nil
        store.remove([objectId], recording: &delta)
        featuresChanged.send(1)
        tell(delta, .edit)
        cacheChanged()
    }

    /// After the cache was emptied: the pending edits are shown again.
    package func restoreEdits() {
        let overlay = edits.overlay()
        guard !overlay.hidden.isEmpty else { return }
        store.apply(Array(overlay.rows.values), clearingFirst: false, keepingFinerCopies: false)
        interaction.pin(Array(overlay.rows.keys))
    }
}
