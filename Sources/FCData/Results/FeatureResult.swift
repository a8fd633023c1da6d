// SPDX-License-Identifier: Apache-2.0
import FCSupport
import Synchronization

/// The features a populate or query returned: rows of batches, shared with the
/// cache, never copied. Immutable, so any thread may read it, and it keeps its
/// batches alive after the table is gone.
public final class FeatureResult: Sendable {
    /// The result's fields: the union of its batches' fields, in first-seen order.
    public let fields: [FieldInfo]
    public let count: Int
    /// True when `maxFeatures` cut the set short (more matched than returned).
    public let limitExceeded: Bool
    public let spatialReference: SpatialReference?
    /// False when the answer came from a cache that does not cover the query
    /// while the service could not be asked (a table loaded offline): the
    /// service may have more features there.
    public var isComplete: Bool { complete.load(ordering: .relaxed) }
    /// An atomic in the result itself: no allocation for the flag on every query.
    private let complete = Atomic(true)

    /// Marks the answer as possibly short (see `isComplete`).
    package func markIncomplete() { complete.store(false, ordering: .relaxed) }

    package struct Part: Sendable {
        package let batch: FeatureBatch
        /// Rows of the batch in this result; nil = all of them.
        package let rows: [UInt32]?
        /// For each result field, the batch column, or -1 when the batch lacks it.
        package let columnMap: [Int32]
        package let count: Int
    }
    /// The result's rows, part after part, in order. An ordered result keeps
    /// its order instead (`order`), and makes these only when something walks
    /// parts (Arrow's record batches, a projection): see `parts`.
    private let storedParts: [Part]
    /// An ordered result's rows: `storedParts` index << 32 | batch row, per
    /// result row. nil: the rows are `storedParts` in turn.
    private let order: [UInt64]?
    private let gatheredParts = Locked<[Part]?>(nil)
    /// First result row of each part.
    private let starts: [Int]
    /// For every block of 1,024 result rows, the part holding its first row: a
    /// row is found among the few parts of its block, not all of them (a query
    /// over a million cached rows has hundreds of parts).
    private let blockParts: [Int32]
    private static let blockShift = 10
    private let fieldIndex: [String: Int]
    /// Each part's columns (part × fields + field) and rows as bare addresses:
    /// the typed accessors read a cell through these, counting no reference.
    private let columnViews: [ColumnView]
    private let rowViews: [RowView]

    /// False when the query asked for no geometry: rows then have none.
    public let includesGeometry: Bool

    /// - Parameters:
    ///   - outFields: the fields to show (case-insensitive); nil or "*" = all.
    ///   - includesGeometry: false hides the geometry of every row.
    ///   - schema: the table's declared fields, the result's fields when no
    ///     batch gives any (nothing matched: the columns are still known).
    public convenience init(
        _ pieces: [(batch: FeatureBatch, rows: [UInt32]?)], limitExceeded: Bool, spatialReference: SpatialReference?,
        outFields: [String]? = nil, includesGeometry: Bool = true, schema: [FieldInfo] = []
    ) {
        self.init(
            pieces, order: nil, limitExceeded: limitExceeded, spatialReference: spatialReference, outFields: outFields,
            includesGeometry: includesGeometry, schema: schema)
    }

    /// The rows `ordered` (addresses into `batches`) in that order. Nothing is
    /// copied: the accessors read each row where its batch keeps it, and the
    /// rows are gathered into parts only when something asks for `parts`.
    package convenience init(
        ordered rows: [RowAddress], of batches: [FeatureBatch], limitExceeded: Bool, spatialReference: SpatialReference?,
        outFields: [String]? = nil, includesGeometry: Bool = true, schema: [FieldInfo] = []
    ) {
        // The batches the rows come from, in first-seen order, and the rows re-pointed at them.
        var place = [Int](repeating: -1, count: batches.count)
        var used: [(batch: FeatureBatch, rows: [UInt32]?)] = []
        var order: [UInt64] = []
        order.reserveCapacity(rows.count)
        for address in rows {
            if place[address.part] < 0 {
                place[address.part] = used.count
                used.append((batches[address.part], nil))
            }
            order.append(UInt64(place[address.part]) << 32 | UInt64(address.row))
        }
        self.init(
            used, order: order, limitExceeded: limitExceeded, spatialReference: spatialReference, outFields: outFields,
            includesGeometry: includesGeometry, schema: schema)
    }

