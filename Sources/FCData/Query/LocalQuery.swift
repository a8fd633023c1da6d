// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Answers a query from the cache: per batch, the R-tree narrows to the query
/// box, the exact spatial predicate and the object ids filter, then the where
/// clause (ANDed with the table's definition expression) runs column-wise over
/// the rows left. Then order, offset and limit, and a result that shares the
/// cached batches.
package struct LocalQuery {
    package let query: QueryParameters
    private let evaluator: WhereEvaluator?
    private let spatial: SpatialFilter?
    private let ids: Set<Int64>?
    private let order: OrderBy?
    /// The table's fields: the columns of an answer with no rows.
    private let fields: [FieldInfo]

    /// - Parameters:
    ///   - definitionExpression: the table's own filter, always applied.
    ///   - fields: the table's fields, to check the where clause and order by.
    ///   - tableWkid: the spatial reference of cached geometries.
    ///   - validated: the caller checked `query` already (a table's query path checks it once).
    package init(
        _ query: QueryParameters, definitionExpression: String, fields: [FieldInfo], tableWkid: Int32,
        validated: Bool = false
    ) throws(FeatureCacheError) {
        try self.init(
            query, definitionExpression: definitionExpression, fields: fields, table: SpatialReference(wkid: tableWkid),
            validated: validated)
    }

    /// The same with the table's spatial reference whole (a code, or the WKT a layer gives alone).
    package init(
        _ query: QueryParameters, definitionExpression: String, fields: [FieldInfo], table: SpatialReference?,
        validated: Bool = false
    ) throws(FeatureCacheError) {
        if !validated { try query.validate() }
        self.query = query
        self.fields = fields
        var clauses: [WhereExpression] = []
        for text in [definitionExpression, query.whereClause] {
            if let parsed = try WhereParser.parse(text) { clauses.append(parsed) }
        }
        if let combined = WhereExpression.conjunction(clauses) {
            if !fields.isEmpty { try WhereEvaluator.validate(combined, fields: fields) }
            evaluator = WhereEvaluator(combined)
        } else {
            evaluator = nil
        }
        spatial = query.geometry == nil ? nil : try SpatialFilter(query, table: table)
        ids = query.objectIds.isEmpty ? nil : Set(query.objectIds)
        // Without ORDER BY rows come as the cache stores them, except when an
        // offset or max features picks a window: then in object-id order, as a
        // feature service pages, so the windows of one query tile its matches.
        if !query.orderBy.isEmpty {
            order = try OrderBy(query.orderBy, fields: fields)
        } else {
            order = query.resultOffset > 0 || query.maxFeatures > 0 ? OrderBy.objectIds : nil
        }
    }

    /// The batches with matching current rows, in store order, each with
    /// those rows ascending. Sparse: a store of many segments answers a
    /// viewport from a few of them, and per-entry arrays cost more than the
    /// answer (at 12,000 segments, 60 % of a warm viewport query).
    private func selectAll(_ snapshot: StoreSnapshot) throws(FeatureCacheError) -> [(batch: FeatureBatch, rows: [Int])] {
        var selected: [(batch: FeatureBatch, rows: [Int])] = []
        try forEachCandidateBatch(snapshot) { (index, batch, whole, live, boxHits) throws(FeatureCacheError) in
            let rows = try select(batch, live: live, boxHits: boxHits)
            if !rows.isEmpty { selected.append((whole ? batch : try snapshot.batch(index), rows)) }
        }
        return selected
    }

    /// Calls `body` with each batch that may hold matches: with the rows the
    /// store's spatial index found in it when the query needs a box hit (one tree
    /// for the store: its hits come sorted by batch, then row), else every batch.
    /// A where clause alone gets, of a segment not in memory, the columns it
    /// names only (`whole` false: the answer reads the batch if any row matched).
    private func forEachCandidateBatch(
        _ snapshot: StoreSnapshot,
        _ body: (_ index: Int, FeatureBatch, _ whole: Bool, _ live: Bitmap?, _ boxHits: [Int]?) throws(FeatureCacheError) -> Void
    ) throws(FeatureCacheError) {
        if let spatial, spatial.needsBoxHit {
            try snapshot.forEachBoxHit(spatial.box) { (position, batch, rows) throws(FeatureCacheError) in
                try body(position, batch, true, snapshot.entries[position].live, rows)
            }
            return
        }
        let names = spatial == nil && ids == nil ? evaluator.map { Set($0.expression.fieldNames.map { $0.lowercased() }) } : nil
        for (index, entry) in snapshot.entries.enumerated() {
            if let names {
                let (batch, whole) = try entry.slot.columns(names, snapshot.cache)
                try body(index, batch, whole, entry.live, nil)
            } else {
                try body(index, try snapshot.batch(index), true, entry.live, nil)
            }
            if index & 63 == 63 { try Task.checkCancellationTyped() }
        }
    }

    /// The matching current rows of one batch, ascending; `boxHits` = the rows
    /// the spatial index found (when the query needs a box hit).
    package func select(_ batch: FeatureBatch, live: Bitmap?, boxHits: [Int]?) throws(FeatureCacheError) -> [Int] {
        let rows = candidates(batch, live: live, boxHits: boxHits)
        if let evaluator { return try evaluator.select(batch, rows: rows) }
        return rows ?? Array(0..<batch.count)
    }

    /// How many rows of one batch match, without listing them where the where
    /// clause can count.
    private func countRows(_ batch: FeatureBatch, live: Bitmap?, boxHits: [Int]?) throws(FeatureCacheError) -> Int {
        let rows = candidates(batch, live: live, boxHits: boxHits)
        if let evaluator { return try evaluator.count(batch, rows: rows) }
        return rows?.count ?? batch.count
    }

    /// The current rows of a batch that pass the spatial predicate and the
    /// object ids, ascending; nil = every row (nothing narrowed them).
    private func candidates(_ batch: FeatureBatch, live: Bitmap?, boxHits: [Int]?) -> [Int]? {
        var rows: [Int]?
        if let spatial, let boxHits {
            if spatial.boxHitDecides(batch.geometry) {
                rows = live.map { live in boxHits.filter { live[$0] } } ?? boxHits
            } else {
                rows = boxHits.filter { (live?[$0] ?? true) && spatial.test(batch.geometry, $0) }
            }
        } else {
            rows = live.map { live in (0..<batch.count).filter { live[$0] } }
            if let spatial { rows = (rows ?? Array(0..<batch.count)).filter { spatial.test(batch.geometry, $0) } }
        }
        if let ids { rows = (rows ?? Array(0..<batch.count)).filter { ids.contains(batch.objectId($0)) } }
        return rows
    }

    /// The matching features, ordered and limited as asked.
    package func run(_ snapshot: StoreSnapshot, spatialReference: SpatialReference?) throws(FeatureCacheError) -> FeatureResult {
        let selected = try selectAll(snapshot)
        if let order {
            let batches = selected.map(\.batch), rows = selected.map(\.rows)
            let matched = rows.reduce(0) { $0 + $1.count }
            let window = min(query.resultOffset, matched)..<min(limitEnd, matched)
            return FeatureResult(
                ordered: order.sorted(rows, batches: batches, window: window), of: batches,
                limitExceeded: matched > limitEnd, spatialReference: spatialReference, outFields: query.outFields,
                includesGeometry: query.returnGeometry, schema: fields)
        }
        var pieces: [(batch: FeatureBatch, rows: [UInt32]?)] = []
        var matched = 0
        var skip = query.resultOffset
        var room = limitEnd - query.resultOffset
        for (batch, rows) in selected {
            matched += rows.count
            guard room > 0, rows.count > skip else { skip -= min(skip, rows.count); continue }
            let taken = rows[skip..<min(rows.count, skip + room)]
            skip = 0
            room -= taken.count
            pieces.append((batch, taken.count == batch.count ? nil : taken.map(UInt32.init)))
        }
        return FeatureResult(
            pieces, limitExceeded: matched > limitEnd, spatialReference: spatialReference,
            outFields: query.outFields, includesGeometry: query.returnGeometry, schema: fields)
    }

    /// Offset + max features (or everything).
    private var limitEnd: Int { query.rowsEnd }

    /// How many features match (offset and max features do not apply, as with
    /// ArcGIS `returnCountOnly`).
    package func count(_ snapshot: StoreSnapshot) throws(FeatureCacheError) -> Int {
        var total = 0
        try forEachCandidateBatch(snapshot) { (_, batch, _, live, boxHits) throws(FeatureCacheError) in
            total += try countRows(batch, live: live, boxHits: boxHits)
        }
        return total
    }

    /// The envelope of the matching features' geometries; nil when none has one.
    package func extent(_ snapshot: StoreSnapshot) throws(FeatureCacheError) -> BoundingBox? {
        var box = BoundingBox()
        for (batch, rows) in try selectAll(snapshot) {
            for row in rows { batch.geometry.addBox(of: row, to: &box) }
        }
        return box.isEmpty ? nil : box
    }
}
