// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Object id → the store's row number: an open-addressing hash table with linear
/// probing over two flat arrays, 12 bytes a slot at up to 0.8 load (≈ 15 bytes a
/// feature), far leaner than a Dictionary. Every Int64 is a valid id: the one
/// that marks empty slots (Int64.min, which a server may well send) is kept
/// beside the table.
package struct ObjectIdIndex {
    private static let empty = Int64.min
    private var keys: [Int64] = []
    private var values: [UInt32] = []
    private var mask = 0
    private var shift = 64
    /// The value of id Int64.min, when it is in the index.
    private var emptyKeyValue: UInt32?
    /// Ids in the table (not counting Int64.min).
    private var tableCount = 0
    package var count: Int { tableCount + (emptyKeyValue == nil ? 0 : 1) }

    @inline(__always)
    private func slot(_ key: Int64) -> Int {
        // Fibonacci hashing spreads sequential ids over the table.
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    package func find(_ key: Int64) -> UInt32? {
        if key == Self.empty { return emptyKeyValue }
        guard tableCount > 0 else { return nil }
        var index = slot(key)
        while true {
            let existing = keys[index]
            if existing == key { return values[index] }
            if existing == Self.empty { return nil }
            index = (index + 1) & mask
        }
    }

    /// Inserts or replaces; returns the previous value.
    @discardableResult
    package mutating func insert(_ key: Int64, _ value: UInt32) -> UInt32? {
        if key == Self.empty {
            defer { emptyKeyValue = value }
            return emptyKeyValue
        }
        if (tableCount + 1) * 5 > keys.count * 4 { grow() }
        var index = slot(key)
        while true {
            let existing = keys[index]
            if existing == key {
                let old = values[index]
                values[index] = value
                return old
            }
            if existing == Self.empty {
                keys[index] = key
                values[index] = value
                tableCount += 1
                return nil
            }
            index = (index + 1) & mask
        }
    }

    /// Removes a key; returns its value. Later entries of the probe run shift back
    /// into the hole (no tombstones, so lookups stay as short as before).
    @discardableResult
    package mutating func remove(_ key: Int64) -> UInt32? {
        if key == Self.empty {
            defer { emptyKeyValue = nil }
            return emptyKeyValue
        }
        guard tableCount > 0 else { return nil }
        var index = slot(key)
        while keys[index] != key {
            if keys[index] == Self.empty { return nil }
            index = (index + 1) & mask
        }
        let removed = values[index]
        var hole = index
        var next = (hole + 1) & mask
        while keys[next] != Self.empty {
            let home = slot(keys[next])
            // Move the entry back when its home is not in (hole, next] cyclically.
            let between = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !between {
                keys[hole] = keys[next]
                values[hole] = values[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        keys[hole] = Self.empty
        tableCount -= 1
        return removed
    }

    package mutating func reserveCapacity(_ n: Int) {
        while n * 5 > keys.count * 4 { grow() }
    }

    package mutating func removeAll() {
        keys = []; values = []; mask = 0; shift = 64; tableCount = 0; emptyKeyValue = nil
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        let capacity = max(16, keys.count * 2)
        keys = [Int64](repeating: Self.empty, count: capacity)
        values = [UInt32](repeating: 0, count: capacity)
        mask = capacity - 1
        shift = 64 - capacity.trailingZeroBitCount
        tableCount = 0
        for index in oldKeys.indices where oldKeys[index] != Self.empty { insert(oldKeys[index], oldValues[index]) }
    }

    package var byteSize: Int { keys.count * 12 }

    /// Every (id, value) of the table, but Int64.min's.
    fileprivate func forEachEntry(_ body: (Int64, UInt32) -> Void) {
        for index in keys.indices where keys[index] != Self.empty { body(keys[index], values[index]) }
    }
}

extension ObjectIdIndex {
    /// Removes every id whose value is in `range` (the rows of a batch the
    /// store lost without reading it: its ids are not at hand). One pass over the table.
    package mutating func removeValues(in range: Range<UInt32>) {
        var kept = ObjectIdIndex()
        kept.reserveCapacity(count)
        if let value = find(Int64.min), !range.contains(value) { kept.insert(Int64.min, value) }
        forEachEntry { key, value in if !range.contains(value) { kept.insert(key, value) } }
        self = kept
    }
}
