// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// One pending change of one feature, as the table keeps it until an apply
/// lands it: the user's version of the row and, for undo and conflict checks,
/// the server's version it replaced. Rows are one-row batches in the table's
/// layout, so the cache stores the user's version like any other feature.
package struct LocalEdit: Sendable {
    /// The id the caller knows: a local, negative id for an add.
    package let objectId: Int64
    package var kind: EditKind
    /// The feature as the user left it (adds and updates).
    package var current: FeatureBatch?
    /// The feature as the service last sent it (updates and deletes).
    package var original: FeatureBatch?
    /// Updates: the fields whose values changed (as the schema names them).
    package var changedFields: [String] = []
    package var geometryChanged = false
    /// Adds: the GlobalID made here, when the layer takes client GlobalIDs.
    package var globalId: String?
    /// The service's own id text (OGC API, WFS), for updates and deletes.
    package var serviceId: String?
    /// Sent, with no answer back (a timeout, a reset, a cancel mid-request):
    /// the service may have it. The next apply asks the service before sending again.
    package var inDoubt = false
    /// The last apply's refusal of this edit.
    package var lastError: FeatureCacheError?
    /// Bumped by every change of the edit: an apply lands only the revision it sent.
    package var revision = 0
    /// Order of first edit: applies send edits in this order.
    package var sequence = 0

    package init(
        objectId: Int64, kind: EditKind, current: FeatureBatch? = nil, original: FeatureBatch? = nil, globalId: String? = nil,
        serviceId: String? = nil
    ) {
        self.objectId = objectId
        self.kind = kind
        self.current = current
        self.original = original
        self.globalId = globalId
        self.serviceId = serviceId
    }
}

extension LocalEdit {
    /// Where the edit stands for the caller.
    package var state: EditState { inDoubt ? .inDoubt : lastError != nil ? .refused : .pending }
}

extension EditResult {
    /// An edit as the caller sees it, in `state`.
    package init(_ edit: LocalEdit, state: EditState, error: FeatureCacheError?, serverId: String?) {
        self.init(
            objectId: edit.objectId, serverObjectId: edit.kind == .add ? 0 : edit.objectId, kind: edit.kind, globalId: edit.globalId,
            error: error, state: state, serverId: serverId)
    }
}

