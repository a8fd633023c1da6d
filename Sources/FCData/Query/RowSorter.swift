// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Sorts the selected rows of a query by keys, not rows through closures:
/// each key column is read once, batch by batch, into one flat key per row,
/// and the rows are sorted least significant key first (the object id, then
/// the last key, …, then the first), each pass stable (`RadixSort.sortStably`).
/// Nothing is compared through a `Column` and nothing is allocated per row.
///
/// The keys, in SQL-92's order as SQLite keeps it: NULL first ascending (last
/// descending), then numbers by value (integers as 64-bit integers; a key with
/// a double column in any batch compares every number as a double), then text
/// by its UTF-8 bytes. A row whose batch lacks the field is NULL.
struct RowSorter {
    private let selected: [[Int]]
    private let batches: [FeatureBatch]
    private let count: Int
    /// The rows in their current order, as item numbers (the row's place in
    /// `selected` read batch after batch).
    private var order: [UInt32]
    private var keys: [UInt64]
    private var scratchKeys: [UInt64]
    private var scratchItems: [UInt32]

    init(_ selected: [[Int]], batches: [FeatureBatch]) {
        self.selected = selected
        self.batches = batches
        count = selected.reduce(0) { $0 + $1.count }
        order = (0..<UInt32(count)).map { $0 }
        keys = [UInt64](repeating: 0, count: count)
        scratchKeys = keys
        scratchItems = order
    }

    /// The rows of `window` (places in the sorted order), as batch addresses.
    func addresses(_ window: Range<Int>) -> [RowAddress] {
        var items: [RowAddress] = []
        items.reserveCapacity(count)
        for (batch, rows) in selected.enumerated() {
            for row in rows { items.append(RowAddress(part: batch, row: row)) }
        }
        return order[window].map { items[Int($0)] }
    }

    /// Object ids ascending (the ties of every order); nothing moves when the
    /// rows already come so.
    mutating func sortByObjectId() {
        var item = 0, ascending = true, previous = Int64.min
        for (index, rows) in selected.enumerated() {
            let batch = batches[index]
            for row in rows {
                let id = batch.objectId(row)
                ascending = ascending && id >= previous
                previous = id
                keys[item] = Self.ordered(id)
                item += 1
            }
        }
        // `order` is still every item in turn here: keys[i] is item i's.
        if !ascending { sortStably(0..<count) }
    }

    /// The rows by one key, keeping the order of those it ties.
    mutating func sort(by field: String, descending: Bool) {
        let values = KeyValues(field, selected, batches)
        // NULLs, numbers, text: ascending in that order, descending reversed,
        // each class keeping the order the rows came in.
        var counts = (0, 0, 0)
        for kind in values.kinds {
            switch kind {
            case 0: counts.0 += 1
            case 1: counts.1 += 1
            default: counts.2 += 1
            }
        }
        let first = descending ? (counts.2 + counts.1, counts.2, 0) : (0, counts.0, counts.0 + counts.1)
        let numbers = first.1..<(first.1 + counts.1), text = first.2..<(first.2 + counts.2)
        if counts.0 != count, counts.1 != count, counts.2 != count {
            // More than one class: a stable partition (one class alone needs none).
            var at = [first.0, first.1, first.2]
            values.kinds.withUnsafeBufferPointer { kinds in
                scratchItems.withUnsafeMutableBufferPointer { target in
                    at.withUnsafeMutableBufferPointer { at in
                        for item in order {
                            let kind = Int(kinds[Int(item)])
                            target[at[kind]] = item
                            at[kind] += 1
                        }
                    }
                }
            }
            swap(&order, &scratchItems)
        }
        let flip: UInt64 = descending ? ~0 : 0
        if !numbers.isEmpty {
            for place in numbers { keys[place] = values.numbers[Int(order[place])] ^ flip }
            sortStably(numbers)
        }
        if !text.isEmpty { sortText(text, values, flip: flip) }
    }

    /// Text by its bytes, most significant first: each pass sorts a stretch by
    /// the next 7 bytes of its values and how many are left (one 64-bit key:
    /// a value that ends within those bytes comes before the longer values it
    /// begins), then each run of values equal so far and not ended goes on
    /// from the next 7 bytes. Bounded by the values' bytes, with no recursion.
    private mutating func sortText(_ stretch: Range<Int>, _ values: KeyValues, flip: UInt64) {
        var pending = [(stretch, 0)]
        while let (range, depth) = pending.popLast() {
            for place in range { keys[place] = values.chunk(Int(order[place]), at: depth) ^ flip }
            sortStably(range)
            var start = range.lowerBound
            while start < range.upperBound {
                var end = start + 1
                while end < range.upperBound, keys[end] == keys[start] { end += 1 }
                if end - start > 1, (keys[start] ^ flip) & 0xFF == KeyValues.continues {
                    pending.append((start..<end, depth + KeyValues.chunkBytes))
                }
                start = end
            }
        }
    }

