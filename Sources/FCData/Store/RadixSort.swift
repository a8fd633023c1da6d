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
        let bits = keys.count <= 4096 ? 8 : 11
        let buckets = 1 << bits
        let largest = keys.max()!
        let passes = max(1, (64 - largest.leadingZeroBitCount - low + bits - 1) / bits)
        var target = [UInt64](repeating: 0, count: keys.count)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: buckets) { count in
            keys.withUnsafeMutableBufferPointer { a in
                target.withUnsafeMutableBufferPointer { b in
                    var from = a, to = b
                    for pass in 0..<passes {
                        let shift = UInt64(low + pass * bits), mask = UInt64(buckets - 1)
                        for i in 0..<buckets { count[i] = 0 }
                        for key in from { count[Int((key >> shift) & mask)] += 1 }
                        var total = 0
                        for i in 0..<buckets { (count[i], total) = (total, total + count[i]) }
                        for key in from {
                            let digit = Int((key >> shift) & mask)
                            to[count[digit]] = key
                            count[digit] += 1
                        }
                        swap(&from, &to)
                    }
                }
            }
        }
        // Each pass moves the keys to the other buffer: after an odd number
        // they are in `target`.
        if passes % 2 == 1 { keys = target }
    }
}
