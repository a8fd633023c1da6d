// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// One R-tree over every row of every batch of a store, so a viewport query
/// descends one tree instead of one per batch (populate pages are spatially
/// random: a tree per page would span the whole extent). Built lazily by the
/// first query after the store changed, so fetching never pays for it; rows
/// that died since are filtered by the caller's liveness bitmaps.
package final class StoreSpatialIndex: @unchecked Sendable {
    /// Where a batch's boxes are read: its point bytes (x at +5, y at +13 of
    /// each 21-byte row) or its boxes, copied here. Raw pointers, so reading a
    /// box costs no reference counting.
    private struct Source {
        let points: UnsafeRawPointer?
        let boxes: UnsafePointer<Double>?
    }
    private let batches: [FeatureBatch]  // keeps the point bytes alive
    private let sources: [Source]
    private let boxStorage: UnsafeMutablePointer<Double>?
    /// Batch index << 32 | row, per tree position, so a leaf's items are read
    /// one after another.
    private let items: [UInt64]
    private let tree: HilbertRTree

    package init(_ batches: [FeatureBatch]) {
        let boxed = batches.reduce(0) { $0 + ($1.geometry.isPointsOnly ? 0 : $1.count) }
        let storage = boxed > 0 ? UnsafeMutablePointer<Double>.allocate(capacity: 4 * boxed) : nil
        var sources: [Source] = []
        var next = 0
        for batch in batches {
            if batch.geometry.isPointsOnly {
                sources.append(Source(points: batch.geometry.bytes.base, boxes: nil))
            } else {
                let start = storage! + 4 * next
                for row in 0..<batch.count {
                    let b = batch.geometry.box(row)
                    (start + 4 * row).initialize(to: b.xmin); (start + 4 * row + 1).initialize(to: b.ymin)
                    (start + 4 * row + 2).initialize(to: b.xmax); (start + 4 * row + 3).initialize(to: b.ymax)
                }
                sources.append(Source(points: nil, boxes: UnsafePointer(start)))
                next += batch.count
            }
        }
        // Tree order: the rows of batches stored in spatial order as they are
        // (a search then finds a batch's rows ascending, with nothing to sort),
        // then every other row with a geometry in the Hilbert order of them all.
        var items: [UInt64] = []
        items.reserveCapacity(batches.reduce(0) { $0 + $1.count })
        var unordered: [UInt64] = []
        for (index, batch) in batches.enumerated() {
            let spatial = batch.isInSpatialOrder
            for row in 0..<batch.count {
                let item = UInt64(index) << 32 | UInt64(row)
                guard !Self.box(sources, item).xmin.isNaN else { continue }
                if spatial { items.append(item) } else { unordered.append(item) }
            }
        }
        for position in HilbertRTree.hilbertOrder(count: unordered.count, box: { Self.box(sources, unordered[$0]) }) {
            items.append(unordered[Int(position)])
        }
        self.batches = batches
        self.sources = sources
        boxStorage = storage
        self.items = items
        tree = HilbertRTree(count: items.count) { Self.box(sources, items[$0]) }
    }

    deinit { boxStorage?.deallocate() }

    @inline(__always)
    private static func box(_ sources: [Source], _ item: UInt64) -> (xmin: Double, ymin: Double, xmax: Double, ymax: Double) {
        let source = sources[Int(item >> 32)], row = Int(item & 0xFFFF_FFFF)
        if let points = source.points {
            let at = row * GeometryColumn.pointSize
            let x = Double(bitPattern: UInt64(littleEndian: points.loadUnaligned(fromByteOffset: at + 5, as: UInt64.self)))
            let y = Double(bitPattern: UInt64(littleEndian: points.loadUnaligned(fromByteOffset: at + 13, as: UInt64.self)))
            return (x, y, x, y)
        }
        let b = source.boxes! + 4 * row
        return (b[0], b[1], b[2], b[3])
    }

    /// The items (batch index << 32 | row) whose box meets the envelope, sorted
    /// (so by batch, then row).
    package func search(_ box: BoundingBox) -> [UInt64] {
        var (found, sorted) = hits(box) { $0 }
        // Hits in batches stored in spatial order come sorted already.
        if !sorted { RadixSort.sort(&found) }
        return found
    }

    /// The rows of a one-batch index (a segment's) whose box meets the
    /// envelope, ascending: `search` without the batch half of each item.
    package func rows(in box: BoundingBox) -> [Int] {
        var (found, sorted) = hits(box) { Int($0 & 0xFFFF_FFFF) }
        if !sorted { found.sort() }
        return found
    }

    /// `value` of every item whose box meets the envelope, in tree order, and
    /// whether that order ascends.
    private func hits<T: Comparable>(_ box: BoundingBox, _ value: (UInt64) -> T) -> (found: [T], sorted: Bool) {
        var found: [T] = []
        let sources = self.sources, items = self.items
        var sorted = true
        tree.search(box.xmin, box.ymin, box.xmax, box.ymax, box: { Self.box(sources, items[$0]) }) {
            let hit = value(items[$0])
            if let last = found.last, last > hit { sorted = false }
            found.append(hit)
        }
        return (found, sorted)
    }

    package var byteSize: Int {
        items.count * 8 + tree.byteSize + batches.reduce(0) { $0 + ($1.geometry.isPointsOnly ? 0 : 32 * $1.count) }
    }
}

