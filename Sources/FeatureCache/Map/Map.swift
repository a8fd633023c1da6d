/// A map of feature layers. Weak load dependency: loading the map loads all its
/// layers and waits for them to settle, but a layer that fails does not fail the
/// map. A layer added to a map that is loading or loaded starts loading at once.
public final class Map: Loadable {
    public let loadMachine = LoadMachine(label: "map")
    private let layerList = Locked<[FeatureLayer]>([])

    public init() {}

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
