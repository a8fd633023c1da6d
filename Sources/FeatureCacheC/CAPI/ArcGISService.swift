// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

private func arcgisService(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> (Handle, ArcGISService) {
    try ServiceHandles.borrow(pointer, .arcgisService, as: ArcGISService.self)
}

private func layer(_ service: ArcGISService, _ index: Int32) throws(FeatureCacheError) -> ArcGISLayerSummary {
    try CArguments.element(service.layers(), index, "layer index")
}

@_cdecl("fc_arcgis_service_create")
public func fcArcGISServiceCreate(
    _ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    ServiceHandles.create(ctx, url, "service_url", out, .arcgisService) { (url, context) throws(FeatureCacheError) in
        try ArcGISService(url: url, context: context)
    }
}

@_cdecl("fc_arcgis_service_free")
public func fcArcGISServiceFree(_ pointer: OpaquePointer?) { Handles.freeLoadable(pointer, .arcgisService) }

@_cdecl("fc_arcgis_service_as_loadable")
public func fcArcGISServiceAsLoadable(_ pointer: OpaquePointer?) -> OpaquePointer? { pointer }

@_cdecl("fc_arcgis_service_description")
public func fcArcGISServiceDescription(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in
        let (handle, service) = try arcgisService(pointer)
        return handle.borrowedCString(try service.serviceDescription())
    }
}

@_cdecl("fc_arcgis_service_version")
public func fcArcGISServiceVersion(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try arcgisService(pointer).1.version() }
}

@_cdecl("fc_arcgis_service_layer_count")
public func fcArcGISServiceLayerCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in Int32(clamping: try arcgisService(pointer).1.layers().count) }
}

@_cdecl("fc_arcgis_service_layer_id")
public func fcArcGISServiceLayerId(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in Int32(clamping: try layer(arcgisService(pointer).1, index).id) }
}

@_cdecl("fc_arcgis_service_layer_name")
public func fcArcGISServiceLayerName(
    _ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    output(out) { () throws(FeatureCacheError) in
        let (handle, service) = try arcgisService(pointer)
        return handle.borrowedCString(try layer(service, index).name)
    }
}

@_cdecl("fc_arcgis_service_layer_geometry_type")
public func fcArcGISServiceLayerGeometryType(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try layer(arcgisService(pointer).1, index).geometryType.rawValue }
}

@_cdecl("fc_arcgis_service_layer_is_table")
public func fcArcGISServiceLayerIsTable(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try layer(arcgisService(pointer).1, index).isTable }
}

@_cdecl("fc_arcgis_service_create_table")
public func fcArcGISServiceCreateTable(_ pointer: OpaquePointer?, _ layerId: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    tableOutput(out) { () throws(FeatureCacheError) in try FeatureTable.arcgis(service: try arcgisService(pointer).1, layerId: Int(layerId))
    }
}
