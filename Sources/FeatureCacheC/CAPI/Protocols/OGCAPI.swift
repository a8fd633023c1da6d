// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// The OGC API-named C functions: fc_ogc_service, fc_table_create_ogc and
// fc_ogc_table (what only OGC API - Features collections have).
//
// The header gives each of these as the older spelling of a generic call
// (fc_service_*, fc_table_open, fc_table_get_option / fc_table_set_option):
// exported and unchanged for 1.x callers; the table functions forward to the
// generic call.

private func ogcService(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> (Handle, OGCService) {
    try ServiceHandles.borrow(pointer, .ogcService, as: OGCService.self)
}

/// Collection `index` of a loaded service, and the handle that lends its strings.
private func collection(_ pointer: OpaquePointer?, _ index: Int32) throws(FeatureCacheError) -> (Handle, OGCCollectionSummary) {
    let (handle, service) = try ogcService(pointer)
    return (handle, try CArguments.element(service.collections(), index, "collection index"))
}

@_cdecl("fc_ogc_service_create")
public func fcOGCServiceCreate(_ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    ServiceHandles.create(ctx, url, "api_url", out, .ogcService) { (url, context) throws(FeatureCacheError) in
        try OGCService(url: url, context: context)
    }
}

@_cdecl("fc_ogc_service_free")
public func fcOGCServiceFree(_ pointer: OpaquePointer?) { Handles.freeLoadable(pointer, .ogcService) }

@_cdecl("fc_ogc_service_as_loadable")
public func fcOGCServiceAsLoadable(_ pointer: OpaquePointer?) -> OpaquePointer? { pointer }

@_cdecl("fc_ogc_service_title")
public func fcOGCServiceTitle(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    borrowedOutput(out) { () throws(FeatureCacheError) in
        let (handle, service) = try ogcService(pointer)
        _ = try service.collections()  // requires LOADED
        return (handle, service.title)
    }
}

@_cdecl("fc_ogc_service_collection_count")
public func fcOGCServiceCollectionCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in Int32(clamping: try ogcService(pointer).1.collections().count) }
}

@_cdecl("fc_ogc_service_collection_id")
public func fcOGCServiceCollectionId(
    _ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    borrowedOutput(out) { () throws(FeatureCacheError) in
        let (handle, item) = try collection(pointer, index)
        return (handle, item.id)
    }
}

@_cdecl("fc_ogc_service_collection_title")
public func fcOGCServiceCollectionTitle(
    _ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    borrowedOutput(out) { () throws(FeatureCacheError) in
        let (handle, item) = try collection(pointer, index)
        return (handle, item.title)
    }
}

@_cdecl("fc_ogc_service_conforms_to")
public func fcOGCServiceConformsTo(_ pointer: OpaquePointer?, _ suffix: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Bool>?) -> Int32
{
    output(out) { () throws(FeatureCacheError) in
        let service = try ogcService(pointer).1
        let suffix = try CArguments.string(suffix, "class_suffix")
        return try service.conformance().contains { $0.hasSuffix(suffix) }
    }
}

@_cdecl("fc_ogc_service_create_table")
public func fcOGCServiceCreateTable(
    _ pointer: OpaquePointer?, _ collectionId: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    tableOutput(out) { () throws(FeatureCacheError) in
        try FeatureTable.ogc(service: try ogcService(pointer).1, collectionId: try CArguments.string(collectionId, "collection_id"))
    }
}

@_cdecl("fc_table_create_ogc")
public func fcTableCreateOGC(
    _ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ collectionId: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    tableOutput(out) { () throws(FeatureCacheError) in
        let context = try context(ctx)
        let url = try CArguments.string(url, "api_url")
        return try FeatureTable.ogc(apiURL: url, collectionId: try CArguments.string(collectionId, "collection_id"), context: context)
    }
}

@_cdecl("fc_table_as_ogc")
public func fcTableAsOGC(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    tableView(pointer, .ogcFeatures, out)
}

@_cdecl("fc_ogc_table_set_query_language")
public func fcOGCTableSetQueryLanguage(_ pointer: OpaquePointer?, _ language: Int32) -> Int32 {
    status { () throws(FeatureCacheError) in
        let table = try table(pointer, of: .ogcFeatures).1
        try table.setQueryLanguage(try CArguments.enumValue(language, QueryLanguage.self, "query language (FC_QUERY_LANGUAGE_*)"))
    }
}

@_cdecl("fc_ogc_table_query_language")
public func fcOGCTableQueryLanguage(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try table(pointer, of: .ogcFeatures).1.queryLanguage.rawValue
    }
}