    private init(
        _ pieces: [(batch: FeatureBatch, rows: [UInt32]?)], order: [UInt64]?, limitExceeded: Bool,
        spatialReference: SpatialReference?, outFields: [String]?, includesGeometry: Bool, schema: [FieldInfo]
    ) {
        var fields: [FieldInfo] = []
        var index: [String: Int] = [:]
        let wanted = outFields.flatMap { $0.contains("*") || $0.isEmpty ? nil : Set($0.map { $0.lowercased() }) }
        var seenSchemas = Set<String>()
        for piece in pieces {
            // Batches of one reader share a schema: look at each schema once.
            guard seenSchemas.insert(piece.batch.schemaKey).inserted else { continue }
            for field in piece.batch.fields
            where index[field.name.lowercased()] == nil && wanted?.contains(field.name.lowercased()) != false {
                index[field.name.lowercased()] = fields.count
                fields.append(field)
            }
        }
        if fields.isEmpty {
            for field in schema where field.type != .geometry && wanted?.contains(field.name.lowercased()) != false {
                index[field.name.lowercased()] = fields.count
                fields.append(field)
            }
        }
        let parts = Self.parts(pieces, fields)
        var starts: [Int] = []
        var total = 0
        for part in parts {
            starts.append(total)
            total += part.count
        }
        if let order {
            // Rows are found through the order, not by part.
            total = order.count
            starts = []
        }
        var blockParts: [Int32] = []
        blockParts.reserveCapacity((total >> Self.blockShift) + 1)
        var part = 0
        for block in 0..<(order == nil ? (total + (1 << Self.blockShift) - 1) >> Self.blockShift : 0) {
            let first = block << Self.blockShift
            while part + 1 < starts.count, starts[part + 1] <= first { part += 1 }
            blockParts.append(Int32(part))
        }
        columnViews = parts.flatMap { part in
            part.columnMap.map { ColumnView($0 < 0 ? nil : part.batch.columns[Int($0)]) }
        }
        rowViews = parts.map { RowView($0.batch) }
        self.fields = fields
        storedParts = parts
        self.order = order
        self.starts = starts
        self.blockParts = blockParts
        self.count = total
        self.limitExceeded = limitExceeded
        self.spatialReference = spatialReference
        self.includesGeometry = includesGeometry
        fieldIndex = index
    }

    public func fieldIndex(named name: String) -> Int? { fieldIndex[name.lowercased()] }

    /// Pieces as parts: each with the map from result fields to its columns
    /// (batches of one reader share a schema: mapped once); empty pieces dropped.
    private static func parts(_ pieces: [(batch: FeatureBatch, rows: [UInt32]?)], _ fields: [FieldInfo]) -> [Part] {
        var parts: [Part] = []
        var maps: [String: [Int32]] = [:]
        for piece in pieces {
            let count = piece.rows?.count ?? piece.batch.count
            guard count > 0 else { continue }
            let map: [Int32]
            if let known = maps[piece.batch.schemaKey] {
                map = known
            } else {
                map = fields.map { Int32(piece.batch.columnIndex(named: $0.name) ?? -1) }
                maps[piece.batch.schemaKey] = map
            }
            parts.append(Part(batch: piece.batch, rows: piece.rows, columnMap: map, count: count))
        }
        return parts
    }

    /// The rows, part after part, in result order. An ordered result's rows are
    /// gathered on first use (OrderedWindow: runs of one batch kept, scattered
    /// rows copied into a few batches), once.
    package var parts: [Part] {
        guard let order else { return storedParts }
        return gatheredParts.withLock { gathered in
            if let gathered { return gathered }
            let rows = order.map { RowAddress(part: Int($0 >> 32), row: Int($0 & 0xFFFF_FFFF)) }
            let made = Self.parts(OrderedWindow.pieces(rows, of: storedParts.map(\.batch)), fields)
            gathered = made
            return made
        }
    }

    /// The batch and batch row of a result row.
    @inline(__always)
    package func locate(_ row: Int) -> (part: Part, row: Int) {
        let (index, local) = locateIndex(row)
        return (storedParts[index], local)
    }

