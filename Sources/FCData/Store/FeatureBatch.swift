// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// An immutable page of features in columns: one typed column per field, the
/// geometry as WKB with boxes, an R-tree, and an object id per row. Readers build
/// one per response page; the store and results share batches without copying.
public final class FeatureBatch: Sendable {
    public let columns: [Column]
    public let geometry: GeometryColumn
    public let count: Int
    /// The column that holds the object ids, when the service sends them as an
    /// attribute (ArcGIS); otherwise `objectIds` holds them.
    package let objectIdColumn: Int?
    package let objectIds: ColumnBuffer<Int64>
    /// The ids of the rows wherever they are stored (the same storage, not a
    /// copy), so reading one is a single array access.
    private let rowObjectIds: ColumnBuffer<Int64>
    private let columnIndex: [String: Int]
    /// The field names, joined: batches with equal keys have the same columns
    /// in the same order (results map them once).
    package let schemaKey: String
    /// How far the geometry may be from the server's, in map units: the
    /// quantization tolerance a view asked for (ArcGIS PBF tiles); 0 = exact.
    /// The store never replaces a row with a coarser copy of it.
    package let geometryTolerance: Double
    /// The rows are stored in spatial order (SpatialRowOrder.swift), not in
    /// the order the server sent them; rows taken out of such a batch keep it.
    package let isInSpatialOrder: Bool

    package init(
        columns: [Column], geometry: GeometryColumn, count: Int, objectIdColumn: Int?, objectIds: ColumnBuffer<Int64>,
        geometryTolerance: Double = 0, isInSpatialOrder: Bool = false
    ) {
        self.geometryTolerance = geometryTolerance
        self.isInSpatialOrder = isInSpatialOrder
        self.columns = columns
        self.geometry = geometry
        self.count = count
        self.objectIdColumn = objectIdColumn
        self.objectIds = objectIds
        rowObjectIds = objectIdColumn.map { columns[$0].integers } ?? objectIds
        var index: [String: Int] = [:]
        for (position, column) in columns.enumerated() { index[column.field.name.lowercased()] = position }
        columnIndex = index
        schemaKey = columns.map(\.field.name).joined(separator: "\u{1}")
    }

    /// `count` rows of some columns only, with no geometry and no ids: what a
    /// where clause reads of a segment (SegmentFile.readColumns), to select
    /// rows in, never an answer's batch.
    package static func columnsOnly(_ columns: [Column], count: Int) -> FeatureBatch {
        FeatureBatch(
            columns: columns, geometry: GeometryColumn(bytes: FrozenBytes(count: 0) { _ in }, offsets: nil, boxes: nil, count: 0),
            count: count, objectIdColumn: nil, objectIds: ColumnBuffer())
    }

    @inline(__always)
    public func objectId(_ row: Int) -> Int64 { rowObjectIds[row] }

    /// Every row's object id, in row order.
    package var objectIdValues: ColumnBuffer<Int64> { rowObjectIds }

    public var fields: [FieldInfo] { columns.map(\.field) }

    /// The first `n` rows (for a server that sent more than was asked for).
    package func prefix(_ n: Int) -> FeatureBatch {
        guard n < count else { return self }
        return FeatureBatch(
            columns: columns.map { $0.prefix(n) }, geometry: geometry.prefix(n), count: n,
            objectIdColumn: objectIdColumn, objectIds: objectIds.first(n), geometryTolerance: geometryTolerance)
    }

    /// The same rows, marked as generalized to `tolerance` map units.
    package func withGeometryTolerance(_ tolerance: Double) -> FeatureBatch {
        FeatureBatch(
            columns: columns, geometry: geometry, count: count, objectIdColumn: objectIdColumn,
            objectIds: objectIds, geometryTolerance: tolerance, isInSpatialOrder: isInSpatialOrder)
    }

    /// The column of a field, compared case-insensitively.
    public func columnIndex(named name: String) -> Int? { columnIndex[name.lowercased()] }

