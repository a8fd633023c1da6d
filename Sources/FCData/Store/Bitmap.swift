// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A growable bit set, one bit per row: validity (non-NULL) of a column, or
/// liveness of a batch's rows. Unset past the end.
public struct Bitmap: Sendable, Equatable {
    package private(set) var words: [UInt64] = []
    public private(set) var count = 0

    public init() {}

    /// Bits read back from their words (a cache file); `nil` when the words do
    /// not fit `count` or set bits past its end.
    package init?(words: [UInt64], count: Int) {
        guard count >= 0, words.count == (count + 63) >> 6 else { return nil }
        if count & 63 != 0, words[words.count - 1] >> UInt64(count & 63) != 0 { return nil }
        self.words = words
        self.count = count
    }

    /// `count` bits, all set or all clear.
    public init(count: Int, value: Bool) {
        self.count = count
        words = [UInt64](repeating: value ? ~0 : 0, count: (count + 63) >> 6)
        if value, count & 63 != 0 { words[words.count - 1] = (1 << UInt64(count & 63)) - 1 }
    }

    @inline(__always)
    public subscript(index: Int) -> Bool {
        get { index < count && words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
        set {
            let mask: UInt64 = 1 << UInt64(index & 63)
            if newValue { words[index >> 6] |= mask } else { words[index >> 6] &= ~mask }
        }
    }

    @inline(__always)
    public mutating func append(_ bit: Bool) {
        if count & 63 == 0 { words.append(0) }
        if bit { words[count >> 6] |= 1 << UInt64(count & 63) }
        count += 1
    }

    /// Drops the last bit.
    package mutating func removeLast() {
        precondition(count > 0)
        count -= 1
        if count & 63 == 0 {
            words.removeLast()
        } else {
            words[count >> 6] &= ~(1 << UInt64(count & 63))
        }
    }

    public mutating func reserveCapacity(_ bits: Int) { words.reserveCapacity((bits + 63) >> 6) }

    package func prefix(_ n: Int) -> Bitmap {
        var copy = Bitmap()
        for index in 0..<min(n, count) { copy.append(self[index]) }
        return copy
    }

    /// Number of set bits.
    public var setCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Whether every bit is set (then a column needs no bitmap at all).
    public var allSet: Bool { setCount == count }

    public var byteSize: Int { words.count * 8 }
}
