/// A layer showing one table. Strong load dependency: loading the layer loads its
/// table, a table failure fails the layer with the table's error, and retrying the
/// layer retries the table. Properties set before load win over the metadata.
public final class FeatureLayer: Loadable {
    public let loadMachine = LoadMachine(label: "layer")
    public let table: FeatureTable

    private struct Overrides {
        var minScale: Double?
        var maxScale: Double?
    }
    private let overrides = Locked(Overrides())

    public init(table: FeatureTable) {
        self.table = table
    }

    public func performLoad(retrying: Bool) async throws(FeatureCacheError) {
        if retrying {
            try await table.retryLoad()
        } else {
            try await table.load()
        }
    }

    public var name: String { table.loadedMetadata?.name ?? "" }

    /// The smallest scale (largest denominator) at which the layer shows; 0 = no limit.
    /// A value set by the caller wins over the service's.
    public var minScale: Double {
        overrides.withLock { $0.minScale } ?? table.loadedMetadata?.minScale ?? 0
    }

    /// The largest scale (smallest denominator) at which the layer shows; 0 = no limit.
    public var maxScale: Double {
        overrides.withLock { $0.maxScale } ?? table.loadedMetadata?.maxScale ?? 0
    }

    public func setMinScale(_ scale: Double) throws(FeatureCacheError) {
        try Self.checkScale(scale)
        overrides.withLock { $0.minScale = scale }
    }

    public func setMaxScale(_ scale: Double) throws(FeatureCacheError) {
        try Self.checkScale(scale)
        overrides.withLock { $0.maxScale = scale }
    }

    private static func checkScale(_ scale: Double) throws(FeatureCacheError) {
        guard scale.isFinite, scale >= 0 else {
            throw FeatureCacheError.invalidArgument("a scale must be a finite number >= 0 (got \(scale))")
        }
    }
}
