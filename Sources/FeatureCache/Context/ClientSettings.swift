/// Where an ArcGIS token goes. Raw values are the C ABI's `FC_TOKEN_AS_*`.
public enum TokenPlacement: Int32, Sendable {
    /// `X-Esri-Authorization: Bearer <token>` (keeps tokens out of URLs and logs).
    case header = 0
    /// `token=<token>` in the query string or form body, for servers that want it.
    case parameter = 1
}

/// The HTTP behaviour of one `ClientContext`, applied to every request it sends.
public struct ClientSettings: Sendable {
    /// Seconds to establish a connection.
    public var connectTimeout: Double = 15
    /// Seconds for a whole request, 0 = no limit.
    public var totalTimeout: Double = 120
    public var maxConnectionsPerHost: Int = 6
    /// A larger response fails with `.limit`; 0 = no limit.
    public var maxResponseBytes: Int64 = 512 << 20
    public var userAgent: String = "FeatureCache/\(FeatureCacheVersion.string)"
    /// Sent with every request (e.g. a referer some portals require).
    public var headers: [(name: String, value: String)] = []
    /// ArcGIS token or API key; nil = anonymous.
    public var token: String?
    public var tokenPlacement: TokenPlacement = .header

    public init() {}
}
