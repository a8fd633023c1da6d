// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

/// What an `fc_query` handle holds: query parameters that C may change while
/// other threads read them.
final class QueryBox: Sendable {
    let parameters: Locked<QueryParameters>
    init(_ parameters: QueryParameters = QueryParameters()) { self.parameters = Locked(parameters) }
}

/// The parameters of a query handle; NULL = the default query.
func queryParameters(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> QueryParameters {
    guard pointer != nil else { return QueryParameters() }
    return try Handles.borrow(pointer, .query, as: QueryBox.self, "query").parameters.withLock { $0 }
}

private func update(_ pointer: OpaquePointer?, _ change: (inout QueryParameters) throws(FeatureCacheError) -> Void) -> Int32 {
    status { () throws(FeatureCacheError) in
        let box = try Handles.borrow(pointer, .query, as: QueryBox.self, "query")
        try box.parameters.withLock { parameters throws(FeatureCacheError) in try change(&parameters) }
    }
}

/// "a, b,c" → ["a", "b", "c"]; nil for NULL, "" or "*".
func fieldList(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(FeatureCacheError) -> [String]? {
    guard let text = try CArguments.optionalString(pointer, name) else { return nil }
    let names = text.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }
    return names.isEmpty || names.contains("*") ? nil : names
}

@_cdecl("fc_query_create")
public func fcQueryCreate(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        try CArguments.output(out).pointee = Handles.export(Handle(.query, QueryBox()))
    }
}

@_cdecl("fc_query_copy")
public func fcQueryCopy(_ query: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        guard query != nil else { throw FeatureCacheError(.invalidArgument, "query is NULL") }
        out.pointee = Handles.export(Handle(.query, QueryBox(try queryParameters(query))))
    }
}

@_cdecl("fc_query_free")
public func fcQueryFree(_ query: OpaquePointer?) {
    _ = Handles.take(query, .query)
}

@_cdecl("fc_query_set_where")
public func fcQuerySetWhere(_ query: OpaquePointer?, _ whereClause: UnsafePointer<CChar>?) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        var changed = parameters
        changed.whereClause = try CArguments.optionalString(whereClause, "where_clause") ?? ""
        try changed.validate()
        parameters = changed
    }
}

@_cdecl("fc_query_set_envelope")
public func fcQuerySetEnvelope(_ query: OpaquePointer?, _ envelope: UnsafePointer<fc_envelope>?) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        guard let e = envelope?.pointee else { parameters.geometry = nil; return }
        guard e.wkid >= 0 else {
            throw FeatureCacheError(.invalidArgument, "the envelope's wkid must be >= 0 (0 = the table's), not \(e.wkid)")
        }
        guard e.xmin.isFinite, e.ymin.isFinite, e.xmax.isFinite, e.ymax.isFinite, e.xmin <= e.xmax, e.ymin <= e.ymax else {
            throw FeatureCacheError(.invalidArgument, "the envelope is empty or not finite (\(e.xmin), \(e.ymin), \(e.xmax), \(e.ymax))")
        }
        parameters.geometry = .envelope(
            Envelope(
                xmin: e.xmin, ymin: e.ymin, xmax: e.xmax, ymax: e.ymax,
                spatialReference: e.wkid == 0 ? nil : SpatialReference(wkid: e.wkid)))
    }
}

@_cdecl("fc_query_set_geometry_wkb")
public func fcQuerySetGeometryWKB(_ query: OpaquePointer?, _ wkb: UnsafePointer<UInt8>?, _ length: Int, _ wkid: Int32) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        guard let wkb else { throw FeatureCacheError(.invalidArgument, "wkb is NULL") }
        guard wkid >= 0 else { throw FeatureCacheError(.invalidArgument, "wkid must be >= 0 (0 = the table's), not \(wkid)") }
        let geometry = try WKBReader.parse(UnsafeRawBufferPointer(start: wkb, count: length))
        guard geometry.envelope != nil else { throw FeatureCacheError(.invalidArgument, "the WKB geometry is empty") }
        parameters.geometry = .geometry(geometry, wkid: wkid)
    }
}

