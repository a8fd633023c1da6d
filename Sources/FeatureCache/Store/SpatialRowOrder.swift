// SPDX-License-Identifier: Apache-2.0
/// Large batches store their rows in spatial order: the Hilbert order of their
/// boxes' centres, the order the store's R-tree visits them in. A viewport's
/// rows then sit together in memory, so the tree's leaves, the exact test and
/// a caller reading the result touch a few runs of rows instead of one cache
/// line per row scattered over the whole batch (server order is spatially
/// random: a million cached points put each of a window's 2,000 hits on a
/// line of its own).
///
/// Order stays the server's wherever it shows: every row keeps its server
/// position (`FeatureBatch.serverPositions`), results list rows by it, and a
/// later copy of a feature in one populate still replaces an earlier one.
extension FeatureBatch {
    /// Batches of fewer rows stay in server order: a page's rows fit in the
    /// caches anyway, and the copy would cost more than it saves.
    static let spatialOrderMinimumRows = 1 << 13

    /// The batch with its rows in spatial order (rows without geometry last, in
    /// server order); `self` when it is small, has no geometry or is in that
    /// order already (`isInSpatialOrder`).
    func inSpatialOrder() -> FeatureBatch {
        guard count >= Self.spatialOrderMinimumRows, !isInSpatialOrder else { return self }
        let located = HilbertRTree.hilbertOrder(count: count, box: geometry.box)
        guard !located.isEmpty else { return self }
        var rows = located.map { Int($0) }
        if rows.count < count {
            var placed = Bitmap(count: count, value: false)
            for row in rows { placed[row] = true }
            for row in 0..<count where !placed[row] { rows.append(row) }
        }
        let positions = serverPositions.isEmpty ? rows.map { UInt32($0) } : rows.map { serverPositions[$0] }
        return gathering(rows, serverPositions: positions)
    }

    /// Whether the rows are stored in spatial order: every batch that has
    /// server positions is (rows taken out of it keep the others' order).
    var isInSpatialOrder: Bool { !serverPositions.isEmpty }

    /// `rows` (of this batch, distinct, any order) in the server's order.
    func inServerOrder(_ rows: [Int]) -> [Int] {
        guard !serverPositions.isEmpty, rows.count > 1 else { return rows }
        if rows.count >= count / 16 {
            // A large share of the batch: mark their positions, then read the
            // marks in order (linear, where sorting would take five passes).
            var marked = Bitmap(count: count, value: false)
            for row in rows { marked[Int(serverPositions[row])] = true }
            let order = storageOrder()
            var listed: [Int] = []
            listed.reserveCapacity(rows.count)
            marked.forEachSet { listed.append(Int(order[$0])) }
            return listed
        }
        var keyed = rows.map { UInt64(serverPositions[$0]) << 32 | UInt64($0) }
        RadixSort.sort(&keyed, byBitsFrom: 32)
        return keyed.map { Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF) }
    }

    /// Every row in the server's order.
    func rowsInServerOrder() -> [Int] {
        serverPositions.isEmpty ? Array(0..<count) : storageOrder().map { Int($0) }
    }

    /// The row stored at each server position (the inverse of `serverPositions`).
    private func storageOrder() -> [UInt32] {
        var order = [UInt32](repeating: 0, count: count)
        for (row, position) in serverPositions.enumerated() { order[Int(position)] = UInt32(row) }
        return order
    }

    /// The rows a result lists for "every row": nil when that is storage order.
    var resultRows: [UInt32]? {
        serverPositions.isEmpty ? nil : storageOrder()
    }

    /// Distinct values as their ranks: 0 for the smallest, 1 for the next…
    static func ranks(_ values: [UInt32]) -> [UInt32] {
        var keyed = values.enumerated().map { UInt64($0.element) << 32 | UInt64($0.offset) }
        RadixSort.sort(&keyed, byBitsFrom: 32)
        var ranks = [UInt32](repeating: 0, count: values.count)
        for (rank, key) in keyed.enumerated() { ranks[Int(key & 0xFFFF_FFFF)] = UInt32(rank) }
        return ranks
    }

    /// The server positions of batches concatenated in order: each batch's rows
    /// after every row of the batches before it. Empty when every batch is in
    /// server order.
    static func concatenatedServerPositions(_ batches: [FeatureBatch]) -> [UInt32] {
        guard batches.contains(where: { !$0.serverPositions.isEmpty }) else { return [] }
        var positions: [UInt32] = []
        positions.reserveCapacity(batches.reduce(0) { $0 + $1.count })
        for batch in batches {
            let base = UInt32(positions.count)
            if batch.serverPositions.isEmpty {
                for row in 0..<batch.count { positions.append(base + UInt32(row)) }
            } else {
                for position in batch.serverPositions { positions.append(base + position) }
            }
        }
        return positions
    }
}
