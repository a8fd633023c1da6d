// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Compaction: pages become a few large batches with exactly the same rows
/// (every column, NULL, string and geometry, points and other shapes), pages of
/// another layout stay apart, and a large batch whose rows were mostly replaced
/// is rewritten with its current rows, the id index following it.
@Suite struct CompactionTests {
    /// An Esri JSON page: ids, an integer with NULLs, a double, a string with
    /// NULLs and empty strings; points, or polylines when `lines`.
    private func page(_ ids: ClosedRange<Int64>, lines: Bool = false) throws -> FeatureBatch {
        let features = ids.map { id -> String in
            let value = id % 5 == 0 ? "null" : "\(id * 3)"
            let name = id % 7 == 0 ? "null" : id % 11 == 0 ? #""""# : #""n\#(id)""#
            let geometry =
                id % 13 == 0
                ? "null"
                : lines ? #"{"paths":[[[\#(id),0],[\#(id),1],[\#(id + 1),2]]]}"# : #"{"x":\#(id),"y":\#(-id)}"#
            return #"{"attributes":{"OID":\#(id),"V":\#(value),"D":\#(Double(id) / 4),"S":\#(name)},"geometry":\#(geometry)}"#
        }
        let json = #"{"features":[\#(features.joined(separator: ","))]}"#
        let fields = [
            FieldInfo(name: "OID", type: .oid), FieldInfo(name: "V", type: .integer),
            FieldInfo(name: "D", type: .double), FieldInfo(name: "S", type: .string),
        ]
        return try Array(json.utf8).withUnsafeBytes { try EsriJSONReader.read($0, fields: fields, objectIdField: "OID") }.batch
    }

    /// `compacted` holds exactly the rows of `pages` (ids are unique here): in
    /// the same order, or in any order when a batch is in spatial order.
    private func expectSameRows(_ compacted: [FeatureBatch], _ pages: [FeatureBatch]) {
        let want = pages.flatMap { page in (0..<page.count).map { (page, $0) } }
        var have = compacted.flatMap { batch in (0..<batch.count).map { (batch, $0) } }
        #expect(have.count == want.count)
        if compacted.contains(where: \.isInSpatialOrder) {
            let place = Dictionary(uniqueKeysWithValues: have.enumerated().map { ($0.element.0.objectId($0.element.1), $0.offset) })
            have = want.compactMap { page, row in place[page.objectId(row)].map { have[$0] } }
            #expect(have.count == want.count)
        }
        // One expectation over all rows (300,000 rows made 2.4 million
        // expectations, most of the suite's time under ThreadSanitizer).
        var differing: [Int64] = []
        for ((a, i), (b, j)) in zip(have, want) where !sameRow(a, i, b, j) {
            differing.append(b.objectId(j))
        }
        #expect(differing.isEmpty, "rows differ: \(differing.prefix(10))")
    }

    /// Row i of a and row j of b: the same id, values (NULLs, integers,
    /// doubles, strings), WKB and box (to the bit).
    private func sameRow(_ a: FeatureBatch, _ i: Int, _ b: FeatureBatch, _ j: Int) -> Bool {
        guard a.objectId(i) == b.objectId(j), a.columns.count == b.columns.count else { return false }
        for column in 0..<b.columns.count {
            let x = a.columns[column], y = b.columns[column]
            guard x.isNull(i) == y.isNull(j) else { return false }
            guard !y.isNull(j) else { continue }
            switch y.kind {
            case .int64, .boolean: guard x.int64(i) == y.int64(j) else { return false }
            case .double: guard x.double(i) == y.double(j) else { return false }
            case .string: guard x.string(i) == y.string(j) else { return false }
            }
        }
        guard a.geometry.wkb(i).elementsEqual(b.geometry.wkb(j)) else { return false }
        let p = a.geometry.box(i), q = b.geometry.box(j)
        return [p.xmin, p.ymin, p.xmax, p.ymax].map(\.bitPattern) == [q.xmin, q.ymin, q.xmax, q.ymax].map(\.bitPattern)
    }

