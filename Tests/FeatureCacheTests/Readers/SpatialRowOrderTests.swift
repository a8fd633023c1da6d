// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
import Testing

/// Large batches store their rows in spatial order, so a viewport's rows sit
/// together; every answer still lists rows in the order the server sent them,
/// and a later copy of a feature still wins.
@Suite struct SpatialRowOrderTests {
    /// One feature as a server sends it.
    struct Row {
        let id: Int64
        let x: Double?  // nil: no geometry
        let y: Double
        let value: Int
    }

    /// Points scattered over [0, 1000)², in a random order (fixed seed), as a
    /// server pages them; every 97th has no geometry.
    private func scattered(_ count: Int) -> [Row] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 1000
        }
        return (0..<count).map { i in
            let x = next(), y = next()
            return Row(id: Int64(i + 1), x: i % 97 == 50 ? nil : x, y: y, value: i % 10)
        }
    }

    private let fields = [FieldInfo(name: "OID", type: .oid), FieldInfo(name: "V", type: .integer)]

    /// Esri JSON pages of `size` rows, read as a populate reads them.
    private func pages(_ rows: [Row], size: Int = 1000) throws -> [FeatureBatch] {
        try stride(from: 0, to: rows.count, by: size).map { start in
            let features = rows[start..<min(rows.count, start + size)].map { row in
                let geometry = row.x.map { #"{"x":\#($0),"y":\#(row.y)}"# } ?? "null"
                return #"{"attributes":{"OID":\#(row.id),"V":\#(row.value)},"geometry":\#(geometry)}"#
            }
            let json = #"{"features":[\#(features.joined(separator: ","))]}"#
            return try Array(json.utf8).withUnsafeBytes { try EsriJSONReader.read($0, fields: fields, objectIdField: "OID") }.batch
        }
    }

    private func ids(_ result: FeatureResult) throws -> [Int64] {
        try (0..<result.count).map { try result.objectId($0) }
    }

    private func query(_ store: FeatureStore, _ configure: (inout QueryParameters) -> Void) throws -> [Int64] {
        var parameters = QueryParameters()
        configure(&parameters)
        let local = try LocalQuery(parameters, definitionExpression: "", fields: fields, tableWkid: 3857)
        return try ids(local.run(store.queryableSnapshot(), spatialReference: nil))
    }

    private func window(_ xmin: Double, _ ymin: Double, _ xmax: Double, _ ymax: Double) -> QueryGeometry {
        .envelope(Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, spatialReference: SpatialReference(wkid: 3857)))
    }

    private func inside(_ row: Row, _ xmin: Double, _ ymin: Double, _ xmax: Double, _ ymax: Double) -> Bool {
        guard let x = row.x else { return false }
        return x >= xmin && x <= xmax && row.y >= ymin && row.y <= ymax
    }

    @Test func aViewportsRowsSitTogether() throws {
        let rows = scattered(40_000)
        let batch = try #require(FeatureBatch.compacting(try pages(rows)).first)
        #expect(batch.count == rows.count && !batch.serverPositions.isEmpty)
        // The rows a 5 % window hits, by where they are stored: in server order
        // nearly every hit is on a 64-row block of its own; in spatial order the
        // hits fill the blocks they are on.
        var blocks = Set<Int>(), hits = 0
        for row in 0..<batch.count {
            let box = batch.geometry.box(row)
            guard !box.xmin.isNaN, box.xmin >= 400, box.xmin <= 624, box.ymin >= 400, box.ymin <= 624 else { continue }
            hits += 1
            blocks.insert(row / 64)
        }
        #expect(hits > 1500)
        #expect(blocks.count * 16 < hits, "\(hits) hits on \(blocks.count) blocks of 64 rows")
        // Rows without geometry come last, in server order.
        let tail = (batch.count - rows.count / 97 - 1)..<batch.count
        let noGeometry = tail.filter { batch.geometry.wkb($0).isEmpty }.map { batch.objectId($0) }
        #expect(noGeometry == rows.filter { $0.x == nil }.map(\.id))
    }

    @Test func answersListRowsInTheServersOrder() throws {
        let rows = scattered(30_000)
        let store = FeatureStore()
        let compacted = FeatureBatch.compacting(try pages(rows))
        let applied = store.apply(compacted, clearingFirst: true)
        // The populate's own result, and the whole cache.
        let populated = FeatureResult(zip(compacted, applied).map { (batch: $0, rows: $1) }, limitExceeded: false, spatialReference: nil)
        #expect(try ids(populated) == rows.map(\.id))
        #expect(try ids(FeatureResult(store.snapshot(), limitExceeded: false, spatialReference: nil)) == rows.map(\.id))
        // Queries without ORDER BY: the matches in the server's order, and offset
        // and max features count in that order, as the service pages them.
        #expect(try query(store) { _ in } == rows.map(\.id))
        let inWindow = rows.filter { inside($0, 100, 200, 300, 350) }
        #expect(try query(store) { $0.geometry = window(100, 200, 300, 350) } == inWindow.map(\.id))
        #expect(try query(store) { $0.geometry = window(100, 200, 300, 350); $0.whereClause = "V < 3" }
            == inWindow.filter { $0.value < 3 }.map(\.id))
        #expect(try query(store) { $0.whereClause = "V = 7" } == rows.filter { $0.value == 7 }.map(\.id))
        #expect(try query(store) { $0.geometry = window(100, 200, 300, 350); $0.resultOffset = 40; $0.maxFeatures = 25 }
            == Array(inWindow.map(\.id)[40..<65]))
        // ORDER BY: ties broken by object id, whatever the storage order.
        let ordered = rows.sorted { ($0.value, $0.id) < ($1.value, $1.id) }.map(\.id)
        #expect(try query(store) { $0.orderBy = "V" } == ordered)
    }

    @Test func aLaterCopyInOnePopulateStillWins() throws {
        var rows = scattered(20_000)
        // Feature 7 comes again near the end, elsewhere and with another value:
        // in spatial order the later copy may well be stored first.
        let original = rows[6]
        rows.append(Row(id: 7, x: 1000 - (original.x ?? 0), y: 1000 - original.y, value: 42))
        let store = FeatureStore()
        let compacted = FeatureBatch.compacting(try pages(rows))
        let applied = store.apply(compacted, clearingFirst: true)
        #expect(store.count == 20_000)
        let result = FeatureResult(zip(compacted, applied).map { (batch: $0, rows: $1) }, limitExceeded: false, spatialReference: nil)
        var expected = rows.map(\.id)
        expected.remove(at: 6)
        #expect(try ids(result) == expected)
        #expect(try query(store) { $0.whereClause = "V = 42" } == [7])
    }

    @Test func aRewrittenBatchKeepsTheServersOrder() throws {
        let rows = scattered(20_000)
        let store = FeatureStore()
        store.apply(FeatureBatch.compacting(try pages(rows)), clearingFirst: true)
        // Removing most rows rewrites the batch without them (their positions
        // renumbered 0..<count); what is left still answers in the server's order.
        let removed = rows.filter { $0.id % 3 != 0 }.map(\.id)
        #expect(store.remove(removed) == removed.count)
        let kept = rows.filter { $0.id % 3 == 0 }
        let entries = store.snapshot()
        #expect(entries.count == 1 && entries[0].batch.count == kept.count)
        #expect(entries[0].batch.serverPositions.sorted() == (0..<UInt32(kept.count)).map { $0 })
        #expect(try query(store) { _ in } == kept.map(\.id))
        #expect(try query(store) { $0.geometry = window(0, 0, 500, 500) } == kept.filter { inside($0, 0, 0, 500, 500) }.map(\.id))
        // And merging more rows after it keeps batch order, then server order.
        let more = (0..<10).map { Row(id: Int64(100_000 + $0), x: Double($0), y: 1, value: 0) }
        store.apply(FeatureBatch.compacting(try pages(more)), clearingFirst: false)
        #expect(try query(store) { _ in } == kept.map(\.id) + more.map(\.id))
        // A prefix of a spatially ordered batch is its first rows in server order.
        let batch = try #require(FeatureBatch.compacting(try pages(rows)).first)
        let first = batch.prefix(100)
        #expect(first.rowsInServerOrder().map { first.objectId($0) } == rows.prefix(100).map(\.id))
    }
}
