// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// The ArcGIS-named C functions: fc_arcgis_service, fc_table_create_arcgis and
// fc_arcgis_table (what only ArcGIS feature-service layers have).
//
// The header gives each of these as the older spelling of a generic call
// (fc_service_*, fc_table_open, fc_table_get_option / fc_table_set_option):
// exported and unchanged for 1.x callers; the table functions forward to the
// generic call.

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

@_cdecl("fc_table_create_arcgis")
public func fcTableCreateArcGIS(_ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32
{
    tableOutput(out) { () throws(FeatureCacheError) in
        let context = try context(ctx)
        return try FeatureTable.arcgis(url: try CArguments.string(url, "layer_url"), context: context)
    }
}

@_cdecl("fc_table_as_arcgis")
public func fcTableAsArcGIS(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    tableView(pointer, .arcgis, out)
}

@_cdecl("fc_arcgis_table_supports_pagination")
public func fcArcGISTableSupportsPagination(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    fact(pointer, out, "supports_pagination") { _, text in text == "true" }
}

@_cdecl("fc_arcgis_table_capabilities")
public func fcArcGISTableCapabilities(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    fact(pointer, out, "capabilities") { handle, text in handle.borrowedCString(text) }
}

@_cdecl("fc_arcgis_table_supported_query_formats")
public func fcArcGISTableSupportedQueryFormats(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    fact(pointer, out, "supported_query_formats") { handle, text in handle.borrowedCString(text) }
}

@_cdecl("fc_arcgis_table_service_version")
public func fcArcGISTableServiceVersion(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    fact(pointer, out, "current_version") { _, text in Double(text) ?? 0 }
}

@_cdecl("fc_arcgis_table_set_query_format")
public func fcArcGISTableSetQueryFormat(_ pointer: OpaquePointer?, _ format: Int32) -> Int32 {
    status { () throws(FeatureCacheError) in
        let format = try CArguments.enumValue(format, ArcGISQueryFormat.self, "query format (FC_ARCGIS_FORMAT_*)")
        try table(pointer, of: .arcgis).1.setQueryFormat(format)
    }
}

@_cdecl("fc_arcgis_table_query_format")
public func fcArcGISTableQueryFormat(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try table(pointer, of: .arcgis).1.queryFormat().rawValue
    }
}

@_cdecl("fc_arcgis_table_query_format_in_use")
public func fcArcGISTableQueryFormatInUse(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try table(pointer, of: .arcgis).1.queryFormatInUse().rawValue
    }
}

/// An ArcGIS table's report-only option `name` (fc_table_get_option), converted.
private func fact<T>(
    _ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<T>?, _ name: String,
    _ convert: (Handle, String) -> T
) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, table) = try table(pointer, of: .arcgis)
        let out = try CArguments.output(out)
        out.pointee = convert(handle, try table.option(name))
    }
}
