// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A table's cache: batches of features, which rows of them are current, and an
/// object-id index. A populate applies all its batches in one step under the
/// lock, so readers see the cache before or after it, never half of it.
///
/// Out of core: with a memory budget and a folder (`spill`), batches move to
/// segment files in spatial order and are read back when a query needs them
/// (`BatchSlot`, `SegmentCache`), least recently used first out.
package final class FeatureStore: Sendable {
    fileprivate struct Entry {
        let base: Int  // row number of the batch's first row
        let slot: BatchSlot
        var live: Bitmap
        var liveCount: Int

        /// The slot and its liveness as snapshots and saves take them (nil: every row current).
        var slotAndLive: (slot: BatchSlot, live: Bitmap?) { (slot, liveCount == slot.count ? nil : live) }

        /// The rows still current; nil = all of them.
        var currentRows: [UInt32]? {
            liveCount == slot.count ? nil : (0..<slot.count).filter { live[$0] }.map(UInt32.init)
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
        /// Counts changes (every row killed, every entry replaced): a spill
        /// written meanwhile is not put in place, a snapshot of another is not used.
        var generation = 0
        /// The last query snapshot, and the generation it is of.
        var snapshot: (generation: Int, value: StoreSnapshot)?
        /// Segment read failures the store has purged up to (`SegmentCache.failures`).
        var failuresSeen = 0
        /// Features of segments that could not be read back, and dropped.
        var lostFeatures = 0
        /// Bytes the store may hold (0: no bound): `setMemoryBudget`.
        var memoryBudget = 0
    }

    private let state = Locked(State())
    /// The segments read back and held (`spill`); shared with snapshots.
    package let segments = SegmentCache()
    /// Told (after the store's lock) how many features left with segments
    /// that could not be read back: the table forgets what vouched for them.
    private let lostHandler = Locked<(@Sendable (Int) -> Void)?>(nil)
    /// Rows per segment: a viewport reads a few of them.
    package static let segmentRows = 1 << 12
    /// Geometry bytes per segment, at most (polygons).
    package static let segmentGeometryBytes = 4 << 20
    /// Batches smaller than this are left with their dead rows (rewriting them
    /// would cost more than the rows hold).
    package static let rewriteMinimumRows = 1024

    package init() {}

    deinit { segments.removeAll() }

    package var count: Int { state.withLock { $0.liveCount } }

    package func clear() {
        state.withLock { $0.reset() }
        segments.removeAll()
    }

    /// Calls `handler` with the features that left with a lost segment.
    package func onLost(_ handler: @escaping @Sendable (Int) -> Void) { lostHandler.withLock { $0 = handler } }

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
        let cache = segments
        let result = state.withLock { state in
            var change = delta.map { _ in StoreDelta() }
            state.generation += 1
            // What the store held, for telling changes from copies and finding what clearing removed.
            var before: State? = nil
            if clearingFirst {
                if change != nil {
                    state.ensureIndex(cache)
                    before = state
                }
                state.reset()
            }
            state.ensureIndex(cache)
            state.spatialIndex = nil
            let incoming = batches.reduce(0) { $0 + $1.count }
            state.index.reserveCapacity(state.index.count + incoming)
            if state.nextRow + incoming >= Int(UInt32.max) { state.compact(cache) }
            let firstNew = state.entries.count
            let liveBefore = state.liveCount
            for batch in batches where batch.count > 0 {
                let base = state.nextRow
                state.entries.append(
                    Entry(base: base, slot: BatchSlot(batch), live: Bitmap(count: batch.count, value: true), liveCount: batch.count))
                state.nextRow += batch.count
                state.liveCount += batch.count
                for row in 0..<batch.count {
                    let id = batch.objectId(row)
                    guard let old = state.index.insert(id, UInt32(base + row)) else {
                        if change != nil {
                            let previous = before.flatMap { held in held.index.find(id).flatMap { held.row(Int($0), cache) } }
                            change!.record(id, new: (batch, row), old: previous)
                        }
                        continue
                    }
                    if keepingFinerCopies, batch.geometryTolerance > 0, state.tolerance(ofRow: Int(old)) < batch.geometryTolerance {
                        _ = state.index.insert(id, old)  // the finer copy stays
                        state.kill(base + row)
                    } else {
                        if change != nil { change!.record(id, new: (batch, row), old: state.row(Int(old), cache)) }
                        state.kill(Int(old))
                    }
                }
            }
            if var recorded = change {
                if let before {
                    for entry in before.entries {
                        guard let batch = try? entry.slot.batch(cache) else { continue }
                        for row in 0..<batch.count where entry.live[row] {
                            let id = batch.objectId(row)
                            guard state.index.find(id) == nil else { continue }
                            recorded.deleted.append(id)
                            batch.geometry.addBox(of: row, to: &recorded.box)
                        }
                    }
                }
                delta!.append(recorded)
            }
            // Batches whose every row was replaced carry nothing any more (none
            // was when every row is new: one edit at a time stays cheap).
            let result = state.entries[firstNew...].map(\.currentRows)
            if state.liveCount != liveBefore + incoming {
                state.removeEmptyEntries(cache)
                state.rewriteMostlyDead()
            }
            return Array(result)
        }
        reportLost()
        fitSegments()
        return result
    }

    /// The current rows of every batch, for results over the whole cache
    /// (segments read back: a result over the whole cache holds it all).
    /// Throws `.storage` for a segment that cannot be read back.
    package func snapshot() throws(FeatureCacheError) -> [(batch: FeatureBatch, rows: [UInt32]?)] {
        let entries = state.withLock { state in state.entries.map { ($0.slot, $0.currentRows) } }
        var all: [(batch: FeatureBatch, rows: [UInt32]?)] = []
        all.reserveCapacity(entries.count)
        do {
            for (slot, rows) in entries { all.append((try slot.batch(segments), rows)) }
        } catch {
            purgeLost()
            throw error
        }
        return all
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
        let cache = segments
        let removed = state.withLock { state in
            state.ensureIndex(cache)
            state.generation += 1
            let before = state.liveCount
            state.spatialIndex = nil
            var change = delta.map { _ in StoreDelta() }
            for id in ids {
                guard let row = state.index.remove(id) else { continue }
                if change != nil {
                    change!.deleted.append(id)
                    if let (batch, local) = state.row(Int(row), cache) { batch.geometry.addBox(of: local, to: &change!.box) }
                }
                state.kill(Int(row))
            }
            if let change { delta!.append(change) }
            state.removeEmptyEntries(cache)
            state.rewriteMostlyDead()
            return before - state.liveCount
        }
        reportLost()
        fitSegments()
        return removed
    }

    /// The cached row of a feature, by object id.
    package func locate(_ id: Int64) -> (batch: FeatureBatch, row: Int)? {
        let cache = segments
        let found = state.withLock { state -> (slot: BatchSlot, row: Int)? in
            state.ensureIndex(cache)
            guard let row = state.index.find(id) else { return nil }
            let entry = state.entries[state.entry(ofRow: Int(row))]
            return (entry.slot, Int(row) - entry.base)
        }
        fitSegments()
        guard let found else { return nil }
        // Read back outside the lock; a segment that cannot be is lost, and its features with it.
        guard let batch = try? found.slot.batch(cache) else {
            purgeLost()
            return nil
        }
        return (batch, found.row)
    }

    /// Whether every id is cached.
    package func containsAll(_ ids: [Int64]) -> Bool {
        let cache = segments
        let all = state.withLock { state in
            state.ensureIndex(cache)
            return ids.allSatisfy { state.index.find($0) != nil }
        }
        reportLost()
        fitSegments()
        return all
    }

    /// The batches with their liveness and the spatial index over them (built
    /// now if the store changed since the last query).
    package func queryableSnapshot() -> StoreSnapshot {
        purgeLost()
        let cache = segments
        return state.withLock { state in
            // Kept until the next change: a viewport over 6,000 segments would
            // otherwise copy 6,000 entries a query.
            if let kept = state.snapshot, kept.generation == state.generation { return kept.value }
            let entries = state.entries.map(\.slotAndLive)
            // The one tree is over the batches in memory only; a segment has a tree of its own.
            let indexed = state.entries.indices.filter { state.entries[$0].slot.segment == nil }
            let index =
                state.spatialIndex
                ?? StoreSpatialIndex(indexed.compactMap { try? state.entries[$0].slot.batch(nil) })
            state.spatialIndex = index
            let snapshot = StoreSnapshot(entries: entries, index: index, indexed: indexed, cache: cache)
            state.snapshot = (state.generation, snapshot)
            return snapshot
        }
    }

    /// The batches with the liveness of their rows (nil: all current), as a
    /// persisted cache writes them.
    package func persistedEntries() -> [(slot: BatchSlot, live: Bitmap?)] {
        state.withLock { state in state.entries.map(\.slotAndLive) }
    }

    /// Replaces the cache by batches read back from a persisted cache (their
    /// current rows). The id index is built when first needed; then an id
    /// current in two rows (a file that lies) keeps the later.
    package func restore(_ entries: [(slot: BatchSlot, live: Bitmap?)]) {
        segments.removeAll()
        state.withLock { state in
            state.reset()
            let rows = entries.reduce(0) { $0 + $1.slot.count }
            guard rows < Int(UInt32.max) else { return }
            for (slot, live) in entries where slot.count > 0 {
                let bits = live ?? Bitmap(count: slot.count, value: true)
                let current = bits.setCount
                guard current > 0 else { continue }
                state.entries.append(Entry(base: state.nextRow, slot: slot, live: bits, liveCount: current))
                state.nextRow += slot.count
                state.liveCount += current
            }
            state.indexPending = !state.entries.isEmpty
        }
        fitSegments()
    }

    /// How many batches are in segment files.
    package var segmentCount: Int { state.withLock { $0.entries.count { $0.slot.segment != nil } } }

    /// Heap bytes of the cache: batches in memory (segments read back
    /// included), liveness bitmaps and the indexes as they are now (an id
    /// index a reopen has not needed yet holds nothing: building it to
    /// count it would read every segment).
    package var byteSize: Int {
        state.withLock { $0.bytesBesideSegments } + segments.figures.bytes
    }

    /// Bounds the segments held in memory so the store keeps within `bytes`
    /// (0: no bound) with what else it holds (batches not moved to disk yet,
    /// the indexes): at least an eighth of it, so a query's segments fit.
    package func setMemoryBudget(_ bytes: Int) {
        state.withLock { $0.memoryBudget = max(0, bytes) }
        fitSegments()
    }

    private func fitSegments() {
        let (budget, beside) = state.withLock { ($0.memoryBudget, $0.bytesBesideSegments) }
        segments.setCapacity(budget == 0 ? Int.max : max(budget / 8, budget - beside))
    }

    /// Moves the batches held in memory only to a new segment file in
    /// `folder` when they hold more than `threshold` bytes: their current
    /// rows in Hilbert order, cut into segments of `segmentRows` (a viewport
    /// then reads a few), with their boxes kept here. Returns the segments
    /// written (none: under the threshold, or the store changed meanwhile:
    /// the file is removed and the next save tries again). The rows are
    /// ordered and written outside the lock; queries go on meanwhile.
    @discardableResult
    package func spill(into folder: String, over threshold: Int) throws(FeatureCacheError) -> Int {
        purgeLost()
        let picked = state.withLock { state -> (generation: Int, slots: [BatchSlot], live: [Bitmap])? in
            let memory = state.entries.filter { $0.slot.segment == nil }
            guard !memory.isEmpty, memory.reduce(0, { $0 + $1.slot.batchBytes }) > threshold else { return nil }
            return (state.generation, memory.map(\.slot), memory.map(\.live))
        }
        guard let picked else { return 0 }
        let batches = picked.slots.compactMap { try? $0.batch(nil) }
        guard batches.count == picked.slots.count else { return 0 }
        let plan = SpillPlan(batches, live: picked.live)
        var summaries: [(box: BoundingBox, bytes: Int)] = []
        let (file, locations) = try SegmentFile.write(count: plan.chunks.count, in: folder) { index in
            let batch = plan.gather(index)
            summaries.append((batch.geometryBox, batch.byteSize + 12 * batch.count))
            return batch
        }
        let written = state.withLock { state -> [BatchSlot]? in
            guard state.generation == picked.generation else { return nil }
            state.generation += 1
            state.spatialIndex = nil
            let moved = Set(picked.slots.map(ObjectIdentifier.init))
            state.liveCount -= state.entries.reduce(0) { $0 + (moved.contains(ObjectIdentifier($1.slot)) ? $1.liveCount : 0) }
            state.entries.removeAll { moved.contains(ObjectIdentifier($0.slot)) }
            var slots: [BatchSlot] = []
            for ((chunk, location), summary) in zip(zip(plan.chunks, locations), summaries) {
                let slot = BatchSlot(
                    segment: .init(file: file, location: location), count: chunk.rows.count,
                    geometryTolerance: plan.groups[chunk.group][0].geometryTolerance, box: summary.box, batchBytes: summary.bytes)
                let base = state.nextRow
                state.entries.append(Entry(base: base, slot: slot, live: Bitmap(count: slot.count, value: true), liveCount: slot.count))
                state.nextRow += slot.count
                state.liveCount += slot.count
                if !state.indexPending {
                    for (row, address) in chunk.rows.enumerated() {
                        state.index.insert(plan.objectId(chunk, address), UInt32(base + row))
                    }
                }
                slots.append(slot)
            }
            return slots
        }
        guard let written else {
            CacheFiles.remove(file.path)
            return 0
        }
        fitSegments()
        return written.count
    }

    /// Drops the rows of segments that could not be read back (their ids
    /// leave the index) and tells the handler how many features went.
    package func purgeLost() {
        let cache = segments
        let failures = cache.failures
        state.withLock { state in
            // Only after a read failed: looking at every slot costs a lock each.
            guard failures != state.failuresSeen else { return }
            state.failuresSeen = failures
            let lost = state.entries.filter { $0.slot.isLost }
            guard !lost.isEmpty else { return }
            state.generation += 1
            state.spatialIndex = nil
            for entry in lost {
                if !state.indexPending {
                    state.index.removeValues(in: UInt32(entry.base)..<UInt32(entry.base + entry.slot.count))
                }
                state.liveCount -= entry.liveCount
                state.lostFeatures += entry.liveCount
            }
            state.entries.removeAll { $0.slot.isLost }
            cache.forget(lost.map(\.slot))
        }
        reportLost()
    }

    /// Calls the lost handler, outside the lock, with what was lost since.
    private func reportLost() {
        let lost = state.withLock { state in
            defer { state.lostFeatures = 0 }
            return state.lostFeatures
        }
        guard lost > 0, let handler = lostHandler.withLock({ $0 }) else { return }
        handler(lost)
    }
}

