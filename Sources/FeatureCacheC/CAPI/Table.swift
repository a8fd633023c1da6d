// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

/// A table handle and its table (the handle lends strings to C).
func table(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> (Handle, FeatureTable) {
    let handle = try Handles.borrow(pointer, .table, "table")
    guard let table = handle.object as? FeatureTable else { throw FeatureCacheError(.invalidArgument, "table is not a table") }
    return (handle, table)
}

/// The names C gives each kind of table's protocol view (kinds without one,
/// such as documents, by their own name).
private func viewName(_ kind: ServiceKind, _ kindName: String) -> String {
    switch kind {
    case .arcgis: "an ArcGIS table (fc_arcgis_table)"
    case .ogcFeatures: "an OGC API table (fc_ogc_table)"
    case .wfs: "a WFS table (fc_wfs_table)"
    default: "a \(kindName) table"
    }
}

private func mismatch(_ kind: ServiceKind, _ table: FeatureTable) -> String {
    "the table is not \(viewName(kind, "")): it reads \(viewName(table.serviceKind, table.serviceKindName))"
}

/// A protocol view of a table (`fc_wfs_table *` and friends are the table's own
/// handle): the table, checked to be of `kind`.
func table(_ pointer: OpaquePointer?, of kind: ServiceKind) throws(FeatureCacheError) -> (Handle, FeatureTable) {
    let (handle, table) = try table(pointer)
    guard table.serviceKind == kind else {
        throw FeatureCacheError(.invalidArgument, mismatch(kind, table))
    }
    return (handle, table)
}

/// `fc_table_as_*`: the table's protocol view, or FC_E_UNSUPPORTED for another kind.
func tableView(_ pointer: OpaquePointer?, _ kind: ServiceKind, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let table = try table(pointer).1
        guard table.serviceKind == kind else {
            throw FeatureCacheError(.unsupported, mismatch(kind, table))
        }
        out.pointee = pointer
    }
}

/// Runs a metadata getter: checks the table (of `kind`, when given) and `out`,
/// requires LOADED.
func metadataGetter<T>(
    _ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<T>?, of kind: ServiceKind? = nil,
    _ body: (Handle, TableMetadata) throws(FeatureCacheError) -> T
) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, checked) = if let kind { try table(pointer, of: kind) } else { try table(pointer) }
        let out = try CArguments.output(out)
        let metadata = try checked.metadata()
        out.pointee = try body(handle, metadata)
    }
}

private func field(_ metadata: TableMetadata, _ index: Int32) throws(FeatureCacheError) -> FieldInfo {
    try CArguments.element(metadata.fields, index, "field index")
}

@_cdecl("fc_table_free")
public func fcTableFree(_ table: OpaquePointer?) {
    // The caller is done: the persisted cache is saved and its folder let go now,
    // not when the last internal reference goes.
    if let pointer = table, let handle = try? Handles.borrow(pointer, .table, "table"), let object = handle.object as? FeatureTable {
        removeChangeObservers(of: handle, object)
        object.closePersistedCache()
    }
    Handles.freeLoadable(table, .table)
}

@_cdecl("fc_table_as_loadable")
public func fcTableAsLoadable(_ table: OpaquePointer?) -> OpaquePointer? { table }

@_cdecl("fc_table_set_request_mode")
public func fcTableSetRequestMode(_ pointer: OpaquePointer?, _ mode: Int32) -> Int32 {
    status { () throws(FeatureCacheError) in
        let table = try table(pointer).1
        try table.setRequestMode(try CArguments.enumValue(mode, FeatureRequestMode.self, "request mode (FC_REQUEST_MODE_*)"))
    }
}

@_cdecl("fc_table_name")
public func fcTableName(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    metadataGetter(pointer, out) { handle, metadata in handle.borrowedCString(metadata.name) }
}

@_cdecl("fc_table_description")
public func fcTableDescription(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    metadataGetter(pointer, out) { handle, metadata in handle.borrowedCString(metadata.description) }
}

@_cdecl("fc_table_field_count")
public func fcTableFieldCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata in Int32(metadata.fields.count) }
}

@_cdecl("fc_table_field_name")
public func fcTableFieldName(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    metadataGetter(pointer, out) { handle, metadata throws(FeatureCacheError) in handle.borrowedCString(try field(metadata, index).name) }
}

@_cdecl("fc_table_field_alias")
public func fcTableFieldAlias(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    metadataGetter(pointer, out) { handle, metadata throws(FeatureCacheError) in handle.borrowedCString(try field(metadata, index).alias) }
}

