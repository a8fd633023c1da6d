// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// One HTTP request as the transport executes it: everything a request needs,
/// including the limits it runs under, so a transport holds no per-caller state.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET", post = "POST"
        /// OGC API - Features Part 4: replace, change and remove an item.
        case put = "PUT", patch = "PATCH", delete = "DELETE"
    }

    public var method: Method
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?
    /// Seconds to establish a connection; 0 = the transport's default.
    public var connectTimeout: Double
    /// Seconds for the whole exchange; 0 = none.
    public var totalTimeout: Double
    /// A response larger than this fails with `.limit`; 0 = no limit.
    public var maxResponseBytes: Int64
    /// A transfer averaging fewer bytes per second than this over
    /// `lowSpeedWindow` seconds fails with `.timeout` (a stalled server never
    /// holds a request for ever, whatever the total timeout). 0 = off.
    public var lowSpeedBytesPerSecond: Int = 0
    public var lowSpeedWindow: Double = 30
    /// Where the credentials in this request may be sent (the origin of the URL
    /// the caller gave); hops to any other origin go without them. nil = no check.
    package var credentialOrigin: Origin?
    /// Safe to send again after a transient failure (GET, and POSTed queries).
    public var isIdempotent: Bool
    /// Trusted CA certificates (PEM file, or a c_rehash'ed directory) instead
    /// of the system's; nil = the system's.
    public var caFile: String?
    public var caPath: String?
    /// The most response bytes all of a transport's transfers may hold at once
    /// (each is also limited by `maxResponseBytes`); 0 = no limit.
    public var maxBufferedBytes: Int64 = 0

    public init(
        method: Method = .get, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
        connectTimeout: Double = 10, totalTimeout: Double = 60, maxResponseBytes: Int64 = 0
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxResponseBytes = maxResponseBytes
        self.isIdempotent = true
        self.credentialOrigin = Origin(url)
    }

    /// The first header of that name, compared case-insensitively.
    public func header(_ name: String) -> String? { firstHeader(name, in: headers) }

    /// The URL with secrets (token, api key) masked, for messages and logs.
    public var redactedURL: String { RequestURL.redacted(url) }

    /// "GET https://host/path?…" with secrets masked: how messages name a request.
    public var methodAndURL: String { "\(method.rawValue) \(redactedURL)" }
}

/// A response of any status; deciding what a status means is the caller's job.
extension HTTPRequest {
    /// Whether it asks for a 304 when the answer did not change (If-None-Match, If-Modified-Since).
    package var isConditional: Bool {
        headers.contains { ["if-none-match", "if-modified-since"].contains($0.name.lowercased()) }
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The URL that answered when redirects led away from the request's; nil
    /// when the request's own did.
    public var redirectedURL: String?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header of that name, compared case-insensitively.
    public func header(_ name: String) -> String? { firstHeader(name, in: headers) }

    /// The start of the body as text, for error messages about unexpected bodies.
    public var bodyPreview: String {
        let prefix = body.prefix(160)
        var text = String(decoding: prefix, as: UTF8.self)
        text = String(text.map { $0.isNewline ? " " : $0 })
        return body.count > prefix.count ? text + "…" : text
    }
}

/// The seam between the library and the network: the libcurl client in production,
/// scripted transports in unit tests. Implementations must honour Swift task
/// cancellation by really aborting the exchange.
public protocol Transport: Sendable {
    func send(_ request: HTTPRequest) async throws(FeatureCacheError) -> HTTPResponse
    /// The same exchange, answered as soon as the status and headers are in,
    /// with the body read as it arrives. The default sends and hands the body
    /// over whole.
    func open(_ request: HTTPRequest) async throws(FeatureCacheError) -> StreamedResponse
}

extension Transport {
    public func open(_ request: HTTPRequest) async throws(FeatureCacheError) -> StreamedResponse {
        StreamedResponse(try await send(request))
    }
}

/// The first header of that name in `headers`, compared case-insensitively.
package func firstHeader(_ name: String, in headers: [(name: String, value: String)]) -> String? {
    let wanted = name.lowercased()
    return headers.first { $0.name.lowercased() == wanted }?.value
}
