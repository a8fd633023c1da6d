// SPDX-License-Identifier: Apache-2.0
extension ClientContext {
    /// Sends a request the way every service request goes: redirects followed
    /// hop by hop (`Redirect`: checked schemes, no downgrade, credentials only
    /// to the caller's origin), transient failures retried under the context's
    /// `RetryPolicy`, each exchange counted in a table's statistics (failed ones
    /// too, cancelled ones not), retries counted on their own. A cancelled task
    /// stops waiting and retrying at once.
    func send(_ request: HTTPRequest, counting statistics: StatisticsCounter?) async throws(FeatureCacheError) -> HTTPResponse {
        let policy = settings.retry
        var retry = 0
        while true {
            let outcome: Result<HTTPResponse, FeatureCacheError>
            do {
                outcome = .success(try await followingRedirects(request, counting: statistics))
            } catch {
                outcome = .failure(error)
            }
            retry += 1
            guard request.isIdempotent, let delay = Self.retryDelay(after: outcome, retry: retry, policy) else { return try outcome.get() }
            // A server pushing back slows down the pages sent alongside this one.
            PagingWindow.current?.pushedBack()
            try await pause(delay, statistics: statistics)
        }
    }

    /// Seconds to wait before sending again after `outcome`, nil when it is
    /// final: a success, a failure that is not transient, or the policy's end.
    private static func retryDelay(after outcome: Result<HTTPResponse, FeatureCacheError>, retry: Int, _ policy: RetryPolicy) -> Double? {
        switch outcome {
        case let .success(response):
            guard RetryPolicy.transientStatuses.contains(response.status) else { return nil }
            return policy.delay(beforeRetry: retry, retryAfter: RetryPolicy.retryAfter(response.header("Retry-After"), now: DateText.now))
        case let .failure(error):
            return error.isTransient ? policy.delay(beforeRetry: retry, retryAfter: nil) : nil
        }
    }

    private func followingRedirects(_ request: HTTPRequest, counting statistics: StatisticsCounter?) async throws(FeatureCacheError) -> HTTPResponse {
        var current = request
        for _ in 0...Redirect.maxHops {
            let response: HTTPResponse
            do {
                response = try await send(current)
                statistics?.countResponse(bytes: response.body.count)
            } catch {
                if error.code != .cancelled { statistics?.countResponse(bytes: 0) }
                throw error
            }
            guard let next = try Redirect.next(after: current, response) else { return response }
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
func readBody<R>(_ body: [UInt8], of request: HTTPRequest,
                 _ read: (UnsafeRawBufferPointer) throws(FeatureCacheError) -> R) throws(FeatureCacheError) -> R {
    do throws(FeatureCacheError) {
        return try body.withBytes(read)
    } catch {
        throw FeatureCacheError(error.code, "\(request.methodAndURL): \(error.message)")
    }
}
