// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Bounds on the work a server or a caller can make the library do, so that
/// neither an endless server nor a mistaken argument exhausts memory or time.
/// Defaults are far above what real use needs; a context can change them.
public struct WorkLimits: Sendable, Equatable {
    /// Tiles one on-interaction view may cover: a finer level than this allows
    /// is coarsened until the view fits (a scale of 1:50 over a city is asked
    /// as bigger tiles, not as millions of small ones).
    public var maxTilesPerView = 256
    /// Requests one view may send (tiles, their splits and pages); the tiles
    /// beyond stay uncovered and count as failures with `.limit`.
    public var maxRequestsPerView = 1024
    /// Pages one populate, query or tile may read before it fails with `.limit`
    /// (a server setting `exceededTransferLimit` or a `next` link for ever).
    public var maxPagesPerOperation = 10_000
    /// Features one operation may receive before it fails with `.limit`.
    public var maxFeaturesPerOperation = 20_000_000

    public init() {}

    /// Checks every field is at least 1.
    public func validated() throws(FeatureCacheError) -> WorkLimits {
        for (name, value) in [
            ("max_tiles_per_view", maxTilesPerView), ("max_requests_per_view", maxRequestsPerView),
            ("max_pages_per_operation", maxPagesPerOperation), ("max_features_per_operation", maxFeaturesPerOperation),
        ]
        where value < 1 {
            throw .invalidArgument("\(name) must be at least 1 (got \(value))")
        }
        return self
    }
}
