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
    func gate(for url: String) -> AsyncGate {
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
    public func makeRequest(_ method: HTTPRequest.Method = .get, url: String, headers: [(name: String, value: String)] = [],
                            body: [UInt8]? = nil) -> HTTPRequest {
        let settings = self.settings
        var all: [(name: String, value: String)] = [("User-Agent", settings.userAgent)]
        all += settings.headers
        all += headers
        return HTTPRequest(method: method, url: url, headers: all, body: body,
                           connectTimeout: settings.connectTimeout, totalTimeout: settings.totalTimeout,
                           maxResponseBytes: settings.maxResponseBytes)
    }

    public func send(_ request: HTTPRequest) async throws(FeatureCacheError) -> HTTPResponse {
        try Task.checkCancellationTyped()
        return try await transport.send(request)
    }
}

extension Task where Success == Never, Failure == Never {
    /// `Task.checkCancellation()` with the library's error type.
    static func checkCancellationTyped() throws(FeatureCacheError) {
        if Task.isCancelled { throw FeatureCacheError.cancelled }
    }
}
