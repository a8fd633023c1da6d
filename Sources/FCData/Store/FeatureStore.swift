// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A table's cache: batches of features, which rows of them are current, and an
/// object-id index. A populate applies all its batches in one step under the
/// lock, so readers see the cache before or after it, never half of it.
package final class FeatureStore: Sendable {
    fileprivate struct Entry {
        let base: Int  // row number of the batch's first row
        let batch: FeatureBatch
        var live: Bitmap
        var liveCount: Int

        /// The rows still current; nil = all of them.
        var currentRows: [UInt32]? {
            liveCount == batch.count ? nil : (0..<batch.count).filter { live[$0] }.map(UInt32.init)
        }
    }

    fileprivate struct State {
        var entries: [Entry] = []
        var index = ObjectIdIndex()
        var nextRow = 0
        var liveCount = 0
        /// Over `entries` as they are; dropped by every change.
        var spatialIndex: StoreSpatialIndex?
        /// Restored entries whose ids are not in `index` yet: it is built by
        /// the first call that needs it, not by the restore (a viewport query
        /// needs only the spatial index; 1M inserts cost ~80 ms).
        var indexPending = false
    }

    private let state = Locked(State())
    /// Batches smaller than this are left with their dead rows (rewriting them
    /// would cost more than the rows hold).
    package static let rewriteMinimumRows = 1024

    package init() {}

    package var count: Int { state.withLock { $0.liveCount } }

    package func clear() {
        state.withLock { $0 = State() }
    }

    /// Adds the batches of one populate, replacing cached features with the same
    /// object id (a later row of the same populate replaces an earlier one too),
    /// except, when `keepingFinerCopies`, that a generalized row (a quantized
    /// view's) never replaces one whose geometry is finer: the cached row stays.
    /// Returns, per batch, the rows that are current after the merge (nil =
    /// all), the features of this populate.
    @discardableResult
    package func apply(_ batches: [FeatureBatch], clearingFirst: Bool, keepingFinerCopies: Bool = true) -> [[UInt32]?] {
        var unrecorded: StoreDelta? = nil
        return apply(batches, clearingFirst: clearingFirst, keepingFinerCopies: keepingFinerCopies, recording: &unrecorded)
    }

    /// `apply`, and when `delta` is given, what it changed added to it (a
    /// replaced row equal to the new one is no change; clearing first removes
    /// what the batches do not bring again).
    @discardableResult
    package func apply(
        _ batches: [FeatureBatch], clearingFirst: Bool, keepingFinerCopies: Bool = true, recording delta: inout StoreDelta?
    ) -> [[UInt32]?] {
        state.withLock { state in
            var change = delta.map { _ in StoreDelta() }
            // What the store held, for telling changes from copies and finding what clearing removed.
            var before: State? = nil
            if clearingFirst {
                if change != nil {
                    state.ensureIndex()
                    before = state
                }
                state = State()
            }
            state.ensureIndex()
            state.spatialIndex = nil
            let incoming = batches.reduce(0) { $0 + $1.count }
            state.index.reserveCapacity(state.index.count + incoming)
            if state.nextRow + incoming >= Int(UInt32.max) { state.compact() }
            let firstNew = state.entries.count
            let liveBefore = state.liveCount
            for batch in batches where batch.count > 0 {
                let base = state.nextRow
                state.entries.append(Entry(base: base, batch: batch, live: Bitmap(count: batch.count, value: true), liveCount: batch.count))
                state.nextRow += batch.count
                state.liveCount += batch.count
                for row in 0..<batch.count {
                    let id = batch.objectId(row)
                    guard let old = state.index.insert(id, UInt32(base + row)) else {
                        if change != nil {
                            let previous = before.flatMap { held in held.index.find(id).map { held.row(Int($0)) } }
                            change!.record(id, new: (batch, row), old: previous)
                        }
                        continue
                    }
                    if keepingFinerCopies, batch.geometryTolerance > 0, state.tolerance(ofRow: Int(old)) < batch.geometryTolerance {
                        _ = state.index.insert(id, old)  // the finer copy stays
                        state.kill(base + row)
                    } else {
                        if change != nil { change!.record(id, new: (batch, row), old: state.row(Int(old))) }
                        state.kill(Int(old))
                    }
                }
            }
            if var recorded = change {
                if let before {
                    for entry in before.entries {
                        for row in 0..<entry.batch.count where entry.live[row] {
                            let id = entry.batch.objectId(row)
                            guard state.index.find(id) == nil else { continue }
                            recorded.deleted.append(id)
                            entry.batch.geometry.addBox(of: row, to: &recorded.box)
                        }
                    }
                }
                delta!.append(recorded)
            }
            // Batches whose every row was replaced carry nothing any more (none
            // was when every row is new: one edit at a time stays cheap).
            let result = state.entries[firstNew...].map(\.currentRows)
            if state.liveCount != liveBefore + incoming {
                state.entries.removeAll { $0.liveCount == 0 }
                state.rewriteMostlyDead()
            }
            return Array(result)
        }
    }

    /// The current rows of every batch, for results over the whole cache.
    package func snapshot() -> [(batch: FeatureBatch, rows: [UInt32]?)] {
        state.withLock { state in
            state.entries.map { ($0.batch, $0.currentRows) }
        }
    }

    /// Drops the features with these object ids (absent ids are ignored).
    /// Returns how many were dropped.
    @discardableResult
    package func remove(_ ids: [Int64]) -> Int {
        var unrecorded: StoreDelta? = nil
        return remove(ids, recording: &unrecorded)
    }

    /// `remove`, and when `delta` is given, the ids removed (and their boxes) added to it.
    @discardableResult
    package func remove(_ ids: [Int64], recording delta: inout StoreDelta?) -> Int {
        guard !ids.isEmpty else { return 0 }
        return state.withLock { state in
            state.ensureIndex()
            let before = state.liveCount
            state.spatialIndex = nil
            var change = delta.map { _ in StoreDelta() }
            for id in ids {
                guard let row = state.index.remove(id) else { continue }
                if change != nil {
                    let (batch, local) = state.row(Int(row))
                    change!.deleted.append(id)
                    batch.geometry.addBox(of: local, to: &change!.box)
                }
                state.kill(Int(row))
            }
            if let change { delta!.append(change) }
            state.entries.removeAll { $0.liveCount == 0 }
            state.rewriteMostlyDead()
            return before - state.liveCount
        }
    }

    /// The cached row of a feature, by object id.
    package func locate(_ id: Int64) -> (batch: FeatureBatch, row: Int)? {
        state.withLock { state in
            state.ensureIndex()
            guard let row = state.index.find(id) else { return nil }
            let entry = state.entries[state.entry(ofRow: Int(row))]
            return (entry.batch, Int(row) - entry.base)
        }
    }

    /// Whether every id is cached.
    package func containsAll(_ ids: [Int64]) -> Bool {
        state.withLock { state in
            state.ensureIndex()
            return ids.allSatisfy { state.index.find($0) != nil }
        }
    }

    /// The batches with their liveness and the spatial index over them (built
    /// now if the store changed since the last query).
    package func queryableSnapshot() -> StoreSnapshot {
        state.withLock { state in
            let batches = state.entries.map { ($0.batch, $0.liveCount == $0.batch.count ? nil : $0.live) }
            let index = state.spatialIndex ?? StoreSpatialIndex(state.entries.map(\.batch))
            state.spatialIndex = index
            return StoreSnapshot(batches: batches, index: index)
        }
    }

    /// The batches with the liveness of their rows (nil: all current), as a
    /// persisted cache writes them.
    package func persistedEntries() -> [(batch: FeatureBatch, live: Bitmap?)] {
        state.withLock { state in state.entries.map { ($0.batch, $0.liveCount == $0.batch.count ? nil : $0.live) } }
    }

    /// Replaces the cache by batches read back from a persisted cache (their
    /// current rows). The id index is built when first needed; then an id
    /// current in two rows (a file that lies) keeps the later.
    package func restore(_ entries: [(batch: FeatureBatch, live: Bitmap?)]) {
        state.withLock { state in
            state = State()
            let rows = entries.reduce(0) { $0 + $1.batch.count }
            guard rows < Int(UInt32.max) else { return }
            for (batch, live) in entries where batch.count > 0 {
                let bits = live ?? Bitmap(count: batch.count, value: true)
                let current = bits.setCount
                guard current > 0 else { continue }
                state.entries.append(Entry(base: state.nextRow, batch: batch, live: bits, liveCount: current))
                state.nextRow += batch.count
                state.liveCount += current
            }
            state.indexPending = !state.entries.isEmpty
        }
    }

    /// Heap bytes of the cache: batches, liveness bitmaps and the id index.
    package var byteSize: Int {
        state.withLock { state in
            state.ensureIndex()
            return state.entries.reduce(state.index.byteSize + (state.spatialIndex?.byteSize ?? 0)) {
                $0 + $1.batch.byteSize + $1.live.byteSize
            }
        }
    }
}

