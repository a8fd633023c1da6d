// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// fc_ogc_service: an OGC API landing page, its collections and conformance.

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
