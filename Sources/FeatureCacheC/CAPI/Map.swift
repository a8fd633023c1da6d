// SPDX-License-Identifier: Apache-2.0
import FeatureCache

/// The map a C handle holds.
func map(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> Map {
    try Handles.borrow(pointer, .map, as: Map.self, "map")
}

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
        let map = try map(mapPointer)
        let layer = try layer(layerPointer)
        map.addLayer(layer)
    }
}

@_cdecl("fc_map_layer_count")
public func fcMapLayerCount(_ mapPointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in Int32(try map(mapPointer).layers.count) }
}
