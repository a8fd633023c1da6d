// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// fc_service: any kind of service, opened from its URL alone; fc_table_open, a
// table of one (the same opener).

private func service(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> (Handle, FeatureService) {
    try ServiceHandles.borrow(pointer, .service, as: FeatureService.self)
}

private func item(_ pointer: OpaquePointer?, _ index: Int32) throws(FeatureCacheError) -> (Handle, ServiceItem) {
    let (handle, service) = try service(pointer)
    return (handle, try CArguments.element(service.items, index, "item index"))
}

/// A string of item `index`, borrowed from the service's handle.
private func itemString(
    _ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ text: (ServiceItem) -> String
) -> Int32 {
    borrowedOutput(out) { () throws(FeatureCacheError) in
        let (handle, item) = try item(pointer, index)
        return (handle, text(item))
    }
}

/// The context and URL of an open from a URL alone, checked before any work starts.
private func openArguments(
    _ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?
) throws(FeatureCacheError) -> (ClientContext, String) {
    let context = try context(ctx)
    let url = try CArguments.string(url, "url")
    _ = try RequestURL(parsing: url)
    return (context, url)
}

/// The work of opening a service, its arguments checked first.
private func openWork(
    _ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?
) throws(FeatureCacheError) -> @Sendable (COperation) async throws(FeatureCacheError) -> OperationValue {
    let (context, url) = try openArguments(ctx, url)
    return { (_) async throws(FeatureCacheError) -> OperationValue in
        .service(try await FeatureService.open(url: url, context: context))
    }
}

/// The work of opening a table from any URL, its arguments checked first.
private func tableOpenWork(
    _ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ name: UnsafePointer<CChar>?
) throws(FeatureCacheError) -> @Sendable (COperation) async throws(FeatureCacheError) -> OperationValue {
    let (context, url) = try openArguments(ctx, url)
    let name = try CArguments.optionalString(name, "name")
    return { (_) async throws(FeatureCacheError) -> OperationValue in
        .table(try await FeatureTable.open(url: url, name: name, context: context))
    }
}

@_cdecl("fc_service_open_start")
public func fcServiceOpenStart(
    _ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ callback: fc_operation_callback?,
    _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    startOperation(out, callback, userData) { () throws(FeatureCacheError) in try openWork(ctx, url) }
}

@_cdecl("fc_service_open")
public func fcServiceOpen(_ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let opened = try runOperation("fc_service_open", \.service) { () throws(FeatureCacheError) in try openWork(ctx, url) }
        out.pointee = Handles.export(Handle(.service, opened))
    }
}

@_cdecl("fc_service_free")
public func fcServiceFree(_ pointer: OpaquePointer?) {
    _ = Handles.take(pointer, .service)
}

@_cdecl("fc_service_kind")
public func fcServiceKind(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try service(pointer).1.kind.rawValue }
}

@_cdecl("fc_service_title")
public func fcServiceTitle(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    borrowedOutput(out) { () throws(FeatureCacheError) in
        let (handle, service) = try service(pointer)
        return (handle, service.title)
    }
}

@_cdecl("fc_service_item_count")
public func fcServiceItemCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in Int32(clamping: try service(pointer).1.items.count) }
}

@_cdecl("fc_service_item_id")
public func fcServiceItemId(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    itemString(pointer, index, out) { $0.id }
}

@_cdecl("fc_service_item_name")
public func fcServiceItemName(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    itemString(pointer, index, out) { $0.name }
}

@_cdecl("fc_service_item_geometry_type")
public func fcServiceItemGeometryType(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try item(pointer, index).1.geometryType.rawValue }
}

@_cdecl("fc_service_create_table")
public func fcServiceCreateTable(
    _ pointer: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    tableOutput(out) { () throws(FeatureCacheError) in
        try service(pointer).1.table(try CArguments.optionalString(name, "name"))
    }
}

// fc_table_open: a table from any kind of URL, through the same opener.

@_cdecl("fc_table_open_start")
public func fcTableOpenStart(
    _ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ name: UnsafePointer<CChar>?,
    _ callback: fc_operation_callback?, _ userData: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    startOperation(out, callback, userData) { () throws(FeatureCacheError) in try tableOpenWork(ctx, url, name) }
}

@_cdecl("fc_table_open")
public func fcTableOpen(
    _ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ name: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let table = try runOperation("fc_table_open", \.table) { () throws(FeatureCacheError) in try tableOpenWork(ctx, url, name) }
        out.pointee = Handles.export(Handle(.table, table))
    }
}
