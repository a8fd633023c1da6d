/// Progress of a running populate: pages and features received so far. Called on
/// a library thread, never under a library lock.
public typealias PopulateProgress = @Sendable (_ pages: Int, _ features: Int) -> Void

/// Everything a protocol adapter fetched for one populate, parsed but not yet in
/// the cache: the table applies it in one step, or not at all.
struct FetchedFeatures: Sendable {
    var batches: [FeatureBatch] = []
    /// `maxFeatures` cut the set short.
    var limitExceeded = false
    var spatialReference: SpatialReference?
    /// False when a page limit stopped the fetch while the service had more.
    var complete = true
    var featureCount: Int { batches.reduce(0) { $0 + $1.count } }
    var objectIds: [Int64] { batches.flatMap { batch in (0..<batch.count).map { batch.objectId($0) } } }
}
