// SPDX-License-Identifier: Apache-2.0
import CSystemLibs
import Synchronization

/// One request in flight on a `CurlEventLoop`: the easy handle's buffers and the
/// continuation to resume exactly once, whoever finishes first (completion,
/// cancellation or shutdown).
final class CurlTransfer: @unchecked Sendable {
    let request: HTTPRequest
    private let continuation = Locked<CheckedContinuation<HTTPResponse, any Error>?>(nil)
    private let cancelRequested = Atomic<Bool>(false)

    // Touched only on the event-loop thread.
    var easy: UnsafeMutableRawPointer?
    var headerList: UnsafeMutablePointer<curl_slist>?
    var postBody: UnsafeMutableRawBufferPointer?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var exceededLimit = false
    var exceededBuffers = false
    /// The loop running this transfer, for the transport-wide buffer budget.
    /// Set by the loop while the transfer is active on it (and so alive), then
    /// cleared: no reference count or weak side table needed.
    unowned(unsafe) var loop: CurlEventLoop?

    init(request: HTTPRequest) {
        self.request = request
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        errorBuffer.deallocate()
        postBody?.deallocate()
        if let headerList { curl_slist_free_all(headerList) }
    }

    var isCancelRequested: Bool { cancelRequested.load(ordering: .acquiring) }

    /// Stores the continuation; false if the transfer was already cancelled.
    func attach(_ continuation: CheckedContinuation<HTTPResponse, any Error>) -> Bool {
        self.continuation.withLock { $0 = continuation }
        if isCancelRequested {
            finish(.failure(FeatureCacheError.cancelled))
            return false
        }
        return true
    }

    func requestCancel() { cancelRequested.store(true, ordering: .releasing) }

    /// Resumes the waiting task once; later calls do nothing.
    func finish(_ result: Result<HTTPResponse, FeatureCacheError>) {
        guard let continuation = continuation.withLock({ value -> CheckedContinuation<HTTPResponse, any Error>? in
            defer { value = nil }
            return value
        }) else { return }
        continuation.resume(with: result.mapError { $0 as any Error })
    }

    // MARK: - Data from libcurl (event-loop thread)

    func receive(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        if isCancelRequested { return 0 }
        if request.maxResponseBytes > 0, Int64(body.count) + Int64(count) > request.maxResponseBytes {
            exceededLimit = true
            return 0  // makes libcurl abort the transfer with CURLE_WRITE_ERROR
        }
        guard loop?.reserve(count, limit: request.maxBufferedBytes) ?? true else {
            exceededBuffers = true
            return 0
        }
        body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        return count
    }

    func receiveHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
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
