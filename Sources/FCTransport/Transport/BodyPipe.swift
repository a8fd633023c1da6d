// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A streamed body on its way from the event-loop thread (libcurl's write
/// callback) to the task reading it. At most about `highWater` bytes wait: a
/// full pipe pauses the transfer (CURL_WRITEFUNC_PAUSE), and the reader that
/// empties it asks for it to be resumed. So a response of any size is held a
/// couple of MiB at a time, and a slow reader slows the server instead of
/// filling memory. The transfer also pauses, rather than fails, when the
/// transport's buffer budget is spent while this pipe holds bytes: the reader
/// taking them gives budget back.
package final class BodyPipe: @unchecked Sendable {
    /// Bytes waiting beyond which the transfer pauses.
    package static let highWater = 2 << 20
    /// A waiting reader is woken once this much has arrived (or the body ended):
    /// one hand-off per 64 KiB rather than per 16 KiB write.
    package static let wakeAt = 64 << 10

    private struct State {
        var pending: [UInt8] = []
        var ended = false
        var failure: FeatureCacheError?
        var paused = false
        var reader: CheckedContinuation<Void, Never>?
        /// Enough has arrived for the reader to take (all there is, when paused).
        var isReady: Bool { ended || paused || pending.count >= BodyPipe.wakeAt }

        mutating func takeReader() -> CheckedContinuation<Void, Never>? {
            defer { reader = nil }
            return reader
        }
    }

    private let state = Locked(State())
    private let budget: BufferBudget

    package init(budget: BufferBudget) { self.budget = budget }

    deinit {
        // Bytes nobody took (the reader stopped early) leave the budget.
        budget.release(state.withLock { $0.pending.count })
    }

    // MARK: - The writer (event-loop thread)

    /// What became of bytes offered to the pipe.
    package enum Offer: Equatable {
        /// Counted against the budget and waiting for the reader.
        case accepted
        /// Not taken: the pipe is full, or the budget is spent while this pipe
        /// holds bytes whose taking gives budget back. The transfer pauses; the
        /// reader that empties the pipe resumes it, and the bytes come again.
        case paused
        /// Not taken: the budget is spent elsewhere (other transfers, or bytes
        /// this body's reader keeps) and this pipe holds nothing its reader
        /// could free. Waiting could last for ever: the transfer fails.
        case refused
    }

    /// Takes `bytes` if the pipe has room and the budget (`limit`, 0 = none)
    /// allows them. Decided under the pipe's lock, where the reader also gives
    /// its bytes' budget back: an empty pipe whose reader is still releasing
    /// what it took is never mistaken for one that holds nothing.
    package func offer(_ bytes: UnsafeRawBufferPointer, limit: Int64) -> Offer {
        let (offer, reader) = state.withLock { state -> (Offer, CheckedContinuation<Void, Never>?) in
            let full = state.pending.count >= BodyPipe.highWater
            if full || !budget.reserve(bytes.count, limit: limit) {
                guard !state.pending.isEmpty else { return (.refused, nil) }
                state.paused = true
                return (.paused, state.takeReader())
            }
            state.pending.append(contentsOf: bytes)
            return (.accepted, state.isReady ? state.takeReader() : nil)
        }
        reader?.resume()
        return offer
    }

    /// The body is complete (`failure` nil) or broken off.
    package func end(_ failure: FeatureCacheError?) {
        let reader = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.ended else { return nil }
            state.ended = true
            state.failure = failure
            return state.takeReader()
        }
        reader?.resume()
    }

    // MARK: - The reader (one task)

    /// Gives back budget for bytes taken with `keepingBudget`.
    package func release(_ bytes: Int) { budget.release(bytes) }

    /// The bytes that have arrived (nil after the last), and whether the
    /// transfer was paused for room and must now be resumed. Their budget is
    /// given back unless the reader keeps them (then `release` it later).
    package func take(keepingBudget: Bool) async throws(FeatureCacheError) -> (bytes: [UInt8]?, resume: Bool) {
        while true {
            let taken = state.withLock { state -> Result<(bytes: [UInt8]?, resume: Bool), FeatureCacheError>? in
                guard state.isReady else { return nil }
                if !state.pending.isEmpty {
                    defer { state.pending = []; state.paused = false }
                    // Given back before the lock opens: see `offer`.
                    if !keepingBudget { budget.release(state.pending.count) }
                    return .success((state.pending, state.paused))
                }
                if let failure = state.failure { return .failure(failure) }
                return .success((nil, false))
            }
            if let taken { return try taken.get() }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.isReady { return true }
                    state.reader = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }
}
