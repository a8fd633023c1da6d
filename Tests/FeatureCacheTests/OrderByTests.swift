// SPDX-License-Identifier: Apache-2.0
@testable import FCData
@testable import FCSupport
import Testing

/// ORDER BY over cached batches, against a reference comparator written the
/// plain way (SQL-92's order as SQLite keeps it: NULL first ascending and last
/// descending, numbers before text, numbers by value, text by UTF-8 bytes,
/// ties by object id ascending), on random rows spread over batches whose
/// pages disagree: the key an integer in one, a double in another, text in a
/// third, missing from a fourth.
@Suite struct OrderByTests {
    /// A row as the reference sees it.
    private struct Row {
        enum Value { case null, int(Int64), double(Double), text([UInt8]) }
        let id: Int64
        let k: Value
        let s: Value
    }

    /// Text chosen to cross the sort's 7-byte steps: shared prefixes of 6 to 16
    /// bytes, prefixes of each other, non-ASCII, an embedded NUL, empty.
    private static let words: [String] = [
        "", "a", "ab", "abcdef", "abcdefg", "abcdefgh", "abcdefg\u{0}", "abcdefghijklmn", "abcdefghijklmno",
        "abcdefghijklmnop", "Quercus rubra", "Quercus alba", "Quercus", "Quercus ", "quercus", "Zelkova", "Ærø", "é", "z",
        "Acer platanoides 'Crimson King'", "Acer platanoides", "Acer",
    ]

