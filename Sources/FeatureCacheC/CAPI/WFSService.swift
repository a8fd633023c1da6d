// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// fc_wfs_service: a WFS endpoint, its negotiated version and feature types.

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