extension FeatureStore.State {
    /// Empty, keeping the count of changes.
    fileprivate mutating func reset() {
        let generation = generation, lost = lostFeatures, budget = memoryBudget
        self = .init()
        self.generation = generation + 1
        lostFeatures = lost
        memoryBudget = budget
    }

    /// Builds the id index of restored entries (see `indexPending`); a
    /// segment is read back for its ids (one after the other: the cache
    /// lets the earlier ones go). A segment that cannot be is lost.
    fileprivate mutating func ensureIndex(_ cache: SegmentCache) {
        guard indexPending else { return }
        indexPending = false
        index.reserveCapacity(liveCount)
        var lost: [Int] = []
        for position in entries.indices {
            let entry = entries[position]
            guard let batch = try? entry.slot.batch(cache) else {
                lost.append(position)
                continue
            }
            for row in 0..<batch.count where entry.live[row] {
                if let old = index.insert(batch.objectId(row), UInt32(entry.base + row)) { kill(Int(old)) }
            }
        }
        if !lost.isEmpty { generation += 1 }
        for position in lost.reversed() {
            liveCount -= entries[position].liveCount
            lostFeatures += entries[position].liveCount
            entries.remove(at: position)
        }
        removeEmptyEntries(cache)
    }

    /// Drops entries with no current row (and lets their segments go).
    fileprivate mutating func removeEmptyEntries(_ cache: SegmentCache) {
        let empty = entries.filter { $0.liveCount == 0 }
        guard !empty.isEmpty else { return }
        generation += 1
        entries.removeAll { $0.liveCount == 0 }
        cache.forget(empty.map(\.slot))
    }