/// A consistent view of a store for a query: its batches with their liveness,
/// the spatial index over those held in memory only (`indexed`, entry
/// positions in order), and the segments' cache, which reads the others back.
package struct StoreSnapshot: Sendable {
    package let entries: [(slot: BatchSlot, live: Bitmap?)]
    package let index: StoreSpatialIndex
    package let indexed: [Int]
    package let cache: SegmentCache?
    /// The entries in segments with a box, their boxes side by side (xmin,
    /// ymin, xmax, ymax), and a tree over them in entry order (a spill's
    /// segments follow one another in spatial order): at 50M points, 12,000
    /// boxes scanned flat were a quarter of a warm viewport query.
    private let segmentPositions: [Int]
    private let segmentBoxes: [Double]
    private let segmentTree: HilbertRTree

    /// A snapshot of batches held in memory (a document's, a test's).
    package init(_ batches: [FeatureBatch]) {
        entries = batches.map { (BatchSlot($0), nil) }
        index = StoreSpatialIndex(batches)
        indexed = Array(batches.indices)
        cache = nil
        segmentPositions = []
        segmentBoxes = []
        segmentTree = HilbertRTree(count: 0) { _ in (0, 0, 0, 0) }
    }

    package init(entries: [(slot: BatchSlot, live: Bitmap?)], index: StoreSpatialIndex, indexed: [Int], cache: SegmentCache?) {
        self.entries = entries
        self.index = index
        self.indexed = indexed
        self.cache = cache
        var positions: [Int] = [], boxes: [Double] = []
        for (position, entry) in entries.enumerated() where entry.slot.segment != nil && !entry.slot.box.isEmpty {
            positions.append(position)
            boxes += [entry.slot.box.xmin, entry.slot.box.ymin, entry.slot.box.xmax, entry.slot.box.ymax]
        }
        segmentPositions = positions
        segmentBoxes = boxes
        segmentTree = HilbertRTree(count: positions.count) { (boxes[4 * $0], boxes[4 * $0 + 1], boxes[4 * $0 + 2], boxes[4 * $0 + 3]) }
    }

    /// Entry `position`'s batch (read back from its segment when it is not in memory).
    package func batch(_ position: Int) throws(FeatureCacheError) -> FeatureBatch {
        try entries[position].slot.batch(cache)
    }

    /// Calls `body` with each batch holding rows whose box meets `box`, and
    /// those rows, ascending: the batches in memory through the one tree,
    /// each segment whose box meets `box` through its own (read back if it
    /// is not in memory). Entry positions ascend.
    package func forEachBoxHit(
        _ box: BoundingBox, _ body: (_ position: Int, FeatureBatch, _ rows: [Int]) throws(FeatureCacheError) -> Void
    ) throws(FeatureCacheError) {
        let found = index.search(box)
        var start = 0
        var hits: [(position: Int, rows: [Int])] = []
        while start < found.count {
            let batch = Int(found[start] >> 32)
            var end = start
            var rows: [Int] = []
            while end < found.count, Int(found[end] >> 32) == batch {
                rows.append(Int(found[end] & 0xFFFF_FFFF))
                end += 1
            }
            hits.append((indexed[batch], rows))
            start = end
        }
        // Segments under the box, merged with the hits in memory in entry order.
        var segments: [Int] = []
        segmentBoxes.withUnsafeBufferPointer { boxes in
            segmentTree.search(box.xmin, box.ymin, box.xmax, box.ymax) {
                (boxes[4 * $0], boxes[4 * $0 + 1], boxes[4 * $0 + 2], boxes[4 * $0 + 3])
            } _: {
                segments.append(segmentPositions[$0])
            }
        }
        var next = 0, segment = 0
        while next < hits.count || segment < segments.count {
            if segment == segments.count || (next < hits.count && hits[next].position < segments[segment]) {
                try body(hits[next].position, try batch(hits[next].position), hits[next].rows)
                next += 1
                continue
            }
            let (batch, tree) = try entries[segments[segment]].slot.indexedBatch(cache)
            let rows = tree.rows(in: box)
            if !rows.isEmpty { try body(segments[segment], batch, rows) }
            segment += 1
        }
    }
}
