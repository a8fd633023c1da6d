// SPDX-License-Identifier: Apache-2.0
import FCSupport
import CCurl

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
        try await run(CurlTransfer(request: request))
    }

    /// The body goes through a `BodyPipe`: held a couple of MiB at a time,
    /// the transfer paused while the reader catches up.
    public func open(_ request: HTTPRequest) async throws(FeatureCacheError) -> StreamedResponse {
        let transfer = CurlTransfer(request: request, pipe: BodyPipe(budget: loop.budget))
        let head = try await run(transfer)
        return StreamedResponse(status: head.status, headers: head.headers, body: CurlBody(transfer, on: loop))
    }

    /// Submits the transfer and waits for its response (the head only, when streamed).
    private func run(_ transfer: CurlTransfer) async throws(FeatureCacheError) -> HTTPResponse {
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

/// A streamed body read from its transfer's pipe.
private final class CurlBody: ResponseBodySource, @unchecked Sendable {
    private let transfer: CurlTransfer
    private let loop: CurlEventLoop
    /// Budget of pieces the reader kept, given back when it is done with them.
    private var kept = 0

    init(_ transfer: CurlTransfer, on loop: CurlEventLoop) {
        self.transfer = transfer
        self.loop = loop
    }

    deinit { transfer.pipe?.release(kept) }

    func next(kept keep: Bool) async throws(FeatureCacheError) -> [UInt8]? {
        guard let pipe = transfer.pipe else { return nil }
        let (transfer, loop) = (self.transfer, self.loop)
        let taken: (bytes: [UInt8]?, resume: Bool)
        do {
            taken = try await withTaskCancellationHandler {
                try await pipe.take(keepingBudget: keep)
            } onCancel: {
                loop.cancel(transfer)
            }
        } catch {
            throw FeatureCacheError(wrapping: error)
        }
        if taken.resume { loop.resume(transfer) }
        if keep { kept += taken.bytes?.count ?? 0 }
        return taken.bytes
    }

    func abandon() { loop.cancel(transfer) }
}
