import FeatureCache

@_cdecl("fc_map_create")
public func fcMapCreate(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = Handles.export(Handle(.map, Map()))
    }
}

@_cdecl("fc_map_free")
public func fcMapFree(_ map: OpaquePointer?) {
    Handles.freeLoadable(map, .map)
}

@_cdecl("fc_map_as_loadable")
public func fcMapAsLoadable(_ map: OpaquePointer?) -> OpaquePointer? { map }

@_cdecl("fc_map_add_layer")
public func fcMapAddLayer(_ mapPointer: OpaquePointer?, _ layerPointer: OpaquePointer?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let map = try Handles.borrow(mapPointer, .map, as: Map.self, "map")
        let layer = try Handles.borrow(layerPointer, .layer, as: FeatureLayer.self, "layer")
        map.addLayer(layer)
    }
}

@_cdecl("fc_map_layer_count")
public func fcMapLayerCount(_ mapPointer: OpaquePointer?) -> Int32 {
    value(or: -1) { () throws(FeatureCacheError) in Int32(try Handles.borrow(mapPointer, .map, as: Map.self, "map").layers.count) }
}
