extension ClientContext {
    /// Sends through the context, counting the request (failed or not, but not
    /// cancelled) and its bytes in a table's statistics.
    func send(_ request: HTTPRequest, counting statistics: StatisticsCounter?) async throws(FeatureCacheError) -> HTTPResponse {
        do {
            let response = try await send(request)
            statistics?.countResponse(bytes: response.body.count)
            return response
        } catch {
            if error.code != .cancelled { statistics?.countResponse(bytes: 0) }
            throw error
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
