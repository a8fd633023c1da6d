// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Sorts unsigned 64-bit keys ascending by LSD radix, only as many passes as
/// the largest key needs: a viewport's hits (a few thousand) sort in two to
/// four linear passes instead of a comparison sort's n log n. Digits are 8 bits
/// for short lists (clearing and summing 2,048 counters a pass would cost more
/// than the keys) and 11 bits for long ones.
package enum RadixSort {
    /// Sorts `keys` ascending; with `byBitsFrom`, by the bits from there up only,
    /// keeping the order of keys equal in those (a payload in the low bits rides
    /// along: fewer passes).
    package static func sort(_ keys: inout [UInt64], byBitsFrom low: Int = 0) {
        guard keys.count > 64 else {
            if low == 0 {
                keys.sort()
            } else {
                // Insertion sort: stable, and these lists are short.
                for i in 1..<max(keys.count, 1) {
                    let key = keys[i]
                    var j = i
                    while j > 0, keys[j - 1] >> low > key >> low { keys[j] = keys[j - 1]; j -= 1 }
                    keys[j] = key
                }
            }
            return
        }
        let keyBits = max(0, 64 - keys.max()!.leadingZeroBitCount - low)
        var target = [UInt64](repeating: 0, count: keys.count)
        keys.withUnsafeMutableBufferPointer { keys in
            target.withUnsafeMutableBufferPointer { target in
                let sorted = sortPacked(keys, spare: target, from: low, bits: keyBits)
                if sorted.baseAddress != keys.baseAddress { _ = keys.update(fromContentsOf: sorted) }
            }
        }
    }
}

extension RadixSort {
    /// Sorts `items` by `keys` ascending, keeping the order of items with equal
    /// keys (both buffers are permuted together; `scratchKeys` and
    /// `scratchItems` are as long and hold nothing of value). Keys are taken
    /// relative to the smallest, so only the bits in which they differ are
    /// passed over, and the digit counts of every pass come from one read of
    /// the keys: a pass whose digit is the same for every key is skipped. An
    /// order by a column over a million rows is two to six linear passes.
    package static func sortStably(
        keys: UnsafeMutableBufferPointer<UInt64>, items: UnsafeMutableBufferPointer<UInt32>,
        scratchKeys: UnsafeMutableBufferPointer<UInt64>, scratchItems: UnsafeMutableBufferPointer<UInt32>
    ) {
        let n = keys.count
        guard n > 1 else { return }
        if n <= 32 {
            insertionSort(keys: keys, items: items)
            return
        }
        var low = keys[0], high = keys[0]
        for key in keys {
            low = Swift.min(low, key)
            high = Swift.max(high, key)
        }
        guard low != high else { return }
        let rangeBits = 64 - (high - low).leadingZeroBitCount, placeBits = 64 - UInt64(n - 1).leadingZeroBitCount
        if rangeBits + placeBits <= 64 {
            // Key and place in one word: one stream of 8 bytes to scatter per
            // pass instead of two, then the items follow their places once.
            for i in 0..<n { scratchKeys[i] = (keys[i] &- low) << UInt64(placeBits) | UInt64(i) }
            let sorted = sortPacked(scratchKeys, spare: keys, from: placeBits, bits: rangeBits)
            let placeMask = UInt64(1) << UInt64(placeBits) - 1
            for j in 0..<n {
                let word = sorted[j]
                scratchItems[j] = items[Int(word & placeMask)]
                keys[j] = (word >> UInt64(placeBits)) &+ low
            }
            _ = items.update(fromContentsOf: scratchItems)
            return
        }
        let bits = n <= 4096 ? 8 : 11
        let buckets = 1 << bits, mask = UInt64(buckets - 1)
        let passes = (rangeBits + bits - 1) / bits
        // On the heap: up to 96 KB, too much for the stack of a task's thread.
        var table = [Int](repeating: 0, count: passes * buckets)
        table.withUnsafeMutableBufferPointer { counts in
            for key in keys {
                let relative = key &- low
                for pass in 0..<passes { counts[pass * buckets + Int((relative >> UInt64(pass * bits)) & mask)] += 1 }
            }
            var from = (keys, items), to = (scratchKeys, scratchItems)
            for pass in 0..<passes {
                let count = UnsafeMutableBufferPointer(rebasing: counts[(pass * buckets)..<((pass + 1) * buckets)])
                if count.contains(n) { continue }  // one digit for every key: nothing moves
                var total = 0
                for i in 0..<buckets { (count[i], total) = (total, total + count[i]) }
                let shift = UInt64(pass * bits)
                for i in 0..<n {
                    let key = from.0[i]
                    let digit = Int(((key &- low) >> shift) & mask)
                    let at = count[digit]
                    to.0[at] = key
                    to.1[at] = from.1[i]
                    count[digit] = at + 1
                }
                swap(&from, &to)
            }
            if from.0.baseAddress != keys.baseAddress {
                _ = keys.update(fromContentsOf: from.0)
                _ = items.update(fromContentsOf: from.1)
            }
        }
    }

    /// Sorts `words` by their bits `from ..< from + bits` (the lower ones ride
    /// along), passing between `words` and `spare`; returns the one holding
    /// the sorted words.
    private static func sortPacked(
        _ words: UnsafeMutableBufferPointer<UInt64>, spare: UnsafeMutableBufferPointer<UInt64>, from low: Int, bits keyBits: Int
    ) -> UnsafeMutableBufferPointer<UInt64> {
        let n = words.count
        let bits = n <= 4096 ? 8 : 11
        let buckets = 1 << bits, mask = UInt64(buckets - 1)
        let passes = (keyBits + bits - 1) / bits
        var table = [Int](repeating: 0, count: passes * buckets)
        return table.withUnsafeMutableBufferPointer { counts in
            for word in words {
                for pass in 0..<passes { counts[pass * buckets + Int((word >> UInt64(low + pass * bits)) & mask)] += 1 }
            }
            var from = words, to = spare
            for pass in 0..<passes {
                let count = UnsafeMutableBufferPointer(rebasing: counts[(pass * buckets)..<((pass + 1) * buckets)])
                if count.contains(n) { continue }
                var total = 0
                for i in 0..<buckets { (count[i], total) = (total, total + count[i]) }
                let shift = UInt64(low + pass * bits)
                for word in from {
                    let digit = Int((word >> shift) & mask)
                    to[count[digit]] = word
                    count[digit] += 1
                }
                swap(&from, &to)
            }
            return from
        }
    }

    /// Stable, for the short lists where counting would cost more than it saves.
    private static func insertionSort(keys: UnsafeMutableBufferPointer<UInt64>, items: UnsafeMutableBufferPointer<UInt32>) {
        for i in 1..<keys.count {
            let key = keys[i], item = items[i]
            var j = i
            while j > 0, keys[j - 1] > key {
                keys[j] = keys[j - 1]
                items[j] = items[j - 1]
                j -= 1
            }
            keys[j] = key
            items[j] = item
        }
    }
}