@_cdecl("fc_query_set_spatial_relationship")
public func fcQuerySetSpatialRelationship(_ query: OpaquePointer?, _ relationship: Int32) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        parameters.spatialRelationship = try CArguments.enumValue(
            relationship, SpatialRelationship.self, "spatial relationship (FC_SPATIAL_REL_*)")
    }
}

@_cdecl("fc_query_set_relation_parameter")
public func fcQuerySetRelationParameter(_ query: OpaquePointer?, _ pattern: UnsafePointer<CChar>?) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        let text = try CArguments.optionalString(pattern, "pattern") ?? ""
        guard text.isEmpty || (text.count == 9 && text.allSatisfy({ "TF*012".contains($0) })) else {
            throw FeatureCacheError(.invalidArgument, "'\(text)' is not a DE-9IM pattern (9 of T F * 0 1 2)")
        }
        parameters.relationParameter = text
    }
}

@_cdecl("fc_query_set_out_fields")
public func fcQuerySetOutFields(_ query: OpaquePointer?, _ outFields: UnsafePointer<CChar>?) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        parameters.outFields = try fieldList(outFields, "out_fields")
    }
}

@_cdecl("fc_query_set_return_geometry")
public func fcQuerySetReturnGeometry(_ query: OpaquePointer?, _ yes: Bool) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in parameters.returnGeometry = yes }
}

@_cdecl("fc_query_set_max_features")
public func fcQuerySetMaxFeatures(_ query: OpaquePointer?, _ n: Int64) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        guard n >= 0 else { throw FeatureCacheError(.invalidArgument, "max features must not be negative (got \(n))") }
        parameters.maxFeatures = Int(n)
    }
}

@_cdecl("fc_query_set_result_offset")
public func fcQuerySetResultOffset(_ query: OpaquePointer?, _ n: Int64) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        guard n >= 0 else { throw FeatureCacheError(.invalidArgument, "result offset must not be negative (got \(n))") }
        parameters.resultOffset = Int(n)
    }
}

@_cdecl("fc_query_set_object_ids")
public func fcQuerySetObjectIds(_ query: OpaquePointer?, _ ids: UnsafePointer<Int64>?, _ n: Int) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        guard n == 0 || ids != nil else { throw FeatureCacheError(.invalidArgument, "ids is NULL") }
        parameters.objectIds = n == 0 ? [] : Array(UnsafeBufferPointer(start: ids, count: n))
    }
}

@_cdecl("fc_query_set_max_allowable_offset")
public func fcQuerySetMaxAllowableOffset(_ query: OpaquePointer?, _ distance: Double) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        guard distance >= 0, distance.isFinite else {
            throw FeatureCacheError(.invalidArgument, "the max allowable offset must be a finite distance of 0 or more (got \(distance))")
        }
        parameters.maxAllowableOffset = distance
    }
}

@_cdecl("fc_query_set_out_spatial_reference")
public func fcQuerySetOutSpatialReference(_ query: OpaquePointer?, _ wkid: Int32) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        guard wkid >= 0 else { throw FeatureCacheError(.invalidArgument, "a wkid must be 0 (the table's) or positive (got \(wkid))") }
        parameters.outWkid = wkid
    }
}

@_cdecl("fc_query_set_order_by")
public func fcQuerySetOrderBy(_ query: OpaquePointer?, _ orderBy: UnsafePointer<CChar>?) -> Int32 {
    update(query) { (parameters: inout QueryParameters) throws(FeatureCacheError) in
        let text = try CArguments.optionalString(orderBy, "order_by") ?? ""
        guard !CArguments.hasControlCharacters(text) else {
            throw FeatureCacheError(.invalidArgument, "order_by contains a control character")
        }
        parameters.orderBy = text
    }
}
