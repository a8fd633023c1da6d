// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// The WFS-named C functions: fc_wfs_service, fc_table_create_wfs and fc_wfs_table
// (what only WFS feature types have: axis orders, the output format, and
// populating with a complete GetFeature document).
//
// The header gives each of these as the older spelling of a generic call
// (fc_service_*, fc_table_open, fc_table_get_option / fc_table_set_option):
// exported and unchanged for 1.x callers; the table functions forward to the
// generic call.

private func wfsService(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> (Handle, WFSService) {
    try ServiceHandles.borrow(pointer, .wfsService, as: WFSService.self)
}

/// Feature type `index` of a loaded service, and the handle that lends its strings.
private func featureType(_ pointer: OpaquePointer?, _ index: Int32) throws(FeatureCacheError) -> (Handle, WFSFeatureTypeInfo) {
    let (handle, service) = try wfsService(pointer)
    return (handle, try CArguments.element(service.featureTypes(), index, "feature type index"))
}

@_cdecl("fc_wfs_service_create")
public func fcWFSServiceCreate(_ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    ServiceHandles.create(ctx, url, "service_url", out, .wfsService) { (url, context) throws(FeatureCacheError) in
        try WFSService(url: url, context: context)
    }
}

@_cdecl("fc_wfs_service_free")
public func fcWFSServiceFree(_ pointer: OpaquePointer?) { Handles.freeLoadable(pointer, .wfsService) }

@_cdecl("fc_wfs_service_as_loadable")
public func fcWFSServiceAsLoadable(_ pointer: OpaquePointer?) -> OpaquePointer? { pointer }

/// A string of the loaded service (title, version), borrowed from its handle.
private func serviceString(
    _ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ text: @escaping (WFSService) -> String
) -> Int32 {
    borrowedOutput(out) { () throws(FeatureCacheError) in
        let (handle, service) = try wfsService(pointer)
        _ = try service.featureTypes()  // requires LOADED
        return (handle, text(service))
    }
}

@_cdecl("fc_wfs_service_title")
public func fcWFSServiceTitle(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    serviceString(pointer, out) { $0.title }
}

@_cdecl("fc_wfs_service_version")
public func fcWFSServiceVersion(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    serviceString(pointer, out) { $0.version?.rawValue ?? "" }
}

@_cdecl("fc_wfs_service_feature_type_count")
public func fcWFSServiceFeatureTypeCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in Int32(clamping: try wfsService(pointer).1.featureTypes().count) }
}

@_cdecl("fc_wfs_service_feature_type_name")
public func fcWFSServiceFeatureTypeName(
    _ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    borrowedOutput(out) { () throws(FeatureCacheError) in
        let (handle, type) = try featureType(pointer, index)
        return (handle, type.name)
    }
}

@_cdecl("fc_wfs_service_feature_type_title")
public func fcWFSServiceFeatureTypeTitle(
    _ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    borrowedOutput(out) { () throws(FeatureCacheError) in
        let (handle, type) = try featureType(pointer, index)
        return (handle, type.title)
    }
}

@_cdecl("fc_wfs_service_create_table")
public func fcWFSServiceCreateTable(
    _ pointer: OpaquePointer?, _ typeName: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    tableOutput(out) { () throws(FeatureCacheError) in
        try FeatureTable.wfs(service: try wfsService(pointer).1, typeName: try CArguments.string(typeName, "type_name"))
    }
}

// MARK: - WFS tables

@_cdecl("fc_table_create_wfs")
public func fcTableCreateWFS(
    _ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ typeName: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    tableOutput(out) { () throws(FeatureCacheError) in
        let context = try context(ctx)
        let url = try CArguments.string(url, "service_url")
        return try FeatureTable.wfs(url: url, typeName: try CArguments.string(typeName, "type_name"), context: context)
    }
}

@_cdecl("fc_table_as_wfs")
public func fcTableAsWFS(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    tableView(pointer, .wfs, out)
}

private func setAxisOrder(_ pointer: OpaquePointer?, _ order: Int32, forFilters: Bool) -> Int32 {
    status { () throws(FeatureCacheError) in
        let order = try CArguments.enumValue(order, AxisOrder.self, "axis order (FC_AXIS_ORDER_*)")
        try table(pointer, of: .wfs).1.setAxisOrder(order, forFilters: forFilters)
    }
}

private func axisOrder(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?, forFilters: Bool) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try table(pointer, of: .wfs).1.axisOrder(forFilters: forFilters).rawValue
    }
}

@_cdecl("fc_wfs_table_set_axis_order")
public func fcWFSTableSetAxisOrder(_ pointer: OpaquePointer?, _ order: Int32) -> Int32 {
    setAxisOrder(pointer, order, forFilters: false)
}

@_cdecl("fc_wfs_table_axis_order")
public func fcWFSTableAxisOrder(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    axisOrder(pointer, out, forFilters: false)
}

@_cdecl("fc_wfs_table_set_filter_axis_order")
public func fcWFSTableSetFilterAxisOrder(_ pointer: OpaquePointer?, _ order: Int32) -> Int32 {
    setAxisOrder(pointer, order, forFilters: true)
}

@_cdecl("fc_wfs_table_filter_axis_order")
public func fcWFSTableFilterAxisOrder(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    axisOrder(pointer, out, forFilters: true)
}

@_cdecl("fc_wfs_table_set_output_format")
public func fcWFSTableSetOutputFormat(_ pointer: OpaquePointer?, _ format: UnsafePointer<CChar>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        try table(pointer, of: .wfs).1.setOutputFormat(try CArguments.optionalString(format, "format"))
    }
}

@_cdecl("fc_wfs_table_output_format")
public func fcWFSTableOutputFormat(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try CArguments.ownedString(try table(pointer, of: .wfs).1.outputFormat() ?? "")
    }
}

/// The work of a GetFeature-document populate, its arguments checked first.
private func xmlPopulateWork(
    _ pointer: OpaquePointer?, _ xml: UnsafePointer<CChar>?,
    _ options: UnsafePointer<fc_populate_options>?
) throws(FeatureCacheError) -> @Sendable (COperation) async throws(FeatureCacheError) -> OperationValue {
    let table = try table(pointer, of: .wfs).1
    let document = try CArguments.string(xml, "request_xml")
    let options = try PopulateOptions(options)
    guard !options.queryGiven else {
        throw FeatureCacheError(.invalidArgument, "options->query must be NULL: the GetFeature document is the query")
    }
    let (clearCache, reporter) = (options.clearCache, options.reporter)
    return { (operation) async throws(FeatureCacheError) -> OperationValue in
        .features(try await table.populate(wfsXML: document, clearCache: clearCache, progress: reporter(operation)))
    }
}

@_cdecl("fc_wfs_table_populate_xml_start")
public func fcWFSTablePopulateXMLStart(
    _ table: OpaquePointer?, _ xml: UnsafePointer<CChar>?,
    _ options: UnsafePointer<fc_populate_options>?, _ callback: fc_operation_callback?,
    _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    startOperation(out, callback, userData) { () throws(FeatureCacheError) in try xmlPopulateWork(table, xml, options) }
}

@_cdecl("fc_wfs_table_populate_xml")
public func fcWFSTablePopulateXML(
    _ table: OpaquePointer?, _ xml: UnsafePointer<CChar>?,
    _ options: UnsafePointer<fc_populate_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let result = try runOperation("fc_wfs_table_populate_xml", \.features) { () throws(FeatureCacheError) in
            try xmlPopulateWork(table, xml, options)
        }
        out?.pointee = exportResult(result)
    }
}
