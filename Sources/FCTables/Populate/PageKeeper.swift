// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// What a pager keeps of each page a server sends for a query: the rows that
/// pass the local check (the whole query, so a server that filters loosely never
/// makes a wrong answer), after the query's offset, up to its max features.
/// Shared by the OGC API and WFS pagers, which page by a server's own rules but
/// keep rows by the same ones.
package struct PageKeeper {
    /// The query as every page is checked: its filters without paging, order or fields.
    package let local: LocalQuery?
    private let maxFeatures: Int
    private var toSkip: Int
    package private(set) var kept = 0
    /// The query's area in the table's system, when it has one.
    private let area: BoundingBox?
    /// A row came whose box lies wholly outside the query's area: the server
    /// did not filter by it (a static host), so asking for less — a tile's
    /// quarters — would bring the same rows again.
    package private(set) var serverIgnoredArea = false

    /// `query` was validated where the call began (once per call).
    package init(_ query: QueryParameters, fields: [FieldInfo], tableWkid: Int32) throws(FeatureCacheError) {
        var check = query
        check.maxFeatures = 0
        check.resultOffset = 0
        check.orderBy = ""
        check.outFields = nil
        let filters = try WhereParser.parse(query.whereClause) != nil || query.geometry != nil || !query.objectIds.isEmpty
        local = filters ? try LocalQuery(check, definitionExpression: "", fields: fields, tableWkid: tableWkid, validated: true) : nil
        maxFeatures = query.maxFeatures
        toSkip = query.resultOffset
        area = query.geometry == nil ? nil : try? SpatialFilter(check, tableWkid: tableWkid).box
    }

    /// How many of the `matched` server rows a pager needs: all when the local
    /// check may drop rows, else up to the query's offset plus max features
    /// (the offset is skipped here, not on the server).
    package static func serverRowsNeeded(matched: Int64, dropsRowsLocally: Bool, query: QueryParameters) -> Int64 {
        dropsRowsLocally ? matched : min(matched, Int64(query.rowsEnd))
    }

    /// Max features reached: nothing more is kept.
    package var isFull: Bool { maxFeatures > 0 && kept >= maxFeatures }

    /// The rows of `batch` passing the local check.
    package func checked(_ batch: FeatureBatch) throws(FeatureCacheError) -> FeatureBatch {
        guard let local else { return batch }
        return batch.selecting(try local.select(batch, live: nil, boxHits: nil))
    }

    /// Adds what `batch` keeps to `fetched` (setting `limitExceeded` when max
    /// features cuts it).
    package mutating func keep(_ batch: FeatureBatch, into fetched: inout FetchedFeatures) throws(FeatureCacheError) {
        if let area, !serverIgnoredArea {
            for row in 0..<batch.count {
                var box = BoundingBox()
                batch.geometry.addBox(of: row, to: &box)
                if !box.isEmpty, !box.intersects(area) {
                    serverIgnoredArea = true
                    break
                }
            }
        }
        var batch = try checked(batch)
        if toSkip > 0 {
            let skipped = min(toSkip, batch.count)
            toSkip -= skipped
            batch = batch.selecting(Array(skipped..<batch.count))
        }
        let room = maxFeatures > 0 ? maxFeatures - kept : Int.max
        if batch.count > room {
            batch = batch.prefix(room)
            fetched.limitExceeded = true
        }
        kept += batch.count
        fetched.append(batch)
    }
}
