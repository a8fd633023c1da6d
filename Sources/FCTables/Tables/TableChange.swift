// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// One change of a table's cached features, as its change observers are told:
/// which object ids were added, changed and removed, the extent around them
/// (before and after, in the table's spatial reference), and what made the
/// change. Told once per change, in the order the changes were made.
public struct TableChange: Sendable, Equatable {
    /// What wrote the change (`FC_CHANGE_*`).
    public var cause: Cause
    public var added: [Int64]
    public var updated: [Int64]
    public var deleted: [Int64]
    /// Around the changed features' old and new geometry; nil when none has any.
    public var extent: Envelope?

    package init(_ delta: StoreDelta, cause: Cause, spatialReference: SpatialReference?) {
        self.cause = cause
        added = delta.added
        updated = delta.updated
        deleted = delta.deleted
        extent =
            delta.box.isEmpty
            ? nil
            : Envelope(
                xmin: delta.box.xmin, ymin: delta.box.ymin, xmax: delta.box.xmax, ymax: delta.box.ymax,
                spatialReference: spatialReference)
    }
}

extension FeatureTable {
    /// Calls `observer` with every later change of the cached features, once
    /// each, in order, on a library thread and never under a library lock.
    /// Returns the token `removeChangeObserver` takes.
    public func addChangeObserver(_ observer: @escaping @Sendable (TableChange) -> Void) -> UInt64 {
        changes.add(observer)
    }

    /// After this returns the observer is not called again, and every change
    /// made before the call has been told to the observers still registered
    /// (unless called from an observer, which cannot wait for itself).
    @discardableResult
    public func removeChangeObserver(_ token: UInt64) -> Bool {
        changes.flush()  // the changes made so far reach it first
        let removed = changes.remove(token)
        changes.flush()  // and one being told now has returned
        return removed
    }

    /// Waits until every change made so far has been told (not from an observer).
    public func flushChanges() { changes.flush() }

    /// Whether a write should record what it changes (someone listens).
    package var recordsChanges: Bool { changes.hasObservers }

    /// Tells the observers one change (nothing for none).
    package func tell(_ delta: StoreDelta?, _ cause: TableChange.Cause) {
        guard let delta, !delta.isEmpty else { return }
        changes.send(TableChange(delta, cause: cause, spatialReference: settledMetadata?.spatialReference))
    }
}
