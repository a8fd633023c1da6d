// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// How long the answers behind a table's cache stay fresh by the server's
/// word (`HTTPFreshness`): the earliest moment one of them stops being fresh.
/// One answer that came without a word, or to a request a cache may not keep
/// (a POST), leaves the whole unvouched: the server promised nothing for it.
package struct AnswerFreshness: Sendable, Equatable {
    /// The earliest end of freshness (epoch milliseconds), nil before any answer.
    package private(set) var earliest: Int64?
    /// Some answer came with no freshness of its own.
    package private(set) var unvouched = false

    package init() {}

    /// What was saved: fresh until `until`, or unvouched when nil.
    package init(saved until: Int64?) {
        earliest = until
        unvouched = until == nil
    }

    /// Until when every answer is fresh; nil when some answer is unvouched or none came.
    package var vouchedUntil: Int64? { unvouched ? nil : earliest }

    /// An answer fresh until `until` (nil: it said nothing).
    package mutating func note(_ until: Int64?) {
        guard let until else {
            unvouched = true
            return
        }
        earliest = min(earliest ?? until, until)
    }

    /// Both sets of answers together.
    package mutating func merge(_ other: AnswerFreshness) {
        if other.unvouched { unvouched = true }
        if let until = other.earliest { note(until) }
    }
}

/// The freshness of the answers one piece of work received (a tile's fetch,
/// a query's): the counted send tells the collector of its task beside the
/// table's whole, so work that runs side by side is told apart.
package final class FreshnessCollector: Sendable {
    private let value = Locked(AnswerFreshness())
    /// The answers' validators, in the order they came; nil once one answer
    /// had none (the work cannot be asked again conditionally as a whole).
    private let validators = Locked<[AnswerValidator]?>([])

    /// Answers beyond this many make a tile's validators nil (bounds what a
    /// tile keeps; a tile is one page, or a few when the service caps it).
    package static let maxValidators = 16
    /// The same bound for a whole-table populate (a page each).
    package static let maxPopulateValidators = 4096
    private let limit: Int

    package init(limit: Int = FreshnessCollector.maxValidators) { self.limit = limit }

    /// The collector of the work running in this task, if any.
    @TaskLocal package static var current: FreshnessCollector?

    package func note(_ until: Int64?, validator: AnswerValidator?) {
        value.withLock { $0.note(until) }
        validators.withLock { list in
            guard let validator, let count = list?.count, count < limit else {
                list = nil
                return
            }
            list!.append(validator)
        }
    }

    /// Runs `work`, returning what it gave, the freshness of the answers it
    /// received, and their validators (nil: some answer had none).
    package static func collecting<R>(
        limit: Int = maxValidators, _ work: () async throws(FeatureCacheError) -> R
    ) async throws(FeatureCacheError) -> (R, AnswerFreshness, [AnswerValidator]?) {
        let collector = FreshnessCollector(limit: limit)
        let outcome = await $current.withValue(collector) { () async -> Result<R, FeatureCacheError> in
            do throws(FeatureCacheError) {
                return .success(try await work())
            } catch {
                return .failure(error)
            }
        }
        return (try outcome.get(), collector.value.withLock { $0 }, collector.validators.withLock { $0 })
    }
}
