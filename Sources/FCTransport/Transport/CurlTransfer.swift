// SPDX-License-Identifier: Apache-2.0
import FCSupport
import CCurl
import Synchronization

/// One request in flight on a `CurlEventLoop`: the easy handle's buffers and the
/// continuation to resume exactly once, whoever finishes first (completion,
/// cancellation or shutdown). A buffered transfer resumes it with the whole
/// response; a streamed one (`pipe` set) with the status and headers as soon as
/// the body starts, and hands the body to the pipe.
package final class CurlTransfer: @unchecked Sendable {
    package let request: HTTPRequest
    package let pipe: BodyPipe?
    private let continuation = Locked<CheckedContinuation<HTTPResponse, any Error>?>(nil)
    private let cancelRequested = Atomic<Bool>(false)

    // Touched only on the event-loop thread.
    package var easy: UnsafeMutableRawPointer?
    package var headerList: UnsafeMutablePointer<curl_slist>?
    package var postBody: UnsafeMutableRawBufferPointer?
    package let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    package var body: [UInt8] = []
    package var headers: [(name: String, value: String)] = []
    package var exceededLimit = false
    package var exceededBuffers = false
    /// Body bytes received, whether kept in `body` or handed to the pipe.
    private var received: Int64 = 0
    private var headDelivered = false
    /// The transport-wide buffer budget, set by the loop running this transfer.
    package var budget: BufferBudget?

    package init(request: HTTPRequest, pipe: BodyPipe? = nil) {
        self.request = request
        self.pipe = pipe
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        errorBuffer.deallocate()
        postBody?.deallocate()
        if let headerList { curl_slist_free_all(headerList) }
    }

    package var isCancelRequested: Bool { cancelRequested.load(ordering: .acquiring) }

    /// Stores the continuation; false if the transfer was already cancelled.
    package func attach(_ continuation: CheckedContinuation<HTTPResponse, any Error>) -> Bool {
        self.continuation.withLock { $0 = continuation }
        if isCancelRequested {
            finish(.failure(FeatureCacheError.cancelled))
            return false
        }
        return true
    }

    package func requestCancel() { cancelRequested.store(true, ordering: .releasing) }

    /// Resumes the waiting task once, and ends a streamed body; later calls do nothing.
    package func finish(_ result: Result<HTTPResponse, FeatureCacheError>) {
        resume(result)
        if let pipe {
            if case let .failure(error) = result { pipe.end(error) } else { pipe.end(nil) }
        }
    }

    private func resume(_ result: Result<HTTPResponse, FeatureCacheError>) {
        guard
            let continuation = continuation.withLock({ value -> CheckedContinuation<HTTPResponse, any Error>? in
                defer { value = nil }
                return value
            })
        else { return }
        continuation.resume(with: result.mapError { $0 as any Error })
    }

    // MARK: - Data from libcurl (event-loop thread)

    package func receive(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        if isCancelRequested { return 0 }
        if pipe != nil, !headDelivered {
            // The body starts: the headers are complete and final.
            headDelivered = true
            var status = 0
            if let easy { _ = fcsys_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status) }
            resume(.success(HTTPResponse(status: status, headers: headers, body: [])))
        }
        if request.maxResponseBytes > 0, received + Int64(count) > request.maxResponseBytes {
            exceededLimit = true
            return 0  // makes libcurl abort the transfer with CURLE_WRITE_ERROR
        }
        let bytes = UnsafeRawBufferPointer(start: data, count: count)
        if let pipe {
            switch pipe.offer(bytes, limit: request.maxBufferedBytes) {
            case .accepted: break
            case .paused: return Int(CURL_WRITEFUNC_PAUSE)  // libcurl keeps these bytes and offers them again once resumed
            case .refused:
                exceededBuffers = true
                return 0
            }
        } else {
            guard budget?.reserve(count, limit: request.maxBufferedBytes) ?? true else {
                exceededBuffers = true
                return 0
            }
            body.append(contentsOf: bytes)
        }
        received += Int64(count)
        return count
    }

    package func receiveHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers.removeAll()  // a new response (after a redirect or 100 Continue)
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t\r\n")
            headers.append((name, value))
        }
        return count
    }
}
