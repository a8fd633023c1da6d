import CFeatureCacheABI
import FeatureCache

/// A WFS service handle and its service (the handle lends strings to C).
private func wfsService(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> (Handle, WFSService) {
    let handle = try Handles.borrow(pointer, [.wfsService], "service")
    guard let service = handle.object as? WFSService else { throw FeatureCacheError(.invalidArgument, "service is not a WFS service") }
    return (handle, service)
}

private func featureType(_ service: WFSService, _ index: Int32) throws(FeatureCacheError) -> WFSFeatureTypeInfo {
    try CArguments.element(service.featureTypes(), index, "feature type index")
}

@_cdecl("fc_wfs_service_create")
public func fcWFSServiceCreate(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?,
                               _ url: UnsafePointer<CChar>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let context = try context(ctx)
        let url = try CArguments.string(url, "service_url")
        out.pointee = Handles.export(Handle(.wfsService, try WFSService(url: url, context: context)))
    }
}

@_cdecl("fc_wfs_service_free")
public func fcWFSServiceFree(_ pointer: OpaquePointer?) {
    Handles.freeLoadable(pointer, .wfsService)
}

@_cdecl("fc_wfs_service_as_loadable")
public func fcWFSServiceAsLoadable(_ pointer: OpaquePointer?) -> OpaquePointer? { pointer }

@_cdecl("fc_wfs_service_title")
public func fcWFSServiceTitle(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, service) = try wfsService(pointer)
        let out = try CArguments.output(out)
        _ = try service.featureTypes()  // requires LOADED
        out.pointee = handle.borrowedCString(service.title)
    }
}

@_cdecl("fc_wfs_service_version")
public func fcWFSServiceVersion(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, service) = try wfsService(pointer)
        let out = try CArguments.output(out)
        _ = try service.featureTypes()
        out.pointee = handle.borrowedCString(service.version?.rawValue ?? "")
    }
}

@_cdecl("fc_wfs_service_feature_type_count")
public func fcWFSServiceFeatureTypeCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let service = try wfsService(pointer).1
        let out = try CArguments.output(out)
        out.pointee = Int32(clamping: try service.featureTypes().count)
    }
}

@_cdecl("fc_wfs_service_feature_type_name")
public func fcWFSServiceFeatureTypeName(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, service) = try wfsService(pointer)
        let out = try CArguments.output(out)
        out.pointee = handle.borrowedCString(try featureType(service, index).name)
    }
}

@_cdecl("fc_wfs_service_feature_type_title")
public func fcWFSServiceFeatureTypeTitle(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, service) = try wfsService(pointer)
        let out = try CArguments.output(out)
        out.pointee = handle.borrowedCString(try featureType(service, index).title)
    }
}

@_cdecl("fc_wfs_service_create_table")
public func fcWFSServiceCreateTable(_ pointer: OpaquePointer?, _ typeName: UnsafePointer<CChar>?,
                                    _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let service = try wfsService(pointer).1
        let name = try CArguments.string(typeName, "type_name")
        let out = try CArguments.output(out)
        out.pointee = Handles.export(Handle(.table, try FeatureTable.wfs(service: service, typeName: name)))
    }
}

// MARK: - WFS tables

@_cdecl("fc_table_create_wfs")
public func fcTableCreateWFS(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?,
                             _ url: UnsafePointer<CChar>?, _ typeName: UnsafePointer<CChar>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let context = try context(ctx)
        let url = try CArguments.string(url, "service_url")
        let name = try CArguments.string(typeName, "type_name")
        out.pointee = Handles.export(Handle(.table, try FeatureTable.wfs(url: url, typeName: name, context: context)))
    }
}

@_cdecl("fc_table_set_axis_order")
public func fcTableSetAxisOrder(_ pointer: OpaquePointer?, _ order: Int32) -> Int32 {
    status { () throws(FeatureCacheError) in
        try table(pointer).1.setAxisOrder(try CArguments.enumValue(order, AxisOrder.self, "axis order (FC_AXIS_ORDER_*)"), forFilters: false)
    }
}

@_cdecl("fc_table_axis_order")
public func fcTableAxisOrder(_ pointer: OpaquePointer?) -> Int32 {
    value(or: -1) { () throws(FeatureCacheError) in try table(pointer).1.axisOrder(forFilters: false).rawValue }
}

@_cdecl("fc_table_set_filter_axis_order")
public func fcTableSetFilterAxisOrder(_ pointer: OpaquePointer?, _ order: Int32) -> Int32 {
    status { () throws(FeatureCacheError) in
        try table(pointer).1.setAxisOrder(try CArguments.enumValue(order, AxisOrder.self, "axis order (FC_AXIS_ORDER_*)"), forFilters: true)
    }
}

@_cdecl("fc_table_filter_axis_order")
public func fcTableFilterAxisOrder(_ pointer: OpaquePointer?) -> Int32 {
    value(or: -1) { () throws(FeatureCacheError) in try table(pointer).1.axisOrder(forFilters: true).rawValue }
}

@_cdecl("fc_table_set_output_format")
public func fcTableSetOutputFormat(_ pointer: OpaquePointer?, _ format: UnsafePointer<CChar>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        try table(pointer).1.setOutputFormat(try CArguments.optionalString(format, "format"))
    }
}

@_cdecl("fc_table_output_format")
public func fcTableOutputFormat(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, table) = try table(pointer)
        let out = try CArguments.output(out)
        out.pointee = handle.borrowedCString(try table.outputFormat() ?? "")
    }
}

private func startXMLPopulate(_ pointer: OpaquePointer?, _ xml: UnsafePointer<CChar>?, _ clearCache: Bool,
                              completion: @escaping @Sendable (Result<FeatureResult, FeatureCacheError>) -> Void) throws(FeatureCacheError) -> FeatureOperation {
    let table = try table(pointer).1
    let document = try CArguments.string(xml, "request_xml")
    guard table.serviceKind == .wfs else {
        throw FeatureCacheError(.unsupported, "populating with a GetFeature document applies to WFS tables only")
    }
    return table.startPopulate(wfsXML: document, clearCache: clearCache, completion: completion)
}

@_cdecl("fc_table_populate_wfs_xml")
public func fcTablePopulateWFSXML(_ pointer: OpaquePointer?, _ xml: UnsafePointer<CChar>?, _ clearCache: Bool,
                                  _ callback: fc_result_callback?, _ userData: UnsafeMutableRawPointer?) -> Int32 {
    let callbacks = ResultCallbacks(progress: nil, result: callback, userData: userData)
    return status { () throws(FeatureCacheError) in
        _ = try startXMLPopulate(pointer, xml, clearCache) { outcome in callbacks.deliver(outcome) }
    }
}

@_cdecl("fc_table_populate_wfs_xml_wait")
public func fcTablePopulateWFSXMLWait(_ pointer: OpaquePointer?, _ xml: UnsafePointer<CChar>?, _ clearCache: Bool,
                                      _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    waitForResult(out, "fc_table_populate_wfs_xml_wait") { completion throws(FeatureCacheError) in
        try startXMLPopulate(pointer, xml, clearCache, completion: completion)
    }
}
