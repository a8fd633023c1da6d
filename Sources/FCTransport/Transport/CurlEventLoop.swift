// SPDX-License-Identifier: Apache-2.0
import FCSupport

#if canImport(Glibc)
import Glibc
#endif
import CCurl

/// A libcurl multi handle driven by one dedicated thread. All transfers of a
/// context run here: connections are kept alive and reused between requests, the
/// per-host connection cap is the multi handle's, and a cancelled transfer is
/// removed from the multi handle at once, which closes its connection. No Swift
/// concurrency thread ever blocks on the network.
package final class CurlEventLoop: @unchecked Sendable {
    private struct Inbox {
        var submitted: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        var resumed: [CurlTransfer] = []
        var maxConnectionsPerHost: Int? = nil
        var stopping = false
        var threadStarted = false
    }

    private let inbox = Locked(Inbox())
    private let multi: UnsafeMutableRawPointer
    /// Transfers added to the multi handle, by easy-handle address (loop thread only).
    private var active: [UInt: CurlTransfer] = [:]
    /// Response bytes all transfers hold, whole bodies and streamed pieces waiting.
    package let budget = BufferBudget()

    package init(maxConnectionsPerHost: Int) {
        _ = CurlEventLoop.globalInit
        multi = curl_multi_init()!
        _ = fcsys_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maxConnectionsPerHost)
        _ = fcsys_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(8, maxConnectionsPerHost * 4))
    }

    /// curl_global_init is not thread-safe everywhere: run it once, lazily.
    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    // MARK: - Called from any thread

    package func submit(_ transfer: CurlTransfer) {
        let startThread = inbox.withLock { inbox -> Bool in
            inbox.submitted.append(transfer)
            defer { inbox.threadStarted = true }
            return !inbox.threadStarted
        }
        if startThread { startLoopThread() }
        curl_multi_wakeup(multi)
    }

    package func cancel(_ transfer: CurlTransfer) {
        transfer.requestCancel()
        inbox.withLock { $0.cancelled.append(transfer) }
        curl_multi_wakeup(multi)
    }

    /// Unpauses a streamed transfer whose reader has made room.
    package func resume(_ transfer: CurlTransfer) {
        inbox.withLock { $0.resumed.append(transfer) }
        curl_multi_wakeup(multi)
    }

    package func setMaxConnectionsPerHost(_ count: Int) {
        inbox.withLock { $0.maxConnectionsPerHost = count }
        curl_multi_wakeup(multi)
    }

    /// Fails every transfer with `.cancelled` and ends the thread; the multi handle
    /// is cleaned up by the thread itself.
    package func shutdown() {
        let started = inbox.withLock { inbox -> Bool in
            inbox.stopping = true
            return inbox.threadStarted
        }
        if started {
            curl_multi_wakeup(multi)
        } else {
            curl_multi_cleanup(multi)
        }
    }

    // MARK: - The loop thread

    private func startLoopThread() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { context in
                let loop = Unmanaged<CurlEventLoop>.fromOpaque(context!).takeRetainedValue()
                loop.run()
                return nil
            }, context)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<CurlEventLoop>.fromOpaque(context).release()
            let failed = inbox.withLock { inbox -> [CurlTransfer] in
                defer { inbox.submitted.removeAll(); inbox.threadStarted = false }
                return inbox.submitted
            }
            for transfer in failed {
                transfer.finish(.failure(FeatureCacheError(.network, "could not start the HTTP thread (pthread_create: \(created))")))
            }
        }
    }

    private func run() {
        while true {
            let (submitted, cancelled, resumed, maxConnections, stopping) = inbox.withLock { inbox in
                defer {
                    inbox.submitted.removeAll(); inbox.cancelled.removeAll(); inbox.resumed.removeAll()
                    inbox.maxConnectionsPerHost = nil
                }
                return (inbox.submitted, inbox.cancelled, inbox.resumed, inbox.maxConnectionsPerHost, inbox.stopping)
            }
            if stopping {
                for transfer in submitted { transfer.finish(.failure(.cancelled)) }
                for easy in Array(active.keys) { remove(easy, result: .failure(.cancelled)) }
                curl_multi_cleanup(multi)
                return
            }
            if let maxConnections {
                _ = fcsys_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maxConnections)
            }
            for transfer in submitted { add(transfer) }
            for transfer in cancelled {
                if let easy = transfer.easy, active[UInt(bitPattern: easy)] != nil {
                    remove(UInt(bitPattern: easy), result: .failure(.cancelled))
                }
            }
            for transfer in resumed {
                // May call the write callback at once with the bytes held back.
                if let easy = transfer.easy, active[UInt(bitPattern: easy)] != nil { _ = curl_easy_pause(easy, 0 /* CURLPAUSE_CONT */) }
            }

            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                let key = UInt(bitPattern: easy)
                guard let transfer = active[key] else { continue }
                remove(key, result: complete(transfer, easy: easy, code: code))
            }
            _ = curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }

    private func add(_ transfer: CurlTransfer) {
        if transfer.isCancelRequested {
            transfer.finish(.failure(.cancelled))
            return
        }
        // A URL grown past what libcurl takes (a long where clause in a GET)
        // would fail as "No URL set": say what it is, without sending anything.
        guard transfer.request.url.utf8.count <= RequestURL.maxLength else {
            transfer.finish(
                .failure(
                    .invalidArgument(
                        "\(transfer.request.methodAndURL): the request URL is \(transfer.request.url.utf8.count) bytes, longer than the \(RequestURL.maxLength) the transport accepts"
                    )))
            return
        }
        guard let easy = curl_easy_init() else {
            transfer.finish(.failure(FeatureCacheError(.network, "libcurl could not create a handle")))
            return
        }
        transfer.easy = easy
        configure(easy, for: transfer)
        active[UInt(bitPattern: easy)] = transfer
        if curl_multi_add_handle(multi, easy) != CURLM_OK {
            remove(UInt(bitPattern: easy), result: .failure(FeatureCacheError(.network, "libcurl refused the request")))
        }
    }

    private func remove(_ key: UInt, result: Result<HTTPResponse, FeatureCacheError>) {
        guard let transfer = active.removeValue(forKey: key), let easy = transfer.easy else { return }
        budget.release(transfer.body.count)
        transfer.budget = nil
        curl_multi_remove_handle(multi, easy)
        curl_easy_cleanup(easy)
        transfer.easy = nil
        transfer.finish(result)
    }

    private func configure(_ easy: UnsafeMutableRawPointer, for transfer: CurlTransfer) {
        let request = transfer.request
        _ = fcsys_easy_setopt_pointer(easy, CURLOPT_URL, request.url)
        _ = fcsys_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = fcsys_easy_setopt_pointer(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        // Redirects are followed by `ClientContext.send`, hop by hop, so that each is checked.
        _ = fcsys_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        _ = fcsys_easy_setopt_pointer(easy, CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes (gzip, deflate, br…)
        _ = fcsys_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        _ = fcsys_easy_setopt_long(easy, CURLOPT_TCP_NODELAY, 1)
        if !request.isIdempotent {
            // libcurl silently sends a request again on a new connection when a
            // reused one closes before any answer: for an edit whose first copy
            // the server carried out, that applies it twice. A connection of its
            // own has nothing to retry.
            _ = fcsys_easy_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1)
            _ = fcsys_easy_setopt_long(easy, CURLOPT_FORBID_REUSE, 1)
        }
        _ = fcsys_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, transfer.errorBuffer)
        if request.connectTimeout > 0 {
            _ = fcsys_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000))
        }
        if request.totalTimeout > 0 {
            _ = fcsys_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(request.totalTimeout * 1000))
        }
        if request.maxResponseBytes > 0 {
            _ = fcsys_easy_setopt_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxResponseBytes))
        }
        if request.lowSpeedBytesPerSecond > 0 {
            _ = fcsys_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, request.lowSpeedBytesPerSecond)
            _ = fcsys_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, Int(request.lowSpeedWindow.rounded(.up))))
        }
        // TLS: peer and host verification stay on (libcurl's defaults); only the
        // trusted certificates can be changed. libcurl copies these strings.
        if let caFile = request.caFile { _ = fcsys_easy_setopt_pointer(easy, CURLOPT_CAINFO, caFile) }
        if let caPath = request.caPath { _ = fcsys_easy_setopt_pointer(easy, CURLOPT_CAPATH, caPath) }
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for header in request.headers {
            if header.name.lowercased() == "user-agent" {
                _ = fcsys_easy_setopt_pointer(easy, CURLOPT_USERAGENT, header.value)
            } else {
                list = curl_slist_append(list, "\(header.name): \(header.value)")
            }
        }
        if request.method != .get, request.method != .post {
            _ = fcsys_easy_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        if request.method == .post || request.body != nil {
            let body = request.body ?? []
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(body.count, 1), alignment: 1)
            body.withUnsafeBytes { buffer.copyMemory(from: $0) }
            transfer.postBody = buffer
            _ = fcsys_easy_setopt_long(easy, CURLOPT_POST, 1)
            _ = fcsys_easy_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            _ = fcsys_easy_setopt_pointer(easy, CURLOPT_POSTFIELDS, buffer.baseAddress)
            list = curl_slist_append(list, "Expect:")  // no 100-continue round trip
        }
        transfer.headerList = list
        if let list { _ = fcsys_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, list) }

        transfer.budget = budget
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        _ = fcsys_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.receive(data!, size * count)
        }
        _ = fcsys_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = fcsys_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.receiveHeader(data!, size * count)
        }
        _ = fcsys_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
    }

    /// Turns a finished easy handle into a response or an error with a clear message.
    private func complete(
        _ transfer: CurlTransfer, easy: UnsafeMutableRawPointer, code: CURLcode
    ) -> Result<HTTPResponse, FeatureCacheError> {
        let request = transfer.request
        if code == CURLE_OK {
            var status = 0
            _ = fcsys_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            return .success(HTTPResponse(status: status, headers: transfer.headers, body: transfer.body))
        }
        if transfer.isCancelRequested { return .failure(.cancelled) }
        let detail = transfer.errorBuffer[0] != 0 ? String(cString: transfer.errorBuffer) : String(cString: curl_easy_strerror(code))
        let what = request.methodAndURL
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(FeatureCacheError(.timeout, "\(what) timed out: \(detail)"))
        case CURLE_WRITE_ERROR where transfer.exceededLimit, CURLE_FILESIZE_EXCEEDED:
            return .failure(
                FeatureCacheError(.limit, "\(what): the response is larger than the limit of \(request.maxResponseBytes) bytes"))
        case CURLE_WRITE_ERROR where transfer.exceededBuffers:
            return .failure(
                FeatureCacheError(
                    .limit,
                    "\(what): the responses in flight would hold more than \(request.maxBufferedBytes) bytes (the context's buffer limit)"))
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            // Caller URLs are checked before they get here: a URL a server gave.
            return .failure(.protocol("\(what): not a URL the library can follow (\(detail))"))
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_TOO_MANY_REDIRECTS:
            return .failure(.protocol("\(what): the server's answer breaks HTTP (\(detail))"))
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            // The connection broke mid-exchange: worth one more try.
            var error = FeatureCacheError(
                .network, code == CURLE_PARTIAL_FILE ? "\(what): the response was truncated (\(detail))" : "\(what) failed: \(detail)")
            error.isTransient = true
            return .failure(error)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
            return .failure(FeatureCacheError(.network, "\(what): TLS failed (\(detail))"))
        default:
            return .failure(FeatureCacheError(.network, "\(what) failed: \(detail)"))
        }
    }
}
