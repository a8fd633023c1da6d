// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Shared client state for the tables created with it: the transport (one libcurl
/// event loop and its connection pool), timeouts, limits, headers and credentials.
/// Settings changed later apply to requests sent after the change.
public final class ClientContext: Sendable {
    /// The process-wide default context (used where none is given).
    public static let shared = ClientContext()

    public let transport: any Transport
    private let store: Locked<ClientSettings>
    /// Interaction fetches in flight per host (the scheduler's cap; libcurl's own
    /// per-host cap covers every other request).
    private let gates = Locked<[String: AsyncGate]>([:])
    /// Told of every exchange that ends (`addRequestObserver`).
    package let requests = EventChannel<RequestRecord>(label: "requests")

    /// `transport` nil = a libcurl transport of its own.
    public init(transport: (any Transport)? = nil, settings: ClientSettings = ClientSettings()) {
        self.transport = transport ?? CurlTransport(maxConnectionsPerHost: settings.maxConnectionsPerHost)
        store = Locked(settings)
    }

    public var settings: ClientSettings { store.withLock { $0 } }

    public func updateSettings(_ change: (inout ClientSettings) throws(FeatureCacheError) -> Void) throws(FeatureCacheError) {
        let (before, after) = try store.withLock { settings throws(FeatureCacheError) in
            let before = settings.maxConnectionsPerHost
            try change(&settings)
            return (before, settings.maxConnectionsPerHost)
        }
        if before != after, let curl = transport as? CurlTransport {
            curl.setMaxConnectionsPerHost(after)
        }
    }

    /// The gate limiting concurrent interaction fetches to the host of `url`.
    package func gate(for url: String) -> AsyncGate {
        let host = RequestURL.host(of: url)
        let limit = settings.maxConnectionsPerHost
        return gates.withLock { gates in
            if let gate = gates[host] { return gate }
            let gate = AsyncGate(limit: limit)
            gates[host] = gate
            return gate
        }
    }

    /// A request to `url` with this context's timeouts, limits and headers.
    /// - Parameter credentialsFor: the URL the caller gave for the service:
    ///   credentials (the token, the caller's headers) go only to its origin.
    ///   nil = the request's own URL.
    public func makeRequest(
        _ method: HTTPRequest.Method = .get, url: String, headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil, credentialsFor serviceURL: String? = nil
    ) -> HTTPRequest {
        let settings = self.settings
        var all: [(name: String, value: String)] = [("User-Agent", settings.userAgent)] + headers
        // The caller's headers replace the library's of the same name (Accept
        // included); only the Content-Type of a body the library wrote stays.
        for header in settings.headers {
            let name = header.name.lowercased()
            if body != nil, name == "content-type" { continue }
            all.removeAll { $0.name.lowercased() == name }
            all.append(header)
        }
        var request = HTTPRequest(
            method: method, url: url, headers: all, body: body,
            connectTimeout: settings.connectTimeout, totalTimeout: settings.totalTimeout,
            maxResponseBytes: settings.maxResponseBytes)
        request.lowSpeedBytesPerSecond = settings.lowSpeedBytesPerSecond
        request.lowSpeedWindow = settings.lowSpeedWindow
        request.caFile = settings.caFile
        request.caPath = settings.caPath
        request.maxBufferedBytes = settings.maxBufferedBytes
        if let serviceURL { request.credentialOrigin = Origin(serviceURL) }
        if let origin = request.credentialOrigin, !(Origin(url)?.mayReceiveCredentials(meantFor: origin) ?? false) {
            request = Credentials.stripped(request)
        }
        return request
    }

    /// One exchange on the transport, no redirects or retries (see `send(_:counting:)`).
    public func send(_ request: HTTPRequest) async throws(FeatureCacheError) -> HTTPResponse {
        try Task.checkCancellationTyped()
        return try await transport.send(request)
    }
}
