// SPDX-License-Identifier: Apache-2.0
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
    static let spatialOrderMinimumRows = 1 << 13

    /// The batch with its rows in spatial order, rows without geometry last;
    /// `self` when it is small, has no geometry or is in that order already.
    /// A feature the batch holds twice (a server's pages shifted under it) is
    /// kept once, as its later copy: the merge that would have let the later
    /// copy win sees the rows in the new order.
    func inSpatialOrder() -> FeatureBatch {
        guard count >= Self.spatialOrderMinimumRows, !isInSpatialOrder else { return self }
        let located = HilbertRTree.hilbertOrder(count: count, box: geometry.box)
        guard !located.isEmpty else { return self }
        let superseded = rowsSupersededLater()
        var rows: [Int] = []
        rows.reserveCapacity(count)
        for row in located where superseded.map({ !$0[Int(row)] }) ?? true { rows.append(Int(row)) }
        if located.count < count {
            var placed = Bitmap(count: count, value: false)
            for row in located { placed[Int(row)] = true }
            for row in 0..<count where !placed[row] && !(superseded?[row] ?? false) { rows.append(row) }
        }
        return gathering(rows, spatial: true)
    }

    /// The rows whose object id comes again in a later row; nil when none does.
    private func rowsSupersededLater() -> Bitmap? {
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
