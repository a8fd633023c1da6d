// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

private func result(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> (Handle, FeatureResult) {
    let handle = try Handles.borrow(pointer, .result, "result")
    return (handle, unsafeDowncast(handle.object, to: FeatureResult.self))  // a result handle holds one
}

/// An owned result handle for a C receiver.
func exportResult(_ result: FeatureResult) -> OpaquePointer {
    Handles.export(Handle(.result, result))
}

@_cdecl("fc_result_free")
public func fcResultFree(_ pointer: OpaquePointer?) {
    _ = Handles.take(pointer, .result)
}

@_cdecl("fc_result_count")
public func fcResultCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in Int64(try result(pointer).1.count) }
}

@_cdecl("fc_result_limit_exceeded")
public func fcResultLimitExceeded(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try result(pointer).1.limitExceeded }
}

@_cdecl("fc_result_is_complete")
public func fcResultIsComplete(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try result(pointer).1.isComplete }
}

@_cdecl("fc_result_wkid")
public func fcResultWkid(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try result(pointer).1.spatialReference?.effectiveWkid ?? 0 }
}

@_cdecl("fc_result_field_count")
public func fcResultFieldCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in Int32(try result(pointer).1.fields.count) }
}

private func field(_ result: FeatureResult, _ col: Int32) throws(FeatureCacheError) -> FieldInfo {
    try CArguments.element(result.fields, col, "column")
}

@_cdecl("fc_result_field_name")
public func fcResultFieldName(_ pointer: OpaquePointer?, _ col: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in
        let (handle, result) = try result(pointer)
        return handle.borrowedCString(try field(result, col).name)
    }
}

@_cdecl("fc_result_field_type")
public func fcResultFieldType(_ pointer: OpaquePointer?, _ col: Int32, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try field(try result(pointer).1, col).type.rawValue }
}

@_cdecl("fc_result_field_index")
public func fcResultFieldIndex(_ pointer: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in
        let result = try result(pointer).1
        return Int32(result.fieldIndex(named: try CArguments.string(name, "name")) ?? -1)
    }
}

@_cdecl("fc_result_is_null")
public func fcResultIsNull(_ pointer: OpaquePointer?, _ row: Int64, _ col: Int32, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try result(pointer).1.isNull(Int(row), Int(col)) }
}

@_cdecl("fc_result_get_int64")
public func fcResultGetInt64(_ pointer: OpaquePointer?, _ row: Int64, _ col: Int32, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try result(pointer).1.int64(Int(row), Int(col)) }
}

@_cdecl("fc_result_get_double")
public func fcResultGetDouble(_ pointer: OpaquePointer?, _ row: Int64, _ col: Int32, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try result(pointer).1.double(Int(row), Int(col)) }
}

@_cdecl("fc_result_get_string")
public func fcResultGetString(
    _ pointer: OpaquePointer?, _ row: Int64, _ col: Int32,
    _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try result(pointer).1.cString(Int(row), Int(col)) }
}

@_cdecl("fc_result_object_id")
public func fcResultObjectId(_ pointer: OpaquePointer?, _ row: Int64, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try result(pointer).1.objectId(Int(row)) }
}

@_cdecl("fc_result_geometry_wkb")
public func fcResultGeometryWKB(
    _ pointer: OpaquePointer?, _ row: Int64, _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
    _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let length = try CArguments.output(length, "length")
        let wkb = try result(pointer).1.wkb(Int(row))
        out.pointee = wkb.isEmpty ? nil : wkb.baseAddress?.assumingMemoryBound(to: UInt8.self)
        length.pointee = wkb.count
    }
}

@_cdecl("fc_result_to_geojson")
public func fcResultToGeoJSON(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    out?.pointee = nil
    return output(out) { () throws(FeatureCacheError) in try CArguments.ownedString(try result(pointer).1.geoJSON()) }
}

@_cdecl("fc_result_get_arrow_stream")
public func fcResultGetArrowStream(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<ArrowArrayStream>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        exportStream(ArrowExport(try result(pointer).1), into: out)
    }
}
