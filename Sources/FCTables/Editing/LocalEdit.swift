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

/// A table's pending edits, by object id. Thread-safe.
package final class LocalEditLog: Sendable {
    private struct State {
        var edits: [Int64: LocalEdit] = [:]
        var nextLocalId: Int64 = -1
        var nextSequence = 0
    }
    private let state = Locked(State())

    package init() {}

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

    /// Records a new or changed edit (a new revision).
    package func put(_ edit: LocalEdit) {
        state.withLock { state in
            var edit = edit
            if let old = state.edits[edit.objectId] {
                edit.revision = old.revision + 1
                edit.sequence = old.sequence
            } else {
                edit.sequence = state.nextSequence
                state.nextSequence += 1
            }
            state.edits[edit.objectId] = edit
        }
    }

    @discardableResult
    package func remove(_ id: Int64) -> LocalEdit? { state.withLock { $0.edits.removeValue(forKey: id) } }

    /// Removes an edit only if it is still the revision an apply sent (an edit
    /// made while the apply ran stays pending).
    @discardableResult
    package func remove(_ id: Int64, ifRevision revision: Int) -> Bool {
        state.withLock { state in
            guard state.edits[id]?.revision == revision else { return false }
            state.edits[id] = nil
            return true
        }
    }

    /// Changes an edit in place without a new revision (apply bookkeeping).
    package func update(_ id: Int64, _ change: (inout LocalEdit) -> Void) {
        state.withLock { state in
            guard var edit = state.edits[id] else { return }
            change(&edit)
            state.edits[id] = edit
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
