// SPDX-License-Identifier: Apache-2.0
import FCSupport
import Synchronization

/// The response bytes a transport's transfers hold at once, checked against the
/// context's buffer limit (`HTTPRequest.maxBufferedBytes`). Whole bodies count
/// until their transfer ends; streamed bodies count while they wait in a
/// `BodyPipe`, and are released as the reader takes them, so it is shared with
/// the reading tasks.
package final class BufferBudget: Sendable {
    private let used = Atomic<Int64>(0)

    /// Takes `count` bytes if they fit under `limit` (0 = no limit).
    package func reserve(_ count: Int, limit: Int64) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            let wanted = current + Int64(count)
            if limit > 0, wanted > limit { return false }
            let (exchanged, original) = used.compareExchange(expected: current, desired: wanted, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    package func release(_ count: Int) {
        if count > 0 { used.subtract(Int64(count), ordering: .relaxed) }
    }

    package var bytesHeld: Int64 { used.load(ordering: .relaxed) }
}