    @Test func pagesBecomeFewBatchesWithTheSameRows() throws {
        var pages: [FeatureBatch] = []
        for start in stride(from: Int64(1), to: 300_000, by: 1000) { pages.append(try page(start...(start + 999))) }
        let compacted = FeatureBatch.compacting(pages)
        #expect(compacted.count == 2)  // 300,000 rows in batches of at most 262,144
        #expect(compacted[0].count == 262_000)  // whole pages, up to 262,144 rows
        let explicit = compacted.allSatisfy { !$0.geometry.isPointsOnly }
        #expect(explicit)  // null geometries make offsets explicit
        expectSameRows(compacted, pages)
    }

    @Test func pointsOnlyStayPointsOnlyAndShapesMixWithPoints() throws {
        // Ids 1...12 have no null geometry (13 is the first): points-only pages.
        let points = [try page(1...12), try page(14...25)]
        let pointsOnly = points.allSatisfy { $0.geometry.isPointsOnly }
        #expect(pointsOnly)
        let merged = FeatureBatch.compacting(points)
        #expect(merged.count == 1 && merged[0].geometry.isPointsOnly)
        expectSameRows(merged, points)
        let mixed = [try page(1...12), try page(100...160, lines: true), try page(14...25)]
        let together = FeatureBatch.compacting(mixed)
        #expect(together.count == 1)
        expectSameRows(together, mixed)
    }

    /// Enough rows for spatial order, gathered straight from pages of both
    /// geometry layouts: points-only pages (no offsets, no boxes) beside pages
    /// of lines and NULLs.
    @Test func spatialOrderGathersFromPointsOnlyAndOtherPages() throws {
        var pages: [FeatureBatch] = []
        for k in Int64(0)..<700 {
            pages.append(try page((13 * k + 1)...(13 * k + 12)))  // no multiple of 13: no null, points only
            if k % 100 == 0 { pages.append(try page((100_000 + k * 20)...(100_000 + k * 20 + 19), lines: true)) }
        }
        #expect(pages.filter { $0.geometry.isPointsOnly }.count == 700)
        let compacted = FeatureBatch.compacting(pages)
        #expect(compacted.count == 1 && compacted[0].isInSpatialOrder && compacted[0].count == 8_540)
        expectSameRows(compacted, pages)
    }

    /// A server with a tiny page size: thousands of one-row pages become one
    /// batch (the run's sizes are kept as it grows, not summed again per page).
    /// A populate's pages are gathered into one batch every
    /// `FetchedFeatures.gatheredRows` rows as they arrive (so that they do not
    /// all stay on the heap until the end), in the order they came; a run with
    /// a page of another layout is left as it is; pages are counted as pages.
    @Test func appendedPagesAreGatheredAsTheyArrive() throws {
        let pageRows = 1000, pagesPerGather = (FetchedFeatures.gatheredRows + pageRows - 1) / pageRows
        var pages: [FeatureBatch] = []
        for index in 0..<(2 * pagesPerGather + 3) {
            let start = Int64(index * pageRows + 1)
            pages.append(try page(start...(start + Int64(pageRows) - 1), lines: index % 5 == 0))
        }
        var fetched = FetchedFeatures()
        for page in pages { fetched.append(page) }
        fetched.append(pages[0].prefix(0))  // empty: dropped, not a page
        #expect(fetched.pageCount == pages.count)
        #expect(fetched.batches.count == 2 + 3)  // two gathers, three pages since
        #expect(fetched.batches.prefix(2).allSatisfy { $0.count == pagesPerGather * pageRows && !$0.isInSpatialOrder })
        expectSameRows(fetched.batches, pages)

        // A page of other fields among them: that run stays as it came.
        var mixed = FetchedFeatures()
        let other = try Array(#"{"features":[{"attributes":{"OID":7},"geometry":{"x":1,"y":2}}]}"#.utf8).withUnsafeBytes {
            try EsriJSONReader.read($0, fields: [FieldInfo(name: "OID", type: .oid)], objectIdField: "OID")
        }.batch
        let run = [pages[0], other] + pages[1..<pagesPerGather]
        for page in run { mixed.append(page) }
        #expect(mixed.batches.count == run.count && mixed.pageCount == run.count)
        mixed.compact()
        #expect(mixed.featureCount == run.reduce(0) { $0 + $1.count })
    }