/// A table's pending edits, by object id. Thread-safe.
package final class LocalEditLog: Sendable {
    fileprivate struct State {
        var edits: [Int64: LocalEdit] = [:]
        var nextLocalId: Int64 = -1
        var nextSequence = 0
        /// Where every change is recorded as it is made (a persisted cache's journal).
        var recorder: (any EditRecorder)?
    }
    private let state = Locked(State())

    package init() {}

    /// Records every later change with `recorder` (nil: none). The edits it
    /// replays (`restore`) come first.
    package func attach(_ recorder: (any EditRecorder)?) {
        state.withLock { $0.recorder = recorder }
    }

    /// The edits a persisted cache kept, with the counters they were made with.
    package func restore(_ restored: [LocalEdit], nextLocalId: Int64, nextSequence: Int) {
        state.withLock { state in
            state.edits = Dictionary(restored.map { ($0.objectId, $0) }, uniquingKeysWith: { $1 })
            state.nextLocalId = min(nextLocalId, (restored.map(\.objectId).min() ?? 0) - 1, -1)
            state.nextSequence = max(nextSequence, (restored.map(\.sequence).max() ?? -1) + 1)
        }
    }

    /// The counters a journal snapshot keeps.
    package var counters: (nextLocalId: Int64, nextSequence: Int) {
        state.withLock { ($0.nextLocalId, $0.nextSequence) }
    }

    package var isEmpty: Bool { state.withLock { $0.edits.isEmpty } }
    package var count: Int { state.withLock { $0.edits.count } }

    /// A new id for an added feature: negative, never one a service gives.
    package func newLocalId() -> Int64 {
        state.withLock { state in
            defer { state.nextLocalId -= 1 }
            return state.nextLocalId
        }
    }

    package func edit(_ id: Int64) -> LocalEdit? { state.withLock { $0.edits[id] } }

    package func contains(_ id: Int64) -> Bool { state.withLock { $0.edits[id] != nil } }

    /// Records a new or changed edit (a new revision). With a recorder, the
    /// edit is recorded first: when that fails (a full disk) nothing changes,
    /// unless `keepingUnrecorded` (an edit the user made already, kept in memory).
    package func put(_ edit: LocalEdit, keepingUnrecorded: Bool = false) throws(FeatureCacheError) {
        try state.withLock { (state) throws(FeatureCacheError) in
            var edit = edit
            if let old = state.edits[edit.objectId] {
                edit.revision = old.revision + 1
                edit.sequence = old.sequence
            } else {
                edit.sequence = state.nextSequence
            }
            do throws(FeatureCacheError) {
                try state.recorder?.record(edit, counters: (state.nextLocalId, max(state.nextSequence, edit.sequence + 1)))
            } catch {
                if !keepingUnrecorded { throw error }
            }
            if state.edits[edit.objectId] == nil { state.nextSequence += 1 }
            state.edits[edit.objectId] = edit
            state.compactIfWorthIt()
        }
    }

    @discardableResult
    package func remove(_ id: Int64) -> LocalEdit? {
        state.withLock { state -> LocalEdit? in
            guard let removed = state.edits.removeValue(forKey: id) else { return nil }
            state.recordRemoval(id)
            return removed
        }
    }

    /// Marks edits as sent with no answer yet, recorded (and flushed to disk)
    /// before the request goes: a crash while it is out leaves them in doubt,
    /// never pending as if unsent. Throws, changing nothing, when that fails.
    package func markInDoubt(_ ids: [Int64]) throws(FeatureCacheError) {
        try state.withLock { (state) throws(FeatureCacheError) in
            if let recorder = state.recorder {
                for id in ids {
                    guard var edit = state.edits[id] else { continue }
                    edit.inDoubt = true
                    try recorder.record(edit, counters: (state.nextLocalId, state.nextSequence))
                }
                try recorder.sync()
            }
            for id in ids { state.edits[id]?.inDoubt = true }
        }
    }

    /// Removes an edit only if it is still the revision an apply sent (an edit
    /// made while the apply ran stays pending).
    @discardableResult
    package func remove(_ id: Int64, ifRevision revision: Int) -> Bool {
        state.withLock { state in
            guard state.edits[id]?.revision == revision else { return false }
            state.edits[id] = nil
            state.recordRemoval(id)
            return true
        }
    }

    /// Changes an edit in place without a new revision (apply bookkeeping).
    package func update(_ id: Int64, _ change: (inout LocalEdit) -> Void) {
        state.withLock { state in
            guard var edit = state.edits[id] else { return }
            change(&edit)
            state.edits[id] = edit
            // Bookkeeping is recorded at its best: a lost record leaves the edit
            // as it was recorded before (in doubt, say), which is safe.
            try? state.recorder?.record(edit, counters: (state.nextLocalId, state.nextSequence))
        }
    }

    /// Every pending edit, in the order they were first made.
    package func snapshot() -> [LocalEdit] {
        state.withLock { $0.edits.values.sorted { $0.sequence < $1.sequence } }
    }

    /// The rows the cache must show instead of the service's: the user's
    /// versions (adds, updates), and the ids it must not show (deletes).
    package func overlay() -> (rows: [Int64: FeatureBatch], hidden: Set<Int64>) {
        state.withLock { state in
            var rows: [Int64: FeatureBatch] = [:]
            var hidden = Set<Int64>()
            for edit in state.edits.values {
                hidden.insert(edit.objectId)
                if let current = edit.current { rows[edit.objectId] = current }
            }
            return (rows, hidden)
        }
    }
}

extension LocalEditLog.State {
    fileprivate func recordRemoval(_ id: Int64) {
        try? recorder?.recordRemoval(id, counters: (nextLocalId, nextSequence))
        compactIfWorthIt()
    }

    /// A long journal is rewritten as the edits it leaves (a failure keeps it long).
    fileprivate func compactIfWorthIt() {
        guard let recorder, recorder.wantsCompaction else { return }
        try? recorder.compact(edits.values.sorted { $0.sequence < $1.sequence }, counters: (nextLocalId, nextSequence))
    }
}

/// Where a table's edit log records its changes as they are made (the
/// persisted cache's journal). Called under the log's lock, in order.
package protocol EditRecorder: Sendable {
    func record(_ edit: LocalEdit, counters: (nextLocalId: Int64, nextSequence: Int)) throws(FeatureCacheError)
    func recordRemoval(_ id: Int64, counters: (nextLocalId: Int64, nextSequence: Int)) throws(FeatureCacheError)
    /// Flushes what was recorded to the disk.
    func sync() throws(FeatureCacheError)
    /// Whether the records are many more than the edits they leave.
    var wantsCompaction: Bool { get }
    /// Replaces the records by one per edit.
    func compact(_ edits: [LocalEdit], counters: (nextLocalId: Int64, nextSequence: Int)) throws(FeatureCacheError)
}
