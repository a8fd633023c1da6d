// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import Dispatch

/// A map of feature layers. Weak load dependency: loading the map loads all its
/// layers and waits for them to settle, but a layer that fails does not fail the
/// map. A layer added to a map that is loading or loaded starts loading at once.
public final class Map: Loadable {
    public let loadMachine = LoadMachine(label: "map")
    private let layerList = Locked<[FeatureLayer]>([])

    private struct View {
        var extent: Envelope?
        var scale = 0.0
        var bufferFactor = 2.0
        /// Bumped by every new view, so a late start for an older one is dropped.
        var generation: UInt64 = 0
    }
    private let view = Locked(View())
    /// Layers loading before they can fetch for a view.
    private let launches = IdleTracker()

    public init() {}

    /// How much larger than the visible extent the area fetched is, per side
    /// length (default 2, as in the ArcGIS SDK; 1 = exactly the view); where the
    /// extra goes is `ViewBuffer`'s choice.
    public var bufferFactor: Double { view.withLock { $0.bufferFactor } }

    public func setBufferFactor(_ factor: Double) throws(FeatureCacheError) {
        guard factor.isFinite, factor >= 1 else {
            throw FeatureCacheError.invalidArgument("the buffer factor must be a finite number >= 1 (got \(factor))")
        }
        view.withLock { $0.bufferFactor = factor }
    }

    public var visibleExtent: Envelope? { view.withLock { $0.extent } }

    /// Navigation finished at `extent` and `scale` (a scale denominator; 0 =
    /// unknown): every layer visible at that scale whose table is in an
    /// on-interaction mode fetches what the buffered extent needs. Returns at
    /// once; `waitIdle` waits for the fetches. A layer not loaded yet loads first.
    public func setVisibleExtent(_ extent: Envelope, scale: Double) throws(FeatureCacheError) {
        guard extent.isValid, extent.xmin.isFinite, extent.xmax.isFinite, extent.ymin.isFinite, extent.ymax.isFinite else {
            throw FeatureCacheError.invalidArgument("the visible extent must be finite with xmin <= xmax and ymin <= ymax")
        }
        guard scale.isFinite, scale == 0 || scale >= 1 else {
            throw FeatureCacheError.invalidArgument(
                "the scale must be a scale denominator >= 1 (1:1), or 0 for unknown (got \(scale); a ratio such as 0.0001 is 10000)")
        }
        let (buffered, generation) = try view.withLock { view throws(FeatureCacheError) in
            let buffered = try ViewBuffer.area(extent, scale: scale, after: view.extent, scale: view.scale, factor: view.bufferFactor)
            view.extent = extent
            view.scale = scale
            view.generation += 1
            return (buffered, view.generation)
        }
        for layer in layers where layer.isVisible(atScale: scale) {
            if layer.loadStatus == .loaded {
                try show(buffered, visible: extent, scale: scale, on: layer, generation: generation)
                continue
            }
            launches.begin()
            Task.detached { [self] in
                try? await layer.load()
                try? show(buffered, visible: extent, scale: scale, on: layer, generation: generation)
                launches.end()
            }
        }
    }

    /// Hands a view to a layer's table unless a newer view came since.
    private func show(
        _ area: Envelope, visible: Envelope, scale: Double, on layer: FeatureLayer, generation: UInt64
    ) throws(FeatureCacheError) {
        try view.withLock { view throws(FeatureCacheError) in
            guard view.generation == generation, layer.loadStatus == .loaded, layer.isVisible(atScale: scale) else { return }
            try layer.table.show(area, visible: visible, scale: scale)
        }
    }

    /// Suspends until the fetches triggered by views have finished and their
    /// features-changed callbacks have run (`waitIdle` for async callers).
    public func idle() async {
        await launches.idle()
        for layer in layers {
            await layer.table.interaction.idle.idle()
            layer.table.flushFeatureEvents()
        }
    }

    /// Blocks until the fetches triggered by views have finished and their
    /// features-changed callbacks have run; false when `timeout` seconds pass
    /// first (negative = no limit). Never call from a library callback.
    public func waitIdle(timeout: Double) throws(FeatureCacheError) -> Bool {
        try CallbackScope.checkMayBlock("waiting for the map to be idle")
        let deadline: DispatchTime = timeout < 0 ? .distantFuture : .now() + .nanoseconds(Int(min(timeout, 1e9) * 1e9))
        guard launches.wait(until: deadline) else { return false }
        for layer in layers {
            guard layer.table.interaction.idle.wait(until: deadline) else { return false }
            layer.table.flushFeatureEvents()
        }
        return true
    }

    public var layers: [FeatureLayer] { layerList.withLock { $0 } }

    public func addLayer(_ layer: FeatureLayer) {
        layerList.withLock { $0.append(layer) }
        if loadStatus != .notLoaded { layer.load(completion: nil) }
    }

    public func performLoad(retrying: Bool) async throws(FeatureCacheError) {
        let layers = self.layers
        await withTaskGroup(of: Void.self) { group in
            for layer in layers {
                group.addTask {
                    // A layer's failure is its own; the map loads regardless.
                    if retrying { try? await layer.retryLoad() } else { try? await layer.load() }
                }
            }
        }
        try Task.checkCancellationTyped()
    }
}