    @Test func manyTinyPagesBecomeOneBatch() throws {
        var pages: [FeatureBatch] = []
        for id in Int64(1)...3000 { pages.append(try page(id...id)) }
        let compacted = FeatureBatch.compacting(pages)
        #expect(compacted.count == 1 && compacted[0].count == 3000)
        expectSameRows(compacted, pages)
    }

    @Test func otherLayoutsAndEmptyPagesStayApart() throws {
        let json = #"{"features":[{"attributes":{"OID":5000,"V":1},"geometry":{"x":1,"y":2}}]}"#
        let other = try Array(json.utf8).withUnsafeBytes {
            try EsriJSONReader.read(
                $0, fields: [FieldInfo(name: "OID", type: .oid), FieldInfo(name: "V", type: .integer)],
                objectIdField: "OID")
        }.batch
        let first = try page(1...10), second = try page(11...20), empty = try page(1...10).prefix(0)
        let third = try page(21...30)
        let compacted = FeatureBatch.compacting([first, empty, second, other, third])
        #expect(compacted.map(\.count) == [20, 1, 10])
        #expect(compacted[1] === other)  // a batch alone is not copied
    }

    @Test func mostlyReplacedBatchesAreRewritten() throws {
        let store = FeatureStore()
        var pages: [FeatureBatch] = []
        for start in stride(from: Int64(1), to: 4000, by: 1000) { pages.append(try page(start...(start + 999))) }
        store.apply(FeatureBatch.compacting(pages), clearingFirst: false)
        #expect(try store.snapshot().count == 1)
        // 3,000 of the 4,000 rows arrive again: the big batch keeps 1,000 current rows.
        store.apply([try page(1001...4000)], clearingFirst: false)
        let entries = try store.snapshot()
        #expect(entries.count == 2)
        #expect(entries[0].batch.count == 1000 && entries[0].rows == nil)  // rewritten, all current
        #expect(store.count == 4000)
        let result = FeatureResult(entries, limitExceeded: false, spatialReference: nil)
        #expect(try (0..<result.count).map { try result.objectId($0) } == Array(1...4000))
        // The id index points into the rewritten batch: later merges and removals still find the rows.
        store.apply([try page(1...10)], clearingFirst: false)
        #expect(store.count == 4000)
        #expect(store.remove(Array(11...20)) == 10 && store.count == 3990)
        #expect(store.containsAll(Array(21...1000)) && !store.containsAll([15]))
    }

    @Test func everyInt64IsAnObjectId() throws {
        var index = ObjectIdIndex()
        #expect(index.insert(.min, 7) == nil && index.insert(.max, 8) == nil && index.insert(0, 9) == nil)
        #expect(index.count == 3 && index.find(.min) == 7 && index.find(.max) == 8)
        #expect(index.insert(.min, 10) == 7 && index.count == 3)
        #expect(index.remove(.min) == 10 && index.find(.min) == nil && index.count == 2)
        // Through the reader and the store, as a server could send it.
        let json = #"{"features":[{"attributes":{"OID":-9223372036854775808},"geometry":{"x":1,"y":2}}]}"#
        let batch = try Array(json.utf8).withUnsafeBytes {
            try EsriJSONReader.read($0, fields: [FieldInfo(name: "OID", type: .oid)], objectIdField: "OID")
        }.batch
        let store = FeatureStore()
        store.apply([batch], clearingFirst: false)
        store.apply([batch], clearingFirst: false)
        #expect(store.count == 1 && store.containsAll([.min]))
    }
}
