// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// How a store's batches held in memory are cut into segments
/// (FeatureStore.spill): batches of one layout together, their current rows
/// in the Hilbert order of their boxes (rows without geometry last), cut
/// every `FeatureStore.segmentRows` rows or `segmentGeometryBytes` of
/// geometry. Neighbours on the curve are neighbours on the map, so a
/// segment's box is small and a viewport reads a few segments, not all.
package struct SpillPlan {
    package struct Chunk {
        /// Which group of `groups` its rows are from.
        package let group: Int
        /// Its rows: (batch of the group, row), in order.
        package let rows: [RowAddress]
    }
    /// The batches, by layout (FeatureBatch.hasLayout).
    package let groups: [[FeatureBatch]]
    package let chunks: [Chunk]

    package init(_ batches: [FeatureBatch], live: [Bitmap]) {
        var groups: [[FeatureBatch]] = []
        var groupLive: [[Bitmap]] = []
        for (batch, bits) in zip(batches, live) {
            if let group = groups.firstIndex(where: { $0[0].hasLayout(of: batch) }) {
                groups[group].append(batch)
                groupLive[group].append(bits)
            } else {
                groups.append([batch])
                groupLive.append([bits])
            }
        }
        var chunks: [Chunk] = []
        for (group, parts) in groups.enumerated() {
            var rows: [RowAddress] = []
            for (part, batch) in parts.enumerated() {
                for row in 0..<batch.count where groupLive[group][part][row] { rows.append(RowAddress(part: part, row: row)) }
            }
            let located = HilbertRTree.hilbertOrder(count: rows.count) { parts[rows[$0].part].geometry.box(rows[$0].row) }
            var ordered: [RowAddress] = []
            ordered.reserveCapacity(rows.count)
            for item in located { ordered.append(rows[Int(item)]) }
            if located.count < rows.count {
                var placed = Bitmap(count: rows.count, value: false)
                for item in located { placed[Int(item)] = true }
                for item in rows.indices where !placed[item] { ordered.append(rows[item]) }
            }
            var start = 0
            while start < ordered.count {
                var end = start, bytes = 0
                while end < ordered.count, end - start < FeatureStore.segmentRows,
                    end == start || bytes < FeatureStore.segmentGeometryBytes
                {
                    bytes += parts[ordered[end].part].geometry.wkb(ordered[end].row).count
                    end += 1
                }
                chunks.append(Chunk(group: group, rows: Array(ordered[start..<end])))
                start = end
            }
        }
        self.groups = groups
        self.chunks = chunks
    }

    /// Chunk `index`'s rows, gathered into a batch in spatial order.
    package func gather(_ index: Int) -> FeatureBatch {
        let chunk = chunks[index]
        return FeatureBatch.gathering(chunk.rows, from: groups[chunk.group], spatial: true)
    }

    package func objectId(_ chunk: Chunk, _ address: RowAddress) -> Int64 {
        groups[chunk.group][address.part].objectId(address.row)
    }
}
