// SPDX-License-Identifier: Apache-2.0

/// The addresses of live handles: open addressing with linear probing and a
/// multiplicative hash. Every C call checks its handle here (a million
/// `fc_result_get_*` calls are a million look-ups), so a look-up is a multiply
/// and a probe or two, where `Set<UInt>` spent ~60 ns in SipHash.
struct AddressSet {
    /// 0 is an empty slot (no handle lives at address 0).
    private var slots = [UInt](repeating: 0, count: 64)
    private var shift: UInt = 64 - 6
    private(set) var count = 0

    @inline(__always)
    private func home(_ address: UInt) -> Int { Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    func contains(_ address: UInt) -> Bool {
        guard address != 0 else { return false }
        var index = home(address)
        while true {
            let slot = slots[index]
            if slot == address { return true }
            if slot == 0 { return false }
            index = (index + 1) & (slots.count - 1)
        }
    }

    /// False when it was there already.
    @discardableResult
    mutating func insert(_ address: UInt) -> Bool {
        precondition(address != 0, "a handle at address 0")
        if (count + 1) * 4 > slots.count * 3 { grow() }
        var index = home(address)
        while slots[index] != 0 {
            if slots[index] == address { return false }
            index = (index + 1) & (slots.count - 1)
        }
        slots[index] = address
        count += 1
        return true
    }

    /// False when it was not there. The entries after it in its probe run
    /// move back, so no look-up ever stops short of one.
    @discardableResult
    mutating func remove(_ address: UInt) -> Bool {
        guard address != 0 else { return false }
        let mask = slots.count - 1
        var hole = home(address)
        while slots[hole] != address {
            if slots[hole] == 0 { return false }
            hole = (hole + 1) & mask
        }
        var next = hole
        while true {
            next = (next + 1) & mask
            let moving = slots[next]
            if moving == 0 { break }
            // Distance from its home to the hole, against to where it is now.
            let from = home(moving)
            if (hole - from) & mask < (next - from) & mask {
                slots[hole] = moving
                hole = next
            }
        }
        slots[hole] = 0
        count -= 1
        return true
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt](repeating: 0, count: old.count * 2)
        shift -= 1
        count = 0
        for address in old where address != 0 { insert(address) }
    }
}
