// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Where a streamed body's pieces come from: the libcurl transfer, or a body
/// that was received whole.
package protocol ResponseBodySource: AnyObject, Sendable {
    /// The next piece, nil after the last; throws if the exchange broke off.
    /// `kept`: the reader keeps the piece until the whole body is read (it is
    /// collecting it), so the bytes stay counted against the transport's buffer
    /// budget until this source is released.
    func next(kept: Bool) async throws(FeatureCacheError) -> [UInt8]?
    /// The reader stopped before the end: the exchange is abandoned.
    func abandon()
}

/// A response read as it arrives: status and headers first, then the body in
/// pieces (`next`), so a large body is never held whole. Read by one task at a
/// time. A body not read to its end is abandoned when the response is
/// released: the transfer stops and its connection closes.
public final class StreamedResponse: @unchecked Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    private let source: any ResponseBodySource
    private var finished = false
    /// Body bytes handed out so far.
    public private(set) var bytesRead = 0
    /// The URL that answered when redirects led away from the request's.
    public internal(set) var redirectedURL: String?

    package init(status: Int, headers: [(name: String, value: String)], body: any ResponseBodySource) {
        self.status = status
        self.headers = headers
        source = body
    }

    /// A response that arrived whole (transports that do not stream).
    public convenience init(_ response: HTTPResponse) {
        self.init(status: response.status, headers: response.headers, body: WholeBody(response.body))
    }

    deinit {
        if !finished { source.abandon() }
    }

    /// The first header of that name, compared case-insensitively.
    public func header(_ name: String) -> String? { firstHeader(name, in: headers) }

    /// Status and headers, without the body.
    public var head: HTTPResponse { HTTPResponse(status: status, headers: headers, body: []) }

    /// The next piece of the body (never empty), nil after the last.
    public func next() async throws(FeatureCacheError) -> [UInt8]? {
        try await next(kept: false)
    }

    private func next(kept: Bool) async throws(FeatureCacheError) -> [UInt8]? {
        guard !finished else { return nil }
        do {
            guard let piece = try await source.next(kept: kept) else {
                finished = true
                return nil
            }
            bytesRead += piece.count
            return piece
        } catch {
            finished = true
            throw error
        }
    }

    /// The rest of the body, after `prefix` (bytes already taken with `next`),
    /// as one whole response. Its bytes count against the transport's buffer
    /// budget until this response is released, as a body received whole would.
    public func collect(after prefix: [UInt8] = []) async throws(FeatureCacheError) -> HTTPResponse {
        var body = prefix
        while let piece = try await next(kept: true) {
            if body.isEmpty { body = piece } else { body.append(contentsOf: piece) }
        }
        var response = HTTPResponse(status: status, headers: headers, body: body)
        response.redirectedURL = redirectedURL
        return response
    }
}

/// A body received whole, handed out as one piece.
private final class WholeBody: ResponseBodySource, @unchecked Sendable {
    private var body: [UInt8]?

    init(_ body: [UInt8]) { self.body = body.isEmpty ? nil : body }

    func next(kept: Bool) async throws(FeatureCacheError) -> [UInt8]? {
        defer { body = nil }
        return body
    }

    func abandon() {}
}
