// SPDX-License-Identifier: Apache-2.0
import FCSupport

extension ClientContext {
    /// Sends a request the way every service request goes: redirects followed
    /// hop by hop (`Redirect`: checked schemes, no downgrade, credentials only
    /// to the caller's origin), transient failures retried under the context's
    /// `RetryPolicy`, each exchange counted in a table's statistics (failed ones
    /// too, cancelled ones not), retries counted on their own. A cancelled task
    /// stops waiting and retrying at once.
    package func send(_ request: HTTPRequest, counting statistics: StatisticsCounter?) async throws(FeatureCacheError) -> HTTPResponse {
        try await exchange(
            request, counting: statistics,
            open: { request throws(FeatureCacheError) in
                StreamedResponse(try await self.send(request))
            },
            read: { response throws(FeatureCacheError) in
                try await response.collect()
            })
    }

    /// Sends like `send(_:counting:)`, but the final answer's body is read by
    /// `read` as it arrives instead of whole. A connection that breaks mid-body
    /// is retried like any transient failure, with `read` called again on the
    /// new answer: whatever `read` builds must start afresh each call.
    package func send<Read>(
        _ request: HTTPRequest, counting statistics: StatisticsCounter?,
        reading read: (StreamedResponse) async throws(FeatureCacheError) -> Read
    ) async throws(FeatureCacheError) -> Read {
        try await exchange(
            request, counting: statistics,
            open: { request throws(FeatureCacheError) in
                try Task.checkCancellationTyped()
                return try await self.transport.open(request)
            }, read: read)
    }

    /// The retry loop around redirects and reading, shared by whole and streamed answers.
    private func exchange<Read>(
        _ request: HTTPRequest, counting statistics: StatisticsCounter?,
        open: (HTTPRequest) async throws(FeatureCacheError) -> StreamedResponse,
        read: (StreamedResponse) async throws(FeatureCacheError) -> Read
    ) async throws(FeatureCacheError) -> Read {
        let policy = settings.retry
        var retry = 0
        while true {
            retry += 1
            let delay: Double
            var started = ContinuousClock.now
            // The exchange's last answer, told to the request observers when it ends.
            var answered: (status: Int, url: String?, bytes: () -> Int)? = nil
            do throws(FeatureCacheError) {
                let response = try await followingRedirects(request, counting: statistics, started: &started, open: open)
                answered = (response.status, response.redirectedURL, { response.bytesRead })
                if response.status == 304, !request.isConditional {
                    // No body, and nothing this side holds one: a server's mistake, not an empty answer.
                    statistics?.countResponse(bytes: response.bytesRead)
                    throw FeatureCacheError(
                        .protocol, "\(request.methodAndURL): answered 304 Not Modified to a request that was not conditional",
                        httpStatus: 304)
                }
                let retryAfter = { RetryPolicy.retryAfter(response.header("Retry-After"), now: DateText.now) }
                guard request.isIdempotent, RetryPolicy.transientStatuses.contains(response.status),
                    let wait = policy.delay(beforeRetry: retry, retryAfter: retryAfter())
                else {
                    defer { statistics?.countResponse(bytes: response.bytesRead) }
                    statistics?.noteAnswer(response, to: request)
                    let value = try await read(response)
                    observe(
                        request, url: response.redirectedURL, status: response.status, attempt: retry, bytes: response.bytesRead,
                        started: started)
                    return value
                }
                _ = try? await response.collect()
                statistics?.countResponse(bytes: response.bytesRead)
                observe(
                    request, url: response.redirectedURL, status: response.status, attempt: retry, bytes: response.bytesRead,
                    started: started)
                delay = wait
            } catch {
                observe(
                    request, url: answered?.url, status: answered?.status ?? Int(error.httpStatus), attempt: retry,
                    bytes: answered?.bytes() ?? 0, started: started, error: error)
                guard request.isIdempotent, error.isTransient, let wait = policy.delay(beforeRetry: retry, retryAfter: nil) else {
                    throw error
                }
                delay = wait
            }
            // A server pushing back slows down the pages sent alongside this one.
            PushBack.listener?.pushedBack()
            try await pause(delay, statistics: statistics)
        }
    }

    /// The answer after following redirects; each redirect counted as an exchange.
    /// `started`: when the exchange was sent; each hop that redirected is told
    /// to the request observers, and the next one starts then.
    private func followingRedirects(
        _ request: HTTPRequest, counting statistics: StatisticsCounter?, started: inout ContinuousClock.Instant,
        open: (HTTPRequest) async throws(FeatureCacheError) -> StreamedResponse
    ) async throws(FeatureCacheError) -> StreamedResponse {
        var current = request
        for _ in 0...Redirect.maxHops {
            let response: StreamedResponse
            do {
                response = try await open(current)
            } catch {
                if error.code != .cancelled { statistics?.countResponse(bytes: 0) }
                throw error
            }
            guard let next = try Redirect.next(after: current, response.head) else {
                if current.url != request.url { response.redirectedURL = current.url }
                return response
            }
            _ = try? await response.collect()
            statistics?.countResponse(bytes: response.bytesRead)
            observe(current, status: response.status, attempt: 1, bytes: response.bytesRead, started: started)
            started = ContinuousClock.now
            current = next
        }
        throw .protocol("\(request.methodAndURL) redirected more than \(Redirect.maxHops) times")
    }

    private func pause(_ seconds: Double, statistics: StatisticsCounter?) async throws(FeatureCacheError) {
        statistics?.update { $0.retries += 1 }
        do {
            try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
        } catch {
            throw .cancelled
        }
    }
}

/// Lends a body's bytes to a streaming reader with the library's typed error,
/// prefixing a failure with the request it answered.
package func readBody<R>(
    _ body: [UInt8], of request: HTTPRequest,
    _ read: (UnsafeRawBufferPointer) throws(FeatureCacheError) -> R
) throws(FeatureCacheError) -> R {
    try naming(request) { () throws(FeatureCacheError) in try body.withBytes(read) }
}

/// Runs `work`, prefixing a failure with the request it concerns.
package func naming<R>(_ request: HTTPRequest, _ work: () throws(FeatureCacheError) -> R) throws(FeatureCacheError) -> R {
    do throws(FeatureCacheError) {
        return try work()
    } catch {
        throw FeatureCacheError(error.code, "\(request.methodAndURL): \(error.message)")
    }
}