extension FeatureStore.State {
    /// Builds the id index of restored entries (see `indexPending`).
    fileprivate mutating func ensureIndex() {
        guard indexPending else { return }
        indexPending = false
        index.reserveCapacity(liveCount)
        for position in entries.indices {
            let entry = entries[position]
            for row in 0..<entry.batch.count where entry.live[row] {
                if let old = index.insert(entry.batch.objectId(row), UInt32(entry.base + row)) { kill(Int(old)) }
            }
        }
        entries.removeAll { $0.liveCount == 0 }
    }

    /// The entry holding a row number (entries are in row-number order).
    fileprivate func entry(ofRow row: Int) -> Int {
        var low = 0, high = entries.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if entries[mid].base <= row { low = mid } else { high = mid - 1 }
        }
        return low
    }

    fileprivate func tolerance(ofRow row: Int) -> Double { entries[entry(ofRow: row)].batch.geometryTolerance }

    /// The batch holding a row number, and the row in it.
    fileprivate func row(_ row: Int) -> (batch: FeatureBatch, row: Int) {
        let entry = entries[entry(ofRow: row)]
        return (entry.batch, row - entry.base)
    }

    /// Marks a row dead by its row number.
    fileprivate mutating func kill(_ row: Int) {
        let low = entry(ofRow: row)
        let local = row - entries[low].base
        guard entries[low].live[local] else { return }
        entries[low].live[local] = false
        entries[low].liveCount -= 1
        liveCount -= 1
    }

    /// Rewrites each large batch whose rows were mostly replaced or removed as a
    /// batch of its current rows, in the same place (same first row number,
    /// same order), so dead rows of a compacted batch stop holding memory.
    fileprivate mutating func rewriteMostlyDead() {
        for position in entries.indices {
            let entry = entries[position]
            guard entry.batch.count >= FeatureStore.rewriteMinimumRows, entry.liveCount * 2 < entry.batch.count else { continue }
            let rows = (0..<entry.batch.count).filter { entry.live[$0] }
            let kept = entry.batch.selecting(rows)
            for row in 0..<kept.count { _ = index.insert(kept.objectId(row), UInt32(entry.base + row)) }
            entries[position] = .init(
                base: entry.base, batch: kept, live: Bitmap(count: kept.count, value: true),
                liveCount: kept.count)
        }
    }

    /// Renumbers rows from 0 (after 4 billion rows have passed through the cache).
    fileprivate mutating func compact() {
        let old = entries
        self = .init()
        for entry in old {
            let base = nextRow
            entries.append(.init(base: base, batch: entry.batch, live: entry.live, liveCount: entry.liveCount))
            nextRow += entry.batch.count
            liveCount += entry.liveCount
            for row in 0..<entry.batch.count where entry.live[row] { index.insert(entry.batch.objectId(row), UInt32(base + row)) }
        }
    }
}

extension StoreDelta {
    /// A row written for `id`: added when no copy was cached, updated when the
    /// cached copy differs; both boxes count.
    fileprivate mutating func record(_ id: Int64, new: (batch: FeatureBatch, row: Int), old: (batch: FeatureBatch, row: Int)?) {
        guard let old else {
            added.append(id)
            new.batch.geometry.addBox(of: new.row, to: &box)
            return
        }
        guard !new.batch.rowEquals(new.row, old.batch, old.row) else { return }
        updated.append(id)
        new.batch.geometry.addBox(of: new.row, to: &box)
        old.batch.geometry.addBox(of: old.row, to: &box)
    }
}