    /// The part index and batch row of a result row (no copy of the part).
    @inline(__always)
    package func locateIndex(_ row: Int) -> (part: Int, row: Int) {
        if let order { return (Int(order[row] >> 32), Int(order[row] & 0xFFFF_FFFF)) }
        // Between the part of this row's block and that of the next block.
        let block = row >> Self.blockShift
        var low = Int(blockParts[block])
        var high = block + 1 < blockParts.count ? Int(blockParts[block + 1]) : starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= row { low = mid } else { high = mid - 1 }
        }
        let local = row - starts[low]
        if let rows = storedParts[low].rows { return (low, Int(rows[local])) }
        return (low, local)
    }

    // MARK: - Typed access

    private func check(_ row: Int, _ column: Int) throws(FeatureCacheError) {
        guard row >= 0, row < count else { throw FeatureCacheError(.invalidArgument, "row \(row) is out of range (0..<\(count))") }
        guard column >= 0, column < fields.count else {
            throw FeatureCacheError(.invalidArgument, "column \(column) is out of range (0..<\(fields.count))")
        }
    }

    /// The stored column of a cell, nil when the row's batch lacks the field (NULL).
    @inline(__always)
    package func cell(_ row: Int, _ column: Int) throws(FeatureCacheError) -> (Column, Int)? {
        try check(row, column)
        let (part, local) = locate(row)
        let mapped = Int(part.columnMap[column])
        return mapped < 0 ? nil : (part.batch.columns[mapped], local)
    }

    /// A cell's column view and batch row.
    @inline(__always)
    private func view(_ row: Int, _ column: Int) throws(FeatureCacheError) -> (ColumnView, Int) {
        try check(row, column)
        let (part, local) = locateIndex(row)
        return (columnViews[part * fields.count + column], local)
    }

    public func isNull(_ row: Int, _ column: Int) throws(FeatureCacheError) -> Bool {
        let (view, local) = try view(row, column)
        return view.isNull(local)
    }

    /// A non-NULL cell of a kind `accepts`, or the error that explains why not.
    @inline(__always)
    private func value(
        _ row: Int, _ column: Int, _ wanted: String, _ accepts: (ColumnKind) -> Bool
    ) throws(FeatureCacheError) -> (ColumnView, Int) {
        let (view, local) = try view(row, column)
        guard !view.isNull(local) else {
            throw FeatureCacheError(.invalidState, "row \(row), field '\(fields[column].name)' is NULL")
        }
        guard accepts(view.kind) else {
            throw FeatureCacheError(.invalidArgument, "field '\(fields[column].name)' is \(fields[column].type), not \(wanted)")
        }
        return (view, local)
    }

    /// Integer, object id, boolean (0/1) and date (epoch ms) fields.
    public func int64(_ row: Int, _ column: Int) throws(FeatureCacheError) -> Int64 {
        let (view, local) = try value(row, column, "an integer") { $0 == .int64 || $0 == .boolean }
        return view.int64(local)
    }

    /// Any numeric field, integers converted.
    public func double(_ row: Int, _ column: Int) throws(FeatureCacheError) -> Double {
        let (view, local) = try value(row, column, "a number") { $0 == .double || $0 == .int64 }
        return view.double(local)
    }

    /// Text fields (strings, GUIDs, date-only, time-only, timestamp-offset as ISO 8601).
    public func string(_ row: Int, _ column: Int) throws(FeatureCacheError) -> String {
        let (view, local) = try value(row, column, "text") { $0 == .string }
        return String(decoding: view.stringBytes(local), as: UTF8.self)
    }

    /// A borrowed, NUL-terminated pointer into the result's storage.
    public func cString(_ row: Int, _ column: Int) throws(FeatureCacheError) -> UnsafePointer<CChar> {
        let (view, local) = try value(row, column, "text") { $0 == .string }
        return view.cString(local)
    }

    public func objectId(_ row: Int) throws(FeatureCacheError) -> Int64 {
        guard row >= 0, row < count else { throw FeatureCacheError(.invalidArgument, "row \(row) is out of range (0..<\(count))") }
        let (part, local) = locateIndex(row)
        return rowViews[part].objectId(local)
    }

    /// The row's geometry as ISO WKB (empty when it has none), borrowed from the result.
    public func wkb(_ row: Int) throws(FeatureCacheError) -> UnsafeRawBufferPointer {
        guard row >= 0, row < count else { throw FeatureCacheError(.invalidArgument, "row \(row) is out of range (0..<\(count))") }
        guard includesGeometry else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let (part, local) = locateIndex(row)
        return rowViews[part].wkb(local)
    }

    /// Calls `body` with every row in result order: its batch's column of each
    /// result field (a view of none: NULL), its batch's object ids and geometry,
    /// and its batch row. Views, not columns: nothing is counted per row.
    package func forEachRow(_ body: (UnsafeBufferPointer<ColumnView>, RowView, Int) -> Void) {
        let width = fields.count
        columnViews.withUnsafeBufferPointer { views in
            func visit(_ part: Int, _ row: Int) {
                body(UnsafeBufferPointer(rebasing: views[(part * width)..<(part * width + width)]), rowViews[part], row)
            }
            if let order {
                for entry in order { visit(Int(entry >> 32), Int(entry & 0xFFFF_FFFF)) }
                return
            }
            for (index, part) in storedParts.enumerated() {
                if let rows = part.rows {
                    for row in rows { visit(index, Int(row)) }
                } else {
                    for row in 0..<part.count { visit(index, row) }
                }
            }
        }
    }
}

extension FeatureResult {
    /// The result with its geometries in `wkid` (0 or the result's own: itself).
    /// Rows are gathered and projected once; attributes are shared.
    package func projected(to wkid: Int32) throws(FeatureCacheError) -> FeatureResult {
        guard wkid != 0, let transform = try Projection.transform(from: spatialReference, to: SpatialReference(wkid: wkid)) else {
            return self
        }
        let pieces = parts.map { part -> (batch: FeatureBatch, rows: [UInt32]?) in
            let rows = part.rows.map { $0.map(Int.init) }
            let batch = rows.map { part.batch.gathering($0, spatial: false) } ?? part.batch
            return (includesGeometry ? batch.mappingCoordinates(transform) : batch, nil)
        }
        let projected = FeatureResult(
            pieces, limitExceeded: limitExceeded, spatialReference: SpatialReference(wkid: wkid),
            outFields: fields.map(\.name), includesGeometry: includesGeometry, schema: fields)
        if !isComplete { projected.markIncomplete() }
        return projected
    }
}
