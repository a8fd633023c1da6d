// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Large batches store their rows in spatial order: the Hilbert order of their
/// boxes' centres, the order the store's R-tree visits them in. A viewport's
/// rows then sit together in memory, so the tree's leaves, the exact test and
/// a caller reading the result touch a few runs of rows instead of one cache
/// line per row scattered over the whole batch (server order is spatially
/// random: a million cached points put each of a window's 2,000 hits on a
/// line of its own).
///
/// What order then shows: a result without ORDER BY lists rows as the cache
/// stores them, and with an offset or max features in object-id order, as a
/// feature service pages (LocalQuery). A fetch that asked the service for an
/// order is not reordered (FeatureTable.write).
extension FeatureBatch {
    /// Batches of fewer rows stay in server order: a page's rows fit in the
    /// caches anyway, and the copy would cost more than it saves.
    package static let spatialOrderMinimumRows = 1 << 13

    /// The rows of `parts` (batches of one layout, in the order the server
    /// sent them) in spatial order, rows without geometry last, to gather into
    /// one new batch; nil when they are fewer than `spatialOrderMinimumRows`,
    /// are one batch in that order already, or have no geometry. A feature
    /// the parts hold twice (a server's pages shifted under it) is kept once,
    /// as its later copy: the merge that would have let the later copy win
    /// sees the rows in the new order.
    package static func spatialRowOrder(_ parts: [FeatureBatch]) -> [RowAddress]? {
        guard parts.reduce(0, { $0 + $1.count }) >= spatialOrderMinimumRows,
            !(parts.count == 1 && parts[0].isInSpatialOrder)
        else { return nil }
        let addresses = RowAddress.everyRow(ofParts: parts.map(\.count))
        let count = addresses.count
        let located = HilbertRTree.hilbertOrder(count: count) { parts[addresses[$0].part].geometry.box(addresses[$0].row) }
        guard !located.isEmpty else { return nil }
        let superseded = rowsSupersededLater(count) { parts[addresses[$0].part].objectId(addresses[$0].row) }
        var rows: [RowAddress] = []
        rows.reserveCapacity(count)
        for item in located where superseded.map({ !$0[Int(item)] }) ?? true { rows.append(addresses[Int(item)]) }
        if located.count < count {
            var placed = Bitmap(count: count, value: false)
            for item in located { placed[Int(item)] = true }
            for item in 0..<count where !placed[item] && !(superseded?[item] ?? false) { rows.append(addresses[item]) }
        }
        return rows
    }

    /// The rows (of `count`, with these object ids) whose object id comes again
    /// in a later row; nil when none does.
    private static func rowsSupersededLater(_ count: Int, objectId: (Int) -> Int64) -> Bitmap? {
        var index = ObjectIdIndex()
        index.reserveCapacity(count)
        var superseded: Bitmap? = nil
        for row in 0..<count {
            guard let earlier = index.insert(objectId(row), UInt32(row)) else { continue }
            if superseded == nil { superseded = Bitmap(count: count, value: false) }
            superseded![Int(earlier)] = true
        }
        return superseded
    }
}
