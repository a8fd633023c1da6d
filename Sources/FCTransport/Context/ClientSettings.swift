// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The HTTP behaviour of one `ClientContext`, applied to every request it sends.
public struct ClientSettings: Sendable {
    /// Seconds to establish a connection.
    public var connectTimeout: Double = 15
    /// Seconds for a whole request, 0 = no limit.
    public var totalTimeout: Double = 120
    public var maxConnectionsPerHost: Int = 6
    /// A larger response fails with `.limit`; 0 = no limit.
    public var maxResponseBytes: Int64 = 512 << 20
    /// The most response bytes the context's transfers hold at once (6
    /// connections per host × 512 MiB would otherwise allow 3 GiB); 0 = no limit.
    public var maxBufferedBytes: Int64 = 1 << 30
    /// A transfer slower than this many bytes per second, averaged over
    /// `lowSpeedWindow` seconds, fails with `.timeout`. Always on: with a
    /// total timeout of 0 it is what ends a stalled connection.
    public var lowSpeedBytesPerSecond = 1024
    public var lowSpeedWindow = 30.0
    /// Transient failures sent again (429, 502, 503, 504, reset connections).
    public var retry = RetryPolicy()
    /// Bounds on the work one view or one operation may cause.
    public var limits = WorkLimits()
    /// Trusted CA certificates instead of the system's (PEM bundle / hashed directory).
    public var caFile: String?
    public var caPath: String?
    public var userAgent: String = "FeatureCache/\(FeatureCacheVersion.string)"
    /// Sent with every request (e.g. a referer some portals require).
    public var headers: [(name: String, value: String)] = []
    /// ArcGIS token or API key; nil = anonymous.
    public var token: String?
    public var tokenPlacement: TokenPlacement = .header
    /// Where tables of this context keep their cache between runs (a folder,
    /// one sub-folder per table); nil = in memory only.
    public var cacheFolder: String?
    /// Seconds a persisted cache's coverage is trusted when the service gives
    /// no evidence of changes (no edit date) and the freshness its answers
    /// carried ran out or was never given; 0 = the server's freshness alone.
    public var cacheTimeToLive: Double = 0
    /// Bytes the folders under a cache folder may take together; after a save
    /// beyond it, the least recently used tables' folders not in use and with
    /// no pending edits are removed (`CacheDiskBudget`). 0 = no limit.
    public var cacheDiskBudget = 0
    /// Seconds a table waits for a cache folder another table (in this
    /// process or another) holds before it opens the folder read-only.
    public var cacheLockWait: Double = 2

    public init() {}
}
