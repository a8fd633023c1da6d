// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Compaction: the pages a populate or a view fetched become a few large
/// batches before they enter the cache. A query then works per batch — one
/// selection, one row list, one result part — instead of per page: a million
/// points from 500 pages of 2,000 are four batches, not 500.
extension FeatureBatch {
    /// Rows per compacted batch, at most. Large enough that per-batch work
    /// vanishes from queries, small enough that rewriting a batch whose rows
    /// were mostly replaced (FeatureStore) stays cheap.
    package static let compactedRows = 1 << 18
    /// Bytes of one geometry or string column per compacted batch, at most (the
    /// offsets are 32-bit).
    package static let compactedBytes = 1 << 30

    /// `batches` with each run of consecutive batches of one layout concatenated,
    /// up to `compactedRows` rows each, and large ones in spatial order unless
    /// `spatialOrder` is false (SpatialRowOrder.swift); small batches that share
    /// nothing stay as they are (never copied). Empty batches are dropped.
    ///
    /// Memory: a run is gathered from its pages straight into place (spatial
    /// order or not), and each page column is let go as soon as it is copied,
    /// so a run is held about once, plus a column, when the caller hands the
    /// pages over (`consume`); twice at most when it keeps them.
    package static func compacting(_ batches: consuming [FeatureBatch], spatialOrder: Bool = true) -> [FeatureBatch] {
        var compacted: [FeatureBatch] = []
        var run: [FeatureBatch] = []
        // What the run holds so far: rows, geometry bytes, bytes per column.
        var rows = 0, geometryBytes = 0
        var columnBytes: [Int] = []
        func flush() {
            let pages = run
            run = []
            rows = 0
            geometryBytes = 0
            columnBytes = []
            if spatialOrder, let order = spatialRowOrder(pages) {
                // Gathered from the pages straight into spatial order.
                compacted.append(gathering(order, from: consume pages, spatial: true))
            } else if pages.count > 1 {
                compacted.append(concatenating(consume pages))
            } else if let page = pages.first {
                compacted.append(page)
            }
        }
        // Taken from the end of the reversed list, so that each page is held
        // by `run` alone once it is taken.
        var pages = consume batches
        pages.reverse()
        while let batch = pages.popLast() {
            guard batch.count > 0 else { continue }
            let bytes = batch.columns.map { $0.bytes?.count ?? 0 }
            let fits =
                (run.first.map { $0.hasLayout(of: batch) } ?? true)
                && rows + batch.count <= compactedRows
                && geometryBytes + batch.geometry.bytes.count <= compactedBytes
                && zip(columnBytes, bytes).allSatisfy { $0 + $1 <= compactedBytes }
            if !fits { flush() }
            run.append(batch)
            rows += batch.count
            geometryBytes += batch.geometry.bytes.count
            columnBytes = columnBytes.isEmpty ? bytes : zip(columnBytes, bytes).map(+)
        }
        flush()
        return compacted
    }

    /// Same columns (names, field types, storage kinds, in order), the same
    /// kind of object ids and the same geometry tolerance: rows of one can
    /// follow rows of the other.
    package func hasLayout(of other: FeatureBatch) -> Bool {
        guard schemaKey == other.schemaKey, objectIdColumn == other.objectIdColumn, geometryTolerance == other.geometryTolerance,
            objectIds.isEmpty == other.objectIds.isEmpty, columns.count == other.columns.count
        else { return false }
        for (a, b) in zip(columns, other.columns) where a.kind != b.kind || a.field.type != b.field.type { return false }
        return true
    }
}
