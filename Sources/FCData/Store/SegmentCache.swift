// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The segments a store holds in memory, within a capacity in bytes: each
/// one read back or used is the most recent; over capacity, the least
/// recently used are let go (they stay on disk and are read back when a
/// query needs them again). A slot is released after this cache's lock, so
/// no slot's lock is ever taken under it.
package final class SegmentCache: Sendable {
    fileprivate struct State {
        /// Each held slot with the clock when it was last used.
        var held: [ObjectIdentifier: (slot: BatchSlot, used: UInt64)] = [:]
        var clock: UInt64 = 0
        var bytes = 0
        var capacity = Int.max
        var reads = 0
        var evictions = 0
        var failures = 0
    }
    private let state = Locked(State())

    package init() {}

    /// The bytes of segments it may hold; Int.max: all.
    package func setCapacity(_ bytes: Int) {
        let victims = state.withLock { state in
            state.capacity = max(0, bytes)
            return state.evict()
        }
        for victim in victims { victim.release() }
    }

    /// `slot` was used: it is the most recent; `admitting`: it is in memory
    /// again, and counts (`read`: from its file).
    package func use(_ slot: BatchSlot, admitting: Bool, read: Bool = false) {
        let victims = state.withLock { state -> [BatchSlot] in
            state.clock += 1
            let key = ObjectIdentifier(slot)
            if read { state.reads += 1 }
            if state.held[key] != nil {
                state.held[key]!.used = state.clock
                return []
            }
            guard admitting || slot.isInMemory else { return [] }
            state.held[key] = (slot, state.clock)
            state.bytes += slot.batchBytes
            return state.evict(sparing: key)
        }
        for victim in victims { victim.release() }
    }

    /// Some columns of a segment were read from its file, not held (a where clause's).
    package func noteColumnsRead() { state.withLock { $0.reads += 1 } }

    /// A segment could not be read back (the store then purges what is lost).
    package func noteFailure() { state.withLock { $0.failures += 1 } }

    /// Read failures so far.
    package var failures: Int { state.withLock { $0.failures } }

    /// Forgets a slot the store no longer has (its rows all gone).
    package func forget(_ slots: [BatchSlot]) {
        state.withLock { state in
            for slot in slots {
                if let gone = state.held.removeValue(forKey: ObjectIdentifier(slot)) { state.bytes -= gone.slot.batchBytes }
            }
        }
    }

    /// Lets every segment go (the store is cleared or gone).
    package func removeAll() {
        let all = state.withLock { state in
            defer {
                state.held = [:]
                state.bytes = 0
            }
            return state.held.values.map(\.slot)
        }
        for slot in all { slot.release() }
    }

    /// Bytes of segments held, how many, reads and evictions so far.
    package var figures: (bytes: Int, held: Int, reads: Int, evictions: Int) {
        state.withLock { ($0.bytes, $0.held.count, $0.reads, $0.evictions) }
    }
}

extension SegmentCache.State {
    /// The least recently used slots to let go until the rest fit (never `sparing`, the one just used).
    fileprivate mutating func evict(sparing: ObjectIdentifier? = nil) -> [BatchSlot] {
        guard bytes > capacity else { return [] }
        var victims: [BatchSlot] = []
        // Oldest first; down to 7/8 of the capacity, so a scan does not sort on every read.
        let target = capacity - capacity / 8
        for (key, entry) in held.sorted(by: { $0.value.used < $1.value.used }) where key != sparing {
            guard bytes > target else { break }
            held[key] = nil
            bytes -= entry.slot.batchBytes
            evictions += 1
            victims.append(entry.slot)
        }
        return victims
    }
}
