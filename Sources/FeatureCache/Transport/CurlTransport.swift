// SPDX-License-Identifier: Apache-2.0
import CSystemLibs

/// The production transport: libcurl, with connection reuse, transparent gzip,
/// timeouts, a response size limit and real cancellation. One event-loop thread
/// per transport, started on the first request.
public final class CurlTransport: Transport {
    private let loop: CurlEventLoop

    public init(maxConnectionsPerHost: Int = 6) {
        loop = CurlEventLoop(maxConnectionsPerHost: maxConnectionsPerHost)
    }

    deinit { loop.shutdown() }

    /// The libcurl version in use, e.g. "7.88.1".
    public static var libcurlVersion: String { String(cString: fcsys_curl_version()) }

    public func setMaxConnectionsPerHost(_ count: Int) {
        loop.setMaxConnectionsPerHost(count)
    }

    public func send(_ request: HTTPRequest) async throws(FeatureCacheError) -> HTTPResponse {
        let transfer = CurlTransfer(request: request)
        let loop = self.loop
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    if transfer.attach(continuation) { loop.submit(transfer) }
                }
            } onCancel: {
                loop.cancel(transfer)
            }
        } catch {
            throw FeatureCacheError(wrapping: error)
        }
    }
}
