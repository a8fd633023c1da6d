// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

@Suite struct StoreTests {
    /// A batch of points with the given object ids at (id, id).
    private func batch(_ ids: [Int64]) throws -> FeatureBatch {
        let features = ids.map { #"{"attributes":{"OID":\#($0),"V":\#($0 * 10)},"geometry":{"x":\#($0),"y":\#($0)}}"# }
        let json = #"{"features":[\#(features.joined(separator: ","))]}"#
        return try Array(json.utf8).withUnsafeBytes {
            try EsriJSONReader.read(
                $0, fields: [FieldInfo(name: "OID", type: .oid), FieldInfo(name: "V", type: .integer)], objectIdField: "OID")
        }.batch
    }

    /// Rows of a result with many parts of every size (single rows, whole
    /// batches, row lists crossing the 1,024-row blocks of its part index) are
    /// found in order, first and last row of every part included.
    @Test func resultRowsAreFoundAcrossManyParts() throws {
        var pieces: [(batch: FeatureBatch, rows: [UInt32]?)] = []
        var expected: [Int64] = []
        var next: Int64 = 1
        for size in [1, 1, 2000, 3, 1024, 1, 1025, 7, 1, 4096, 1, 2, 1023, 1] {
            let ids = Array(next..<next + Int64(size))
            next += Int64(size)
            let whole = try batch(ids)
            if size % 2 == 0 {
                // Every other row, as a query's row list.
                let rows = stride(from: 0, to: size, by: 2).map(UInt32.init)
                pieces.append((whole, rows))
                expected += rows.map { ids[Int($0)] }
            } else {
                pieces.append((whole, nil))
                expected += ids
            }
        }
        let result = FeatureResult(pieces, limitExceeded: false, spatialReference: nil)
        #expect(result.count == expected.count)
        for row in 0..<result.count { #expect(try result.objectId(row) == expected[row]) }
        #expect(throws: FeatureCacheError.self) { try result.objectId(result.count) }
    }

    /// The spatial index's radix sort orders keys as a comparison sort does,
    /// for every key width (one pass to six) and size, duplicates included.
    @Test func radixSortAgreesWithSort() {
        var random = SeededRandom(seed: 11)
        for size in [0, 1, 63, 64, 65, 1000, 5000] {
            for bitsWide in [1, 11, 12, 22, 34, 64] {
                let mask: UInt64 = bitsWide == 64 ? .max : (1 << UInt64(bitsWide)) - 1
                var keys = (0..<size).map { _ in random.next() & mask }
                if size > 10 { keys += keys.prefix(10) }  // duplicates
                var sorted = keys
                RadixSort.sort(&sorted)
                #expect(sorted == keys.sorted(), "\(size) keys of \(bitsWide) bits")
            }
        }
    }

    @Test func mergingReplacesByObjectIdAndNeverDuplicates() throws {
        let store = FeatureStore()
        store.apply([try batch(Array(1...100))], clearingFirst: false)
        #expect(store.count == 100)
        let rows = store.apply([try batch(Array(51...150))], clearingFirst: false)
        #expect(store.count == 150)
        #expect(rows == [nil])
        // Inside one populate, a later copy of a feature wins too.
        let inside = store.apply([try batch([1, 2, 3]), try batch([3, 4])], clearingFirst: false)
        #expect(store.count == 150)
        #expect(inside[0] == [0, 1] && inside[1] == nil)
        store.apply([try batch([7])], clearingFirst: true)
        #expect(store.count == 1)
        store.clear()
        #expect(try store.count == 0 && store.snapshot().isEmpty)
    }

    /// Issue 19: a quantized view's copy of a feature never replaces a finer
    /// one (zooming out after zooming in keeps the detail); a finer copy
    /// replaces a coarser one, and exact copies replace anything.
    @Test func aCoarserCopyNeverReplacesAFinerOne() throws {
        let store = FeatureStore()
        func tolerance(of id: Int64) -> Double? {
            (try? store.snapshot())!.lazy.compactMap { part -> Double? in
                let rows = part.rows.map { $0.map(Int.init) } ?? Array(0..<part.batch.count)
                return rows.contains { part.batch.objectId($0) == id } ? part.batch.geometryTolerance : nil
            }.first
        }
        store.apply([try batch([1, 2]).withGeometryTolerance(0.5)], clearingFirst: false)
        store.apply([try batch([1]).withGeometryTolerance(0.01)], clearingFirst: false)
        #expect(tolerance(of: 1) == 0.01 && tolerance(of: 2) == 0.5)
        let kept = store.apply([try batch([1, 2]).withGeometryTolerance(0.1)], clearingFirst: false)
        #expect(tolerance(of: 1) == 0.01 && tolerance(of: 2) == 0.1 && kept == [[1]])
        store.apply([try batch([1])], clearingFirst: false)
        #expect(tolerance(of: 1) == 0 && store.count == 2)
        store.apply([try batch([1]).withGeometryTolerance(0.001)], clearingFirst: false)
        #expect(tolerance(of: 1) == 0)
    }

    @Test func snapshotsSeeOnlyCurrentRows() throws {
        let store = FeatureStore()
        store.apply([try batch(Array(1...10))], clearingFirst: false)
        store.apply([try batch([2, 4, 6])], clearingFirst: false)
        let result = FeatureResult(try store.snapshot(), limitExceeded: false, spatialReference: nil)
        #expect(result.count == 10)
        var ids: [Int64] = []
        for row in 0..<result.count { ids.append(try result.objectId(row)) }
        #expect(ids.sorted() == Array(1...10))
        #expect(Set(ids).count == 10)
    }

    @Test func theIdIndexGrowsAndFinds() {
        var index = ObjectIdIndex()
        for id in stride(from: Int64(-50_000), through: 50_000, by: 7) { index.insert(id, UInt32(truncatingIfNeeded: id &+ 50_000)) }
        #expect(index.count == 14_286)
        #expect(index.find(-50_000) == 0 && index.find(49_995) == 99_995 && index.find(2) == nil)
        #expect(index.insert(-50_000, 5) == 0)
        #expect(index.find(-50_000) == 5)
        #expect(index.byteSize <= 12 * 32_768)
    }

    /// Two pages as a populate of a few thousand stores them (the index spans
    /// both), and a large compacted batch in spatial order between two small
    /// pages (the index lays the large one in as it is, the others sorted).
    @Test(arguments: [false, true])
    func theRTreeFindsExactlyWhatABruteForceScanFinds(large: Bool) throws {
        var generator = SystemRandomNumberGenerator()
        var features: [String] = []
        for id in 1...(large ? 13_000 : 3000) {
            let x = Double.random(in: -180...180, using: &generator), y = Double.random(in: -90...90, using: &generator)
            let w = Double.random(in: 0...2, using: &generator), h = Double.random(in: 0...2, using: &generator)
            features.append(
                #"{"attributes":{"OID":\#(id)},"geometry":{"rings":[[[\#(x),\#(y)],[\#(x),\#(y + h)],[\#(x + w),\#(y + h)],[\#(x + w),\#(y)],[\#(x),\#(y)]]]}}"#
            )
        }
        var batches = try stride(from: 0, to: features.count, by: 1500).map { start in
            let json = #"{"features":[\#(features[start..<min(start + 1500, features.count)].joined(separator: ","))]}"#
            return try Array(json.utf8).withUnsafeBytes {
                try EsriJSONReader.read($0, fields: [FieldInfo(name: "OID", type: .oid)], objectIdField: "OID")
            }.batch
        }
        if large {
            let ordered = FeatureBatch.compacting(Array(batches[1..<(batches.count - 1)]))
            #expect(ordered.count == 1 && ordered[0].isInSpatialOrder)
            batches = [batches[0]] + ordered + [batches[batches.count - 1]]
        }
        let index = StoreSpatialIndex(batches)
        for _ in 0..<200 {
            let x = Double.random(in: -190...170, using: &generator), y = Double.random(in: -95...80, using: &generator)
            let w = Double.random(in: 0...30, using: &generator), h = Double.random(in: 0...30, using: &generator)
            let found = index.search(BoundingBox(x, y, x + w, y + h))
            var expected: [UInt64] = []
            for (number, batch) in batches.enumerated() {
                for row in 0..<batch.count {
                    let b = batch.geometry.box(row)
                    if b.xmin <= x + w && b.xmax >= x && b.ymin <= y + h && b.ymax >= y {
                        expected.append(UInt64(number) << 32 | UInt64(row))
                    }
                }
            }
            #expect(found == expected)
        }
    }

    @Test func aCachedPointCostsLittleBeyondItsAttributes() throws {
        let store = FeatureStore()
        var batches: [FeatureBatch] = []
        for page in 0..<50 { batches.append(try batch((1...2000).map { Int64(page * 2000 + $0) })) }
        // As a populate writes them: compacted, in spatial order.
        let compacted = FeatureBatch.compacting(batches)
        #expect(compacted.count == 1 && compacted[0].isInSpatialOrder)
        store.apply(compacted, clearingFirst: true)
        let attributeBytes = 100_000 * 16  // the OID and V columns
        let perFeature = Double(store.byteSize - attributeBytes) / 100_000
        #expect(perFeature <= 48, "\(perFeature) bytes per point beyond the attribute columns")
    }

    /// Every length on both sides of the short-list and digit-width switches,
    /// whole keys and keys by their high bits with a payload below (stable).
    @Test(arguments: [0, 1, 64, 65, 300, 4096, 4097, 70_000])
    func radixSortSortsLikeTheStandardLibrary(count: Int) {
        var generator = SystemRandomNumberGenerator()
        let keys = (0..<count).map { _ in
            UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...40, using: &generator)
        }
        var sorted = keys
        RadixSort.sort(&sorted)
        #expect(sorted == keys.sorted())
        // High 32 bits: few distinct values, so ties keep the payload's order.
        let payloaded = keys.enumerated().map { UInt64($0.element % 97) << 32 | UInt64($0.offset) }
        var byHigh = payloaded
        RadixSort.sort(&byHigh, byBitsFrom: 32)
        #expect(byHigh == payloaded.sorted())  // payloads ascend with the input order
    }
}
