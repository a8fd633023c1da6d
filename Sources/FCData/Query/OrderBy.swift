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
        // Empty pieces are kept, so that "a,,b" or a stray comma is refused, not read as "a,b".
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let words = item.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard !words.isEmpty else {
                throw FeatureCacheError.invalidArgument("order by: '\(text)' has an empty key (a comma too many?)")
            }
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

    /// The rows `selected` (per batch, each batch's rows ascending) in this
    /// order, as addresses into `batches`: those of `window` (places in the
    /// whole order) only. RowSorter says how.
    package func sorted(_ selected: [[Int]], batches: [FeatureBatch], window: Range<Int>) -> [RowAddress] {
        var sorter = RowSorter(selected, batches: batches)
        let (decisive, tiesLeft) = decidingKeys(selected, batches)
        if tiesLeft { sorter.sortByObjectId() }
        for key in decisive.reversed() { sorter.sort(by: key.field, descending: key.descending) }
        return sorter.addresses(window)
    }

    /// The keys up to the first that is the object id of every batch with
    /// selected rows (the store keeps one row per object id), which ties no two rows: what follows it decides nothing,
    /// and neither do the object ids. All the keys when none is: ties are
    /// then left for the object ids to break.
    private func decidingKeys(_ selected: [[Int]], _ batches: [FeatureBatch]) -> (keys: ArraySlice<Key>, tiesLeft: Bool) {
        for (index, key) in keys.enumerated() {
            let isObjectId = zip(selected, batches).allSatisfy { rows, batch in
                guard !rows.isEmpty else { return true }
                guard let column = batch.columnIndex(named: key.field) else { return false }
                // The object id column, or one the service declares its OID field
                // (a PBF page keeps the ids beside the columns).
                return column == batch.objectIdColumn || batch.columns[column].field.type == .oid
            }
            if isObjectId { return (keys[...index], false) }
        }
        return (keys[...], true)
    }
}
