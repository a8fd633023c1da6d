// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// When a failed request is sent again: transient failures only (a reset or
/// truncated connection, HTTP 429, 502, 503, 504), requests that are safe to
/// repeat only (GET, and the POSTed queries the library sends), with
/// exponential back-off and jitter, and honouring the server's `Retry-After`.
public struct RetryPolicy: Sendable, Equatable {
    /// Tries in all, the first included: 1 turns retries off.
    public var maxAttempts = 4
    /// Seconds before the first retry; doubled for each further one.
    public var baseDelay = 0.5
    /// No wait is longer; a server asking (Retry-After) for longer is not retried.
    public var maxDelay = 30.0

    public init() {}

    /// HTTP statuses that say "try again later".
    package static let transientStatuses: Set<Int> = [429, 502, 503, 504]

    /// Seconds to wait before retry number `retry` (1 = the first), nil to give
    /// up. A server's `Retry-After` is honoured as given when within `maxDelay`;
    /// otherwise half to all of the exponential delay, at random, so that
    /// clients failed together do not retry together.
    package func delay(beforeRetry retry: Int, retryAfter: Double?) -> Double? {
        guard retry < maxAttempts else { return nil }
        if let retryAfter {
            return retryAfter <= maxDelay ? max(0, retryAfter) : nil
        }
        let exponential = min(maxDelay, baseDelay * Double(1 << min(retry - 1, 30)))
        return exponential * Double.random(in: 0.5...1)
    }

    /// The seconds a `Retry-After` header asks for: delay-seconds, or an
    /// IMF-fixdate (`Wed, 21 Oct 2015 07:28:00 GMT`) relative to `now`
    /// (epoch milliseconds). nil when absent or unreadable.
    package static func retryAfter(_ value: String?, now: Int64) -> Double? {
        guard let text = value?.trimmingCharacters(in: " \t") else { return nil }
        if let seconds = HTTPDate.deltaSeconds(text) { return Double(seconds) }
        guard let at = HTTPDate.epochMilliseconds(text) else { return nil }
        return max(0, Double(at - now) / 1000)
    }
}
