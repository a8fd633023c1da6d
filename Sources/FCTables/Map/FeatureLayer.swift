// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

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
    /// The table observer behind `setFeaturesChangedHandler`.
    private let changedToken = Locked<UInt64?>(nil)

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

    /// Whether the layer shows (and fetches) at `scale`; scale 0 = unknown, shown.
    public func isVisible(atScale scale: Double) -> Bool {
        guard scale > 0 else { return true }
        let min = minScale, max = maxScale
        return (min == 0 || scale <= min) && (max == 0 || scale >= max)
    }

    /// The table's definition expression (the layer and its table share it).
    public var definitionExpression: String { table.definitionExpression }

    public func setDefinitionExpression(_ text: String) throws(FeatureCacheError) {
        try table.setDefinitionExpression(text)
    }

    /// Calls `handler` (on a library thread, outside every lock) after each
    /// change of the table's cache by a fetch, with the number of features
    /// merged; nil removes it. When this returns the old handler is not running
    /// and will not run again (unless called from inside that handler).
    public func setFeaturesChangedHandler(_ handler: (@Sendable (Int) -> Void)?) {
        let token = handler.map { table.addFeaturesChangedObserver($0) }
        let old = changedToken.withLock { current in
            defer { current = token }
            return current
        }
        if let old {
            table.removeFeaturesChangedObserver(old)
            table.flushFeatureEvents()
        }
    }

    deinit {
        if let token = changedToken.withLock({ $0 }) { table.removeFeaturesChangedObserver(token) }
    }

    private static func checkScale(_ scale: Double) throws(FeatureCacheError) {
        guard scale.isFinite, scale >= 0 else {
            throw FeatureCacheError.invalidArgument("a scale must be a finite number >= 0 (got \(scale))")
        }
    }
}
