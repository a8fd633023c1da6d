// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// One HTTP exchange as a context's request observers are told it
/// (`ClientContext.addRequestObserver`; `fc_context_set_request_observer`):
/// each redirect hop and each retry its own, told when it ended.
public struct RequestRecord: Sendable {
    public var method: String
    /// The URL asked, credentials masked.
    public var url: String
    /// The answer's status; 0 when none came.
    public var httpStatus: Int
    /// 1, or the retry's number.
    public var attempt: Int
    /// The answer's body bytes as received.
    public var bytes: Int64
    /// From sending to the body's last byte.
    public var seconds: Double
    /// What ended the exchange; nil when it succeeded.
    public var error: FeatureCacheError?
}

extension ClientContext {
    /// Tells `observer` of every later exchange of this context, in the order
    /// they end, on the channel's queue (never under a library lock).
    public func addRequestObserver(_ observer: @escaping @Sendable (RequestRecord) -> Void) -> UInt64 {
        requests.add(observer)
    }

    /// When this returns the observer is not called again and not running
    /// (unless removed from inside an observer, which cannot wait for itself).
    @discardableResult
    public func removeRequestObserver(_ token: UInt64) -> Bool {
        defer { requests.flush() }
        return requests.remove(token)
    }

    /// Tells the observers of an exchange that ended (`started`: when it was sent).
    func observe(
        _ request: HTTPRequest, url: String? = nil, status: Int, attempt: Int, bytes: Int, started: ContinuousClock.Instant,
        error: FeatureCacheError? = nil
    ) {
        guard requests.hasObservers else { return }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        requests.send(
            RequestRecord(
                method: request.method.rawValue, url: RequestURL.redacted(url ?? request.url), httpStatus: status,
                attempt: attempt, bytes: Int64(bytes), seconds: seconds, error: error))
    }
}