    /// Bytes in memory but the segments read back: batches in memory only,
    /// liveness bits, the indexes.
    fileprivate var bytesBesideSegments: Int {
        entries.reduce(index.byteSize + (spatialIndex?.byteSize ?? 0)) {
            $0 + ($1.slot.segment == nil ? $1.slot.batchBytes : 0) + $1.live.byteSize
        }
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

    fileprivate func tolerance(ofRow row: Int) -> Double { entries[entry(ofRow: row)].slot.geometryTolerance }

    /// The batch holding a row number, and the row in it; nil when its segment cannot be read back.
    fileprivate func row(_ row: Int, _ cache: SegmentCache) -> (batch: FeatureBatch, row: Int)? {
        let entry = entries[entry(ofRow: row)]
        guard let batch = try? entry.slot.batch(cache) else { return nil }
        return (batch, row - entry.base)
    }

    /// Marks a row dead by its row number.
    fileprivate mutating func kill(_ row: Int) {
        let low = entry(ofRow: row)
        let local = row - entries[low].base
        guard entries[low].live[local] else { return }
        generation += 1
        entries[low].live[local] = false
        entries[low].liveCount -= 1
        liveCount -= 1
    }

    /// Rewrites each large batch whose rows were mostly replaced or removed as a
    /// batch of its current rows, in the same place (same first row number,
    /// same order), so dead rows of a compacted batch stop holding memory.
    /// (Batches in memory only: a segment's dead rows cost disk, not memory.)
    fileprivate mutating func rewriteMostlyDead() {
        for position in entries.indices {
            let entry = entries[position]
            guard entry.slot.segment == nil, entry.slot.count >= FeatureStore.rewriteMinimumRows, entry.liveCount * 2 < entry.slot.count,
                let batch = try? entry.slot.batch(nil)
            else { continue }
            let rows = (0..<batch.count).filter { entry.live[$0] }
            let kept = batch.selecting(rows)
            generation += 1
            for row in 0..<kept.count { _ = index.insert(kept.objectId(row), UInt32(entry.base + row)) }
            entries[position] = .init(
                base: entry.base, slot: BatchSlot(kept), live: Bitmap(count: kept.count, value: true),
                liveCount: kept.count)
        }
    }

    /// Renumbers rows from 0 (after 4 billion rows have passed through the cache).
    fileprivate mutating func compact(_ cache: SegmentCache) {
        ensureIndex(cache)
        let old = entries
        reset()
        for entry in old {
            let base = nextRow
            guard let batch = try? entry.slot.batch(cache) else {
                lostFeatures += entry.liveCount
                continue
            }
            entries.append(.init(base: base, slot: entry.slot, live: entry.live, liveCount: entry.liveCount))
            nextRow += entry.slot.count
            liveCount += entry.liveCount
            for row in 0..<batch.count where entry.live[row] { index.insert(batch.objectId(row), UInt32(base + row)) }
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