    /// `order[range]` by `keys[range]`, stable.
    private mutating func sortStably(_ range: Range<Int>) {
        keys.withUnsafeMutableBufferPointer { keys in
            order.withUnsafeMutableBufferPointer { order in
                scratchKeys.withUnsafeMutableBufferPointer { scratchKeys in
                    scratchItems.withUnsafeMutableBufferPointer { scratchItems in
                        RadixSort.sortStably(
                            keys: UnsafeMutableBufferPointer(rebasing: keys[range]),
                            items: UnsafeMutableBufferPointer(rebasing: order[range]),
                            scratchKeys: UnsafeMutableBufferPointer(rebasing: scratchKeys[range]),
                            scratchItems: UnsafeMutableBufferPointer(rebasing: scratchItems[range]))
                    }
                }
            }
        }
    }

    /// An integer as an unsigned word of the same order.
    @inline(__always)
    static func ordered(_ value: Int64) -> UInt64 { UInt64(bitPattern: value) ^ (1 << 63) }

    /// A double as an unsigned word of the same order (−0 as 0; NaN after +∞).
    @inline(__always)
    static func ordered(_ value: Double) -> UInt64 {
        let bits = value == 0 ? 0 : value.isNaN ? Double.nan.bitPattern : value.bitPattern
        return bits >> 63 == 1 ? ~bits : bits | (1 << 63)
    }
}

/// One key's values for every selected row, read column by column: each row's
/// kind (0 NULL, 1 number, 2 text), its number as an ordered word, its text as
/// a pointer into the batch's bytes (valid while the batches live).
private struct KeyValues {
    var kinds: [UInt8]
    var numbers: [UInt64] = []
    var text: [UnsafeRawPointer?] = []
    var lengths: [Int32] = []

    /// Bytes of text one pass of the text sort orders by; the low byte of its
    /// key says how many are left, `continues` when more than that.
    static let chunkBytes = 7
    static let continues: UInt64 = 8

    init(_ field: String, _ selected: [[Int]], _ batches: [FeatureBatch]) {
        let count = selected.reduce(0) { $0 + $1.count }
        kinds = [UInt8](repeating: 0, count: count)
        var anyDouble = false, anyNumber = false, anyText = false
        for (index, rows) in selected.enumerated() where !rows.isEmpty {
            guard let column = batches[index].columnIndex(named: field).map({ batches[index].columns[$0] }) else { continue }
            anyDouble = anyDouble || column.kind == .double
            anyNumber = anyNumber || column.kind != .string
            anyText = anyText || column.kind == .string
        }
        if anyNumber { numbers = [UInt64](repeating: 0, count: count) }
        if anyText {
            text = [UnsafeRawPointer?](repeating: nil, count: count)
            lengths = [Int32](repeating: 0, count: count)
        }
        var item = 0
        for (index, rows) in selected.enumerated() {
            defer { item += rows.count }
            guard let column = batches[index].columnIndex(named: field).map({ batches[index].columns[$0] }) else { continue }
            let validity = column.validity
            var next = item
            switch column.kind {
            case .int64, .boolean:
                column.integers.withUnsafeBufferPointer { values in
                    for row in rows {
                        if validity.map({ $0[row] }) ?? true {
                            kinds[next] = 1
                            numbers[next] = anyDouble ? RowSorter.ordered(Double(values[row])) : RowSorter.ordered(values[row])
                        }
                        next += 1
                    }
                }
            case .double:
                column.doubles.withUnsafeBufferPointer { values in
                    for row in rows {
                        if validity.map({ $0[row] }) ?? true {
                            kinds[next] = 1
                            numbers[next] = RowSorter.ordered(values[row])
                        }
                        next += 1
                    }
                }
            case .string:
                for row in rows {
                    if validity.map({ $0[row] }) ?? true {
                        let bytes = column.stringBytes(row)
                        kinds[next] = 2
                        text[next] = bytes.baseAddress
                        lengths[next] = Int32(bytes.count)
                    }
                    next += 1
                }
            }
        }
    }

    /// The 7 bytes of item's text from `depth` (zeros past its end), most
    /// significant first, over how many bytes are left (8 = more than 7).
    /// A value is followed by its NUL in the column, so a load of 8 bytes
    /// from where 7 or more are left stays within it.
    @inline(__always)
    func chunk(_ item: Int, at depth: Int) -> UInt64 {
        let left = Int(lengths[item]) - depth
        guard let base = text[item], left > 0 else { return 0 }
        if left >= Self.chunkBytes {
            let word = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: depth, as: UInt64.self))
            return word & ~0xFF | Swift.min(UInt64(left), Self.continues)
        }
        var word: UInt64 = 0
        for index in 0..<left { word |= UInt64(base.load(fromByteOffset: depth + index, as: UInt8.self)) << UInt64(56 - 8 * index) }
        return word | UInt64(left)
    }
}