    private static func json(_ text: [UInt8]) -> String {
        var out = "\""
        for scalar in String(decoding: text, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{0}": out += "\\u0000"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Batches of `count` rows each: k as integers, doubles, text, then absent.
    private static func batches(_ random: inout SeededRandom, count: Int) throws -> ([FeatureBatch], [Row]) {
        var rows: [Row] = []
        var batches: [FeatureBatch] = []
        var nextId: Int64 = 1
        for kind in 0..<4 {
            var features: [String] = []
            for _ in 0..<count {
                // Ids out of order, so that ties are broken by something other than arrival.
                let id = nextId * 7919 % 100_003
                nextId += 1
                let k: Row.Value
                switch (kind, Int.random(in: 0..<10, using: &random)) {
                case (3, _), (_, 0): k = .null
                case (0, _): k = .int(Int64.random(in: -5...5, using: &random))
                case (1, _): k = .double(Double(Int.random(in: -20...20, using: &random)) / 4)
                default: k = .text(Array(words.randomElement(using: &random)!.utf8))
                }
                let s: Row.Value =
                    Int.random(in: 0..<8, using: &random) == 0 ? .null : .text(Array(words.randomElement(using: &random)!.utf8))
                rows.append(Row(id: id, k: k, s: s))
                var properties: [String] = []
                switch k {
                case .null: if kind != 3 { properties.append("\"k\":null") }
                case .int(let v): properties.append("\"k\":\(v)")
                case .double(let v): properties.append("\"k\":\(v)")  // "2.0": a double
                case .text(let t): properties.append("\"k\":\(json(t))")
                }
                if case .text(let t) = s { properties.append("\"s\":\(json(t))") } else { properties.append("\"s\":null") }
                features.append(
                    #"{"type":"Feature","id":\#(id),"geometry":{"type":"Point","coordinates":[\#(id % 100),\#(id % 37)]},"properties":{\#(properties.joined(separator: ","))}}"#
                )
            }
            let json = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
            batches.append(try Array(json.utf8).withUnsafeBytes { try GeoJSONReader.read($0, identity: FeatureIdentity()) }.batch)
        }
        return (batches, rows)
    }

    /// -1, 0, 1 for one key; numbers compare as doubles when any is one (the
    /// key's columns then include a double column).
    private static func compare(_ a: Row.Value, _ b: Row.Value) -> Int {
        func rank(_ v: Row.Value) -> Int {
            switch v {
            case .null: 0
            case .int, .double: 1
            case .text: 2
            }
        }
        func number(_ v: Row.Value) -> Double {
            switch v {
            case .int(let i): Double(i)
            case .double(let d): d
            default: 0
            }
        }
        if rank(a) != rank(b) { return rank(a) < rank(b) ? -1 : 1 }
        switch (a, b) {
        case (.text(let x), .text(let y)):
            return x == y ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
        case (.null, .null): return 0
        default:
            let x = number(a), y = number(b)
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }

    private static func expected(_ rows: [Row], _ keys: [(KeyPath<Row, Row.Value>, Bool)]) -> [Int64] {
        rows.sorted { a, b in
            for (key, descending) in keys {
                let order = compare(a[keyPath: key], b[keyPath: key])
                if order != 0 { return descending ? order > 0 : order < 0 }
            }
            return a.id < b.id
        }.map(\.id)
    }

    private static func ordered(_ batches: [FeatureBatch], _ orderBy: String, offset: Int = 0, max: Int = 0) throws -> [Int64] {
        let store = FeatureStore()
        store.apply(batches, clearingFirst: true)
        var query = QueryParameters()
        query.orderBy = orderBy
        query.resultOffset = offset
        query.maxFeatures = max
        let fields = [FieldInfo(name: "k", type: .string), FieldInfo(name: "s", type: .string)]
        let result = try LocalQuery(query, definitionExpression: "", fields: fields, tableWkid: 4326)
            .run(store.queryableSnapshot(), spatialReference: .wgs84)
        return try (0..<result.count).map { try result.objectId($0) }
    }

    @Test(arguments: [5, 40, 3_000])
    func everyOrderEqualsTheReference(rowsPerBatch: Int) throws {
        var random = SeededRandom(seed: UInt64(rowsPerBatch))
        let (batches, rows) = try Self.batches(&random, count: rowsPerBatch)
        let cases: [(String, [(KeyPath<Row, Row.Value>, Bool)])] = [
            ("k", [(\.k, false)]), ("k DESC", [(\.k, true)]), ("s", [(\.s, false)]), ("s desc", [(\.s, true)]),
            ("k, s", [(\.k, false), (\.s, false)]), ("s DESC, k", [(\.s, true), (\.k, false)]),
            ("K DESC, S DESC", [(\.k, true), (\.s, true)]),
        ]
        for (text, keys) in cases {
            let want = Self.expected(rows, keys)
            #expect(try Self.ordered(batches, text) == want, "ORDER BY \(text)")
            // A window of the same order.
            let window = try Self.ordered(batches, text, offset: rows.count / 3, max: rows.count / 2)
            #expect(window == Array(want[(rows.count / 3)..<(rows.count / 3 + rows.count / 2)]), "ORDER BY \(text) window")
        }
        // No key: object ids ascending (the order paging windows rely on).
        #expect(try Self.ordered(batches, "", offset: 1, max: rows.count) == Array(rows.map(\.id).sorted().dropFirst()))
    }

    @Test func orderedWindowsOfScatteredRowsAreGatheredIntoFewParts() throws {
        var random = SeededRandom(seed: 11)
        let (batches, _) = try Self.batches(&random, count: 3_000)
        let store = FeatureStore()
        store.apply(batches, clearingFirst: true)
        var query = QueryParameters()
        query.orderBy = "s, k"
        let fields = [FieldInfo(name: "k", type: .string), FieldInfo(name: "s", type: .string)]
        let result = try LocalQuery(query, definitionExpression: "", fields: fields, tableWkid: 4326)
            .run(store.queryableSnapshot(), spatialReference: .wgs84)
        #expect(result.count == 12_000)
        // Four layouts (k integer, double, text, absent) interleave: at most a
        // part per stretch of one layout, far fewer than one per row.
        #expect(result.parts.count < 12_000 / 4)
        // Values read back through the gathered parts are the rows' own.
        let expected = Dictionary(
            uniqueKeysWithValues: batches.flatMap { batch in
                (0..<batch.count).map { (batch.objectId($0), batch.columns[batch.columnIndex(named: "s")!].value($0)) }
            })
        let s = try #require(result.fieldIndex(named: "s"))
        for row in stride(from: 0, to: result.count, by: 97) {
            let (column, local) = try #require(try result.cell(row, s))
            #expect(column.value(local) == expected[try result.objectId(row)])
        }
    }
}
