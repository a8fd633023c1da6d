// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// An `orderByFields` list ("Name ASC, DBH DESC") applied to cached rows: NULLs
/// sort first ascending (last descending), numbers by value, text by UTF-8
/// bytes, ties broken by object id so the order is total and stable.
package struct OrderBy: Sendable {
    package struct Key: Sendable {
        package let field: String
        package let descending: Bool
    }
    package let keys: [Key]

    package init(_ text: String, fields: [FieldInfo]) throws(FeatureCacheError) {
        var keys: [Key] = []
        let known = Set(fields.map { $0.name.lowercased() })
        for item in text.split(separator: ",") {
            let words = item.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let name = words.first, words.count <= 2 else {
                throw FeatureCacheError.invalidArgument("order by: '\(item.trimmingCharacters(in: " "))' is not 'field [ASC|DESC]'")
            }
            let direction = words.count == 2 ? words[1].uppercased() : "ASC"
            guard direction == "ASC" || direction == "DESC" else {
                throw FeatureCacheError.invalidArgument("order by: expected ASC or DESC after '\(name)', found '\(words[1])'")
            }
            guard known.contains(name.lowercased()) else {
                throw FeatureCacheError.invalidArgument("order by: no field named '\(name)'")
            }
            keys.append(Key(field: String(name), descending: direction == "DESC"))
        }
        self.keys = keys
    }

    private init(keys: [Key]) { self.keys = keys }

    /// Object-id order alone (the ties of every order).
    package static let objectIds = OrderBy(keys: [])

    package var isEmpty: Bool { keys.isEmpty }

    /// Sorts (batch index, row) pairs.
    package func sort(_ rows: inout [(Int, Int)], batches: [FeatureBatch]) {
        // Each batch's column for each key, looked up once.
        let columns: [[Column?]] = batches.map { batch in keys.map { key in batch.columnIndex(named: key.field).map { batch.columns[$0] } }
        }
        rows.sort { a, b in
            for (k, key) in keys.enumerated() {
                let order = Self.compare(columns[a.0][k], a.1, columns[b.0][k], b.1)
                if order != 0 { return key.descending ? order > 0 : order < 0 }
            }
            return batches[a.0].objectId(a.1) < batches[b.0].objectId(b.1)
        }
    }

    private static func compare(_ ca: Column?, _ ra: Int, _ cb: Column?, _ rb: Int) -> Int {
        let nullA = ca.map { $0.isNull(ra) } ?? true, nullB = cb.map { $0.isNull(rb) } ?? true
        if nullA || nullB { return nullA == nullB ? 0 : (nullA ? -1 : 1) }
        let a = ca!, b = cb!
        switch (a.kind, b.kind) {
        case (.string, .string):
            return WhereEvaluator.compareBytes(a.stringBytes(ra), b.stringBytes(rb))
        case (.string, _): return 1  // SQLite: numbers before text
        case (_, .string): return -1
        case (.int64, .int64), (.boolean, .boolean), (.int64, .boolean), (.boolean, .int64):
            let x = a.int64(ra), y = b.int64(rb)
            return x == y ? 0 : (x < y ? -1 : 1)
        default:
            let x = a.double(ra), y = b.double(rb)
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }
}
