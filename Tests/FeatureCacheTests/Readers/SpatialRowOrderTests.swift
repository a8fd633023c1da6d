// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Large batches store their rows in spatial order, so a viewport's rows sit
/// together. Answers without ORDER BY list rows as stored, windows (offset, max
/// features) come in object-id order, a later copy of a feature still wins, and
/// a fetch that asked for an order keeps it.
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
        var random = SeededRandom(seed: 4)
        func next() -> Double { Double.random(in: 0..<1000, using: &random) }
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
        #expect(batch.count == rows.count && batch.isInSpatialOrder)
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
        // A fetch that asked the service for an order is kept in it.
        let ordered = try #require(FeatureBatch.compacting(try pages(rows), spatialOrder: false).first)
        #expect(!ordered.isInSpatialOrder && (0..<ordered.count).map { ordered.objectId($0) } == rows.map(\.id))
    }

    @Test func answersListRowsAsStoredAndWindowsInObjectIdOrder() throws {
        var rows = scattered(30_000)
        var generator = SeededRandom(seed: 18)
        rows.shuffle(using: &generator)  // ids out of order, as a sorted fetch would send them
        let store = FeatureStore()
        let compacted = FeatureBatch.compacting(try pages(rows))
        let applied = store.apply(compacted, clearingFirst: true)
        let stored = compacted.flatMap { batch in (0..<batch.count).map { batch.objectId($0) } }
        #expect(Set(stored) == Set(rows.map(\.id)) && stored.count == rows.count)
        // The populate's own result, the whole cache and a query without ORDER BY:
        // every feature once, as stored.
        let populated = FeatureResult(zip(compacted, applied).map { (batch: $0, rows: $1) }, limitExceeded: false, spatialReference: nil)
        #expect(try ids(populated) == stored)
        #expect(try ids(FeatureResult(try store.snapshot(), limitExceeded: false, spatialReference: nil)) == stored)
        #expect(try query(store) { _ in } == stored)
        let inWindow = Set(rows.filter { inside($0, 100, 200, 300, 350) }.map(\.id))
        let windowed = try query(store) { $0.geometry = window(100, 200, 300, 350) }
        #expect(Set(windowed) == inWindow && windowed.count == inWindow.count)
        let good = try query(store) {
            $0.geometry = window(100, 200, 300, 350); $0.whereClause = "V < 3"
        }
        #expect(Set(good) == Set(rows.filter { inside($0, 100, 200, 300, 350) && $0.value < 3 }.map(\.id)))
        // Offset and max features: object-id order, so the windows of one query
        // tile its matches, as a service pages them.
        let sortedWindow = inWindow.sorted()
        var paged: [Int64] = []
        for offset in stride(from: 0, to: sortedWindow.count + 100, by: 100) {
            paged += try query(store) {
                $0.geometry = window(100, 200, 300, 350); $0.resultOffset = offset; $0.maxFeatures = 100
            }
        }
        #expect(paged == sortedWindow)
        #expect(try query(store) { $0.maxFeatures = 10 } == Array(rows.map(\.id).sorted().prefix(10)))
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
        #expect(compacted.count == 1 && compacted[0].count == 20_000)
        let applied = store.apply(compacted, clearingFirst: true)
        #expect(store.count == 20_000)
        let result = FeatureResult(zip(compacted, applied).map { (batch: $0, rows: $1) }, limitExceeded: false, spatialReference: nil)
        #expect(try Set(ids(result)) == Set(rows.map(\.id)) && result.count == 20_000)
        #expect(try query(store) { $0.whereClause = "V = 42" } == [7])
    }

    @Test func aRewrittenBatchStaysInSpatialOrder() throws {
        let rows = scattered(20_000)
        let store = FeatureStore()
        let compacted = FeatureBatch.compacting(try pages(rows))
        store.apply(compacted, clearingFirst: true)
        // Removing most rows rewrites the batch without them, the rest in the
        // order they were stored; the index and queries follow.
        let removed = rows.filter { $0.id % 3 != 0 }.map(\.id)
        #expect(store.remove(removed) == removed.count)
        let entries = try store.snapshot()
        #expect(entries.count == 1 && entries[0].batch.isInSpatialOrder)
        let kept = Set(rows.filter { $0.id % 3 == 0 }.map(\.id))
        let before = (0..<compacted[0].count).map { compacted[0].objectId($0) }.filter { kept.contains($0) }
        #expect(try query(store) { _ in } == before)
        let inHalf = try query(store) { $0.geometry = window(0, 0, 500, 500) }
        #expect(Set(inHalf) == Set(rows.filter { $0.id % 3 == 0 && inside($0, 0, 0, 500, 500) }.map(\.id)))
    }
}
