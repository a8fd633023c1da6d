// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// What one write changed in the store, as a table's change observers are told
/// it: the object ids it added, the ids whose cached row now differs
/// (attributes or geometry; a copy equal to the cached one is no change), the
/// ids it removed, and the box around their geometry before and after.
package struct StoreDelta: Sendable {
    package var added: [Int64] = []
    package var updated: [Int64] = []
    package var deleted: [Int64] = []
    /// Around the changed features' old and new geometry (empty when none has any).
    package var box = BoundingBox()

    package init() {}

    package var isEmpty: Bool { added.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// This change followed by `later`, as one: an id added then changed is
    /// added, added then removed is no change, removed then added is updated.
    package mutating func append(_ later: StoreDelta) {
        guard !later.isEmpty else { return }
        box.add(later.box)
        guard !isEmpty else {
            self = later
            return
        }
        enum Kind { case added, updated, deleted }
        var order: [Int64] = []
        var kinds: [Int64: Kind] = [:]
        func record(_ id: Int64, _ kind: Kind) {
            guard let before = kinds[id] else {
                order.append(id)
                kinds[id] = kind
                return
            }
            switch (before, kind) {
            case (.added, .deleted): kinds[id] = nil
            case (.added, _): break
            case (.deleted, .added), (.deleted, .updated): kinds[id] = .updated
            case (_, let now): kinds[id] = now
            }
        }
        for (ids, kind) in [(added, Kind.added), (updated, .updated), (deleted, .deleted)] { for id in ids { record(id, kind) } }
        for (ids, kind) in [(later.added, Kind.added), (later.updated, .updated), (later.deleted, .deleted)] {
            for id in ids { record(id, kind) }
        }
        added = order.filter { kinds[$0] == .added }
        updated = order.filter { kinds[$0] == .updated }
        deleted = order.filter { kinds[$0] == .deleted }
    }
}

extension BoundingBox {
    /// Widens the box by another (an empty one adds nothing).
    package mutating func add(_ other: BoundingBox) {
        guard !other.isEmpty else { return }
        add(other.xmin, other.ymin)
        add(other.xmax, other.ymax)
    }
}

extension FeatureBatch {
    /// Whether row `row` holds what `other`'s row `otherRow` holds: the same
    /// fields in the same order with equal values, and the same WKB bytes.
    package func rowEquals(_ row: Int, _ other: FeatureBatch, _ otherRow: Int) -> Bool {
        guard columns.count == other.columns.count, geometry.wkb(row).elementsEqual(other.geometry.wkb(otherRow)) else {
            return false
        }
        for (mine, theirs) in zip(columns, other.columns) {
            guard mine.field.name == theirs.field.name, mine.value(row) == theirs.value(otherRow) else { return false }
        }
        return true
    }
}
