// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// fc_wfs_table: what only WFS feature types have — axis orders, the output
// format, and populating with a complete GetFeature document.

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
