// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

private func wfsService(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> (Handle, WFSService) {
    try ServiceHandles.borrow(pointer, .wfsService, as: WFSService.self)
}

private func featureType(_ service: WFSService, _ index: Int32) throws(FeatureCacheError) -> WFSFeatureTypeInfo {
    try CArguments.element(service.featureTypes(), index, "feature type index")
}

@_cdecl("fc_wfs_service_create")
public func fcWFSServiceCreate(_ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?,
                               _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    ServiceHandles.create(ctx, url, "service_url", out, .wfsService) { (url, context) throws(FeatureCacheError) in
        try WFSService(url: url, context: context)
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
public func fcTableCreateWFS(_ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ typeName: UnsafePointer<CChar>?,
                             _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let context = try context(ctx)
        let url = try CArguments.string(url, "service_url")
        let name = try CArguments.string(typeName, "type_name")
        out.pointee = Handles.export(Handle(.table, try FeatureTable.wfs(url: url, typeName: name, context: context)))
    }
}