    /// Heap bytes held by this batch (values, geometry, index).
    public var byteSize: Int {
        columns.reduce(0) { $0 + $1.byteSize } + geometry.byteSize + objectIds.byteSize
    }
}

/// Collects the rows of one batch as a reader walks a response.
/// Its stored properties are `@exclusivity(unchecked)`: it is mutated once or
/// more per value read, the dynamic exclusivity checks on those accesses cost
/// about 30 % of reading, and it is only ever used by the one thread reading.
package final class BatchBuilder {
    @exclusivity(unchecked) package private(set) var columns: [ColumnBuilder]
    @exclusivity(unchecked) package var geometry = GeometryColumnBuilder()
    @exclusivity(unchecked) package private(set) var count = 0
    @exclusivity(unchecked) private var objectIds: [Int64] = []
    private let objectIdColumn: Int?
    /// Each column's name as bytes, for matching keys without making Strings.
    @exclusivity(unchecked) private var names: [[UInt8]]

    /// A builder for a declared schema (`fields`); `objectIdField` names the
    /// column holding object ids, if any.
    package init(fields: [FieldInfo], objectIdField: String?) {
        columns = fields.map(ColumnBuilder.init(declared:))
        names = fields.map { Array($0.name.utf8) }
        let oid = objectIdField?.lowercased()
        objectIdColumn = fields.firstIndex { $0.name.lowercased() == oid && ColumnKind($0.type) == .int64 }
    }

    /// Room for `rows` rows, when a reader knows how many come.
    package func reserveCapacity(_ rows: Int) {
        for column in columns { column.reserveCapacity(rows) }
        geometry.reserveCapacity(rows)
        if objectIdColumn == nil { objectIds.reserveCapacity(rows) }
    }

    /// A builder whose columns appear as properties are met (GeoJSON).
    package init() {
        columns = []
        names = []
        objectIdColumn = nil
    }

    /// The column whose name is `matches` (by `hint` first: attributes usually
    /// come in field order). Some servers list a field name twice: the first copy
    /// not yet filled in this row is taken.
    @inline(__always)
    package func column(hint: Int, _ matches: (_ name: [UInt8]) -> Bool) -> Int? {
        if hint < names.count, matches(names[hint]) { return hint }
        var found: Int? = nil
        for index in names.indices where matches(names[index]) {
            if columns[index].count == count { return index }
            found = found ?? index
        }
        return found
    }

    /// A new inferred column named `name`, NULL for the rows so far.
    package func addInferredColumn(_ name: String) -> Int {
        let column = ColumnBuilder(inferredName: name)
        column.padNulls(to: count)
        columns.append(column)
        names.append(Array(name.utf8))
        return columns.count - 1
    }

    /// Whether no other column has the name of column `index` (a schema may
    /// list a name twice: then which copy a value goes to depends on the row).
    package func hasUniqueName(_ index: Int) -> Bool {
        !names.indices.contains { $0 != index && names[$0] == names[index] }
    }

    /// Ends a row: columns it did not mention get NULL; `objectId` is used when the
    /// ids are not an attribute column.
    /// - Parameter everyColumnFilled: the reader knows each column has a value
    ///   for the row (no NULLs to fill in).
    @inline(__always)
    package func endRow(objectId: Int64? = nil, everyColumnFilled: Bool = false) {
        count += 1
        if !everyColumnFilled {
            for column in columns where column.count < count { column.appendNull() }
        }
        if objectIdColumn == nil { objectIds.append(objectId ?? 0) }
    }

    /// Whether object ids come from an attribute column (else `endRow(objectId:)` gives them).
    package var hasObjectIdColumn: Bool { objectIdColumn != nil }

    package func finish() -> FeatureBatch {
        FeatureBatch(
            columns: columns.map { $0.finish() }, geometry: geometry.finish(), count: count,
            objectIdColumn: objectIdColumn, objectIds: ColumnBuffer(objectIds))
    }
}
