// SPDX-License-Identifier: Apache-2.0
import FeatureCache

/// The layer a C handle holds.
func layer(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> FeatureLayer {
    try Handles.borrow(pointer, .layer, as: FeatureLayer.self, "layer")
}

@_cdecl("fc_layer_create")
public func fcLayerCreate(_ tablePointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let table = try Handles.borrow(tablePointer, .table, as: FeatureTable.self, "table")
        out.pointee = Handles.export(Handle(.layer, FeatureLayer(table: table)))
    }
}

@_cdecl("fc_layer_free")
public func fcLayerFree(_ layer: OpaquePointer?) {
    Handles.freeLoadable(layer, .layer)
}

@_cdecl("fc_layer_as_loadable")
public func fcLayerAsLoadable(_ layer: OpaquePointer?) -> OpaquePointer? { layer }

@_cdecl("fc_layer_set_min_scale")
public func fcLayerSetMinScale(_ pointer: OpaquePointer?, _ scale: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        try layer(pointer).setMinScale(scale)
    }
}

@_cdecl("fc_layer_set_max_scale")
public func fcLayerSetMaxScale(_ pointer: OpaquePointer?, _ scale: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        try layer(pointer).setMaxScale(scale)
    }
}

@_cdecl("fc_layer_min_scale")
public func fcLayerMinScale(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try layer(pointer).minScale }
}

@_cdecl("fc_layer_max_scale")
public func fcLayerMaxScale(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try layer(pointer).maxScale }
}
