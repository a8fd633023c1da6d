// SPDX-License-Identifier: Apache-2.0
/// Compaction: the pages a populate or a view fetched become a few large
/// batches before they enter the cache. A query then works per batch — one
/// selection, one row list, one result part — instead of per page: a million
/// points from 500 pages of 2,000 are four batches, not 500.
extension FeatureBatch {
    /// Rows per compacted batch, at most. Large enough that per-batch work
    /// vanishes from queries, small enough that rewriting a batch whose rows
    /// were mostly replaced (FeatureStore) stays cheap.
    static let compactedRows = 1 << 18
    /// Bytes of one geometry or string column per compacted batch, at most (the
    /// offsets are 32-bit).
    static let compactedBytes = 1 << 30

    /// `batches` with each run of consecutive batches of one layout concatenated,
    /// up to `compactedRows` rows each, and large ones in spatial order unless
    /// `spatialOrder` is false (SpatialRowOrder.swift); small batches that share
    /// nothing stay as they are (never copied). Empty batches are dropped.
    package static func compacting(_ batches: [FeatureBatch], spatialOrder: Bool = true) -> [FeatureBatch] {
        var compacted: [FeatureBatch] = []
        var run: [FeatureBatch] = []
        // What the run holds so far: rows, geometry bytes, bytes per column.
        var rows = 0, geometryBytes = 0
        var columnBytes: [Int] = []
        func flush() {
            if !run.isEmpty {
                let batch = run.count == 1 ? run[0] : concatenating(run)
                compacted.append(spatialOrder ? batch.inSpatialOrder() : batch)
            }
            run = []
            rows = 0
            geometryBytes = 0
            columnBytes = []
        }
        for batch in batches where batch.count > 0 {
            let bytes = batch.columns.map { $0.bytes?.count ?? 0 }
            let fits = (run.first.map { $0.hasLayout(of: batch) } ?? true)
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
    func hasLayout(of other: FeatureBatch) -> Bool {
        guard schemaKey == other.schemaKey, objectIdColumn == other.objectIdColumn, geometryTolerance == other.geometryTolerance,
              objectIds.isEmpty == other.objectIds.isEmpty, columns.count == other.columns.count else { return false }
        for (a, b) in zip(columns, other.columns) where a.kind != b.kind || a.field.type != b.field.type { return false }
        return true
    }

    /// One batch holding the rows of `batches` (of one layout) in order.
    static func concatenating(_ batches: [FeatureBatch]) -> FeatureBatch {
        let first = batches[0]
        let columns = first.columns.indices.map { index in Column.concatenating(batches.map { $0.columns[index] }) }
        return FeatureBatch(columns: columns, geometry: GeometryColumn.concatenating(batches.map(\.geometry)),
                            count: batches.reduce(0) { $0 + $1.count }, objectIdColumn: first.objectIdColumn,
                            objectIds: first.objectIds.isEmpty ? [] : batches.flatMap(\.objectIds),
                            geometryTolerance: first.geometryTolerance)
    }
}

extension Column {
    /// The values of `parts` (one field, one kind) one after another.
    static func concatenating(_ parts: [Column]) -> Column {
        let first = parts[0]
        var validity: Bitmap? = nil
        if parts.contains(where: { $0.validity != nil }) {
            var bits = Bitmap()
            bits.reserveCapacity(parts.reduce(0) { $0 + $1.rowCount })
            for part in parts {
                if let source = part.validity {
                    for row in 0..<part.rowCount { bits.append(source[row]) }
                } else {
                    for _ in 0..<part.rowCount { bits.append(true) }
                }
            }
            validity = bits
        }
        switch first.kind {
        case .int64, .boolean:
            return Column(field: first.field, kind: first.kind, integers: parts.flatMap(\.integers), validity: validity)
        case .double:
            return Column(field: first.field, kind: first.kind, doubles: parts.flatMap(\.doubles), validity: validity)
        case .string:
            var bytes: [UInt8] = []
            bytes.reserveCapacity(parts.reduce(0) { $0 + ($1.bytes?.count ?? 0) })
            var offsets: [UInt32] = [0]
            offsets.reserveCapacity(parts.reduce(1) { $0 + $1.rowCount })
            for part in parts {
                let shift = UInt32(bytes.count)
                if let source = part.bytes { bytes.append(contentsOf: source[0..<source.count]) }
                for offset in part.offsets.dropFirst() { offsets.append(offset + shift) }
            }
            return Column(field: first.field, kind: first.kind, offsets: offsets, bytes: FrozenBytes(bytes), validity: validity)
        }
    }

    /// Rows of the column (its storage says: values, or string offsets).
    var rowCount: Int {
        switch kind {
        case .int64, .boolean: integers.count
        case .double: doubles.count
        case .string: max(offsets.count - 1, 0)
        }
    }
}

extension GeometryColumn {
    /// The geometries of `parts` one after another: still points-only (no
    /// offsets, no boxes) when every part is.
    static func concatenating(_ parts: [GeometryColumn]) -> GeometryColumn {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + $1.bytes.count })
        for part in parts { bytes.append(contentsOf: part.bytes[0..<part.bytes.count]) }
        let count = parts.reduce(0) { $0 + $1.count }
        if parts.allSatisfy(\.isPointsOnly) {
            return GeometryColumn(bytes: FrozenBytes(bytes), offsets: nil, boxes: nil, count: count)
        }
        var offsets: [UInt32] = [0]
        offsets.reserveCapacity(count + 1)
        var boxes: [Double] = []
        boxes.reserveCapacity(4 * count)
        var base: UInt32 = 0
        for part in parts {
            for row in 0..<part.count {
                if let partOffsets = part.offsets {
                    offsets.append(base + partOffsets[row + 1])
                } else {
                    offsets.append(base + UInt32((row + 1) * pointSize))
                }
                let box = part.box(row)
                boxes.append(box.xmin); boxes.append(box.ymin); boxes.append(box.xmax); boxes.append(box.ymax)
            }
            base += UInt32(part.bytes.count)
        }
        return GeometryColumn(bytes: FrozenBytes(bytes), offsets: offsets, boxes: boxes, count: count)
    }
}