@_cdecl("fc_table_field_type")
public func fcTableFieldType(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata throws(FeatureCacheError) in try field(metadata, index).type.rawValue }
}

@_cdecl("fc_table_field_nullable")
public func fcTableFieldNullable(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata throws(FeatureCacheError) in try field(metadata, index).nullable }
}

@_cdecl("fc_table_field_length")
public func fcTableFieldLength(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata throws(FeatureCacheError) in try field(metadata, index).length }
}

@_cdecl("fc_table_field_index")
public func fcTableFieldIndex(_ pointer: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata throws(FeatureCacheError) in
        let name = try CArguments.string(name, "name").lowercased()
        return Int32(metadata.fields.firstIndex { $0.name.lowercased() == name } ?? -1)
    }
}

@_cdecl("fc_table_geometry_type")
public func fcTableGeometryType(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata in metadata.geometryType.rawValue }
}

@_cdecl("fc_table_has_z")
public func fcTableHasZ(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata in metadata.hasZ }
}

@_cdecl("fc_table_has_m")
public func fcTableHasM(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata in metadata.hasM }
}

@_cdecl("fc_table_spatial_reference")
public func fcTableSpatialReference(
    _ pointer: OpaquePointer?, _ outWkid: UnsafeMutablePointer<Int32>?,
    _ outLatest: UnsafeMutablePointer<Int32>?
) -> Int32 {
    status { () throws(FeatureCacheError) in
        let metadata = try table(pointer).1.metadata()
        outWkid?.pointee = metadata.spatialReference?.wkid ?? 0
        outLatest?.pointee = metadata.spatialReference?.latestWkid ?? 0
    }
}

@_cdecl("fc_table_spatial_reference_definition")
public func fcTableSpatialReferenceDefinition(
    _ pointer: OpaquePointer?, _ format: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    metadataGetter(pointer, out) { (handle, metadata) throws(FeatureCacheError) in
        let format = try CArguments.enumValue(format, CRSFormat.self, "CRS format (FC_CRS_FORMAT_*)")
        return handle.borrowedCString(try FeatureTable.spatialReferenceDefinition(metadata, format))
    }
}

@_cdecl("fc_table_extent")
public func fcTableExtent(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<fc_envelope>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata throws(FeatureCacheError) in
        guard let extent = metadata.extent, extent.isValid else {
            throw FeatureCacheError(.unsupported, "the service gives no extent for this layer (or an empty one)")
        }
        let wkid = extent.spatialReference?.effectiveWkid ?? metadata.spatialReference?.effectiveWkid ?? 0
        return fc_envelope(xmin: extent.xmin, ymin: extent.ymin, xmax: extent.xmax, ymax: extent.ymax, wkid: wkid)
    }
}

@_cdecl("fc_table_object_id_field")
public func fcTableObjectIdField(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    metadataGetter(pointer, out) { handle, metadata in handle.borrowedCString(metadata.objectIdField ?? "") }
}

@_cdecl("fc_table_display_field")
public func fcTableDisplayField(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    metadataGetter(pointer, out) { handle, metadata in handle.borrowedCString(metadata.displayField) }
}

@_cdecl("fc_table_max_record_count")
public func fcTableMaxRecordCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata in Int64(metadata.maxRecordCount) }
}

@_cdecl("fc_table_min_scale")
public func fcTableMinScale(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata in metadata.minScale }
}

@_cdecl("fc_table_max_scale")
public func fcTableMaxScale(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    metadataGetter(pointer, out) { _, metadata in metadata.maxScale }
}

@_cdecl("fc_table_set_spatial_reference")
public func fcTableSetSpatialReference(_ pointer: OpaquePointer?, _ wkid: Int32) -> Int32 {
    status { () throws(FeatureCacheError) in try table(pointer).1.setSpatialReference(wkid) }
}

@_cdecl("fc_table_set_page_size")
public func fcTableSetPageSize(_ pointer: OpaquePointer?, _ size: Int32) -> Int32 {
    status { () throws(FeatureCacheError) in try table(pointer).1.setPageSize(Int(size)) }
}

@_cdecl("fc_table_service_kind")
public func fcTableServiceKind(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try table(pointer).1.serviceKind.rawValue
    }
}

@_cdecl("fc_table_url")
public func fcTableURL(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let (handle, table) = try table(pointer)
        out.pointee = handle.borrowedCString(table.url)
    }
}

@_cdecl("fc_table_request_mode")
public func fcTableRequestMode(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try table(pointer).1.requestMode.rawValue
    }
}
