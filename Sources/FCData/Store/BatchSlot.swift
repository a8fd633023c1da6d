// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Where one batch of a store is: in memory only, or in a segment file (a
/// table over its memory budget moved it there: FeatureStore.spill), read
/// back when a query needs it and held while the store's `SegmentCache`
/// keeps it. What a query asks before reading a batch — its rows, its box,
/// its tolerance — the slot keeps in memory.
package final class BatchSlot: Sendable {
    package let count: Int
    package let geometryTolerance: Double
    /// Around every row's geometry; empty when no row has one.
    package let box: BoundingBox
    /// The batch's bytes in memory (as `FeatureBatch.byteSize` counts them),
    /// and for a segment its tree's (12 bytes a row, at most; a batch in
    /// memory only is in the store's one tree, counted there).
    package let batchBytes: Int
    /// Where the batch is on disk; nil: in memory only.
    package let segment: Segment?

    package struct Segment: Sendable {
        package let file: SegmentFile
        package let location: SegmentFile.Location

        package init(file: SegmentFile, location: SegmentFile.Location) {
            self.file = file
            self.location = location
        }
    }

    private struct Held {
        var batch: FeatureBatch?
        /// The batch last read, while anything (a result) still holds it: read again for free.
        weak var recent: FeatureBatch?
        /// The R-tree over the batch's rows, built when a query first needs it.
        var tree: StoreSpatialIndex?
        /// Why the segment could not be read back: the slot is lost for good.
        var failure: FeatureCacheError?
    }
    private let held: Locked<Held>

    /// A batch in memory only.
    package init(_ batch: FeatureBatch) {
        count = batch.count
        geometryTolerance = batch.geometryTolerance
        box = batch.geometryBox
        batchBytes = batch.byteSize
        segment = nil
        held = Locked(Held(batch: batch))
    }

    /// A batch in a segment file; `batch` when it is in memory too (just written).
    package init(
        segment: Segment, count: Int, geometryTolerance: Double, box: BoundingBox, batchBytes: Int, batch: FeatureBatch? = nil
    ) {
        self.count = count
        self.geometryTolerance = geometryTolerance
        self.box = box
        self.batchBytes = batchBytes
        self.segment = segment
        held = Locked(Held(batch: batch, recent: batch))
    }

    /// The batch: in memory, or read back from its segment (then `cache`
    /// holds it, letting others go if over its capacity). Throws `.storage`
    /// when the segment cannot be read as written; the slot is then lost.
    package func batch(_ cache: SegmentCache?) throws(FeatureCacheError) -> FeatureBatch {
        let (found, failure, readmitted) = held.withLock { held -> (FeatureBatch?, FeatureCacheError?, Bool) in
            if held.batch == nil, let recent = held.recent {
                held.batch = recent
                return (recent, nil, true)
            }
            return (held.batch, held.failure, false)
        }
        if let found {
            if segment != nil { cache?.use(self, admitting: readmitted) }
            return found
        }
        if let failure {
            cache?.noteFailure()
            throw failure
        }
        guard let segment else { throw FeatureCacheError(.storage, "a batch held in memory only is gone") }
        do {
            let read = try segment.file.read(segment.location, rows: count)
            let batch = held.withLock { held -> FeatureBatch in
                if let other = held.batch { return other }  // read by another thread meanwhile
                held.batch = read
                held.recent = read
                return read
            }
            cache?.use(self, admitting: true, read: true)
            return batch
        } catch {
            held.withLock { $0.failure = error }
            cache?.noteFailure()
            throw error
        }
    }

    /// The batch when it is in memory; else the columns `names` (lowercased)
    /// of its record alone, read and not held (`whole` false): a where clause
    /// over every row reads what it compares, not whole segments.
    package func columns(_ names: Set<String>, _ cache: SegmentCache?) throws(FeatureCacheError) -> (batch: FeatureBatch, whole: Bool) {
        let inMemory = held.withLock { $0.batch != nil || $0.recent != nil || $0.failure != nil }
        guard let segment, !inMemory else { return (try batch(cache), true) }
        do {
            let read = try segment.file.readColumns(segment.location, rows: count, names: names)
            cache?.noteColumnsRead()
            return (read, false)
        } catch {
            held.withLock { $0.failure = error }
            cache?.noteFailure()
            throw error
        }
    }

    /// The batch and the R-tree over its rows (built now if not yet).
    package func indexedBatch(_ cache: SegmentCache?) throws(FeatureCacheError) -> (FeatureBatch, StoreSpatialIndex) {
        let batch = try batch(cache)
        if let tree = held.withLock({ $0.batch === batch ? $0.tree : nil }) { return (batch, tree) }
        let tree = StoreSpatialIndex([batch])
        held.withLock { if $0.batch === batch { $0.tree = tree } }
        return (batch, tree)
    }

    /// Whether the segment could not be read back.
    package var isLost: Bool { held.withLock { $0.failure != nil } }

    /// Whether the batch is in memory now.
    package var isInMemory: Bool { held.withLock { $0.batch != nil } }

    /// Bytes in memory now: the batch and its tree (`batchBytes`).
    package var bytesInMemory: Int {
        held.withLock { held in held.batch == nil ? 0 : batchBytes }
    }

    /// Lets the batch go (a segment's only: it is read back when needed).
    package func release() {
        guard segment != nil else { return }
        held.withLock { held in
            held.batch = nil
            held.tree = nil
        }
    }
}

extension FeatureBatch {
    /// The box around every row's geometry; empty when none has one.
    package var geometryBox: BoundingBox {
        var box = BoundingBox()
        for row in 0..<count { geometry.addBox(of: row, to: &box) }
        return box
    }
}
