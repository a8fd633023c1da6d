// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// Queries of a table, answered by the cache or the service by its request mode:
// features, counts and extents, each as a _start operation and a blocking call.

/// Checks the table and query (the query once: the core is told it is valid)
/// and returns the work `answer` does with them.
private func queryWork(
    _ pointer: OpaquePointer?, _ query: OpaquePointer?,
    _ answer: @escaping @Sendable (FeatureTable, QueryParameters) async throws(FeatureCacheError) -> OperationValue
) throws(FeatureCacheError) -> @Sendable (COperation) async throws(FeatureCacheError) -> OperationValue {
    let table = try table(pointer).1
    let parameters = try queryParameters(query)
    try parameters.validate()
    return { (_) async throws(FeatureCacheError) -> OperationValue in try await answer(table, parameters) }
}

private let features: @Sendable (FeatureTable, QueryParameters) async throws(FeatureCacheError) -> OperationValue = {
    (table, query) async throws(FeatureCacheError) in
    .features(try await table.query(query, validated: true))
}
private let count: @Sendable (FeatureTable, QueryParameters) async throws(FeatureCacheError) -> OperationValue = {
    (table, query) async throws(FeatureCacheError) in
    .count(try await table.queryCount(query, validated: true))
}
private let extent: @Sendable (FeatureTable, QueryParameters) async throws(FeatureCacheError) -> OperationValue = {
    (table, query) async throws(FeatureCacheError) in
    .extent(try await table.queryExtent(query, validated: true), wkid: table.loadedMetadata?.spatialReference?.effectiveWkid ?? 0)
}

@_cdecl("fc_table_query_start")
public func fcTableQueryStart(
    _ table: OpaquePointer?, _ query: OpaquePointer?, _ callback: fc_operation_callback?,
    _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    startOperation(out, callback, userData) { () throws(FeatureCacheError) in try queryWork(table, query, features) }
}

@_cdecl("fc_table_query")
public func fcTableQuery(_ table: OpaquePointer?, _ query: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let result = try runOperation("fc_table_query", \.features) { () throws(FeatureCacheError) in try queryWork(table, query, features)
        }
        out.pointee = exportResult(result)
    }
}

@_cdecl("fc_table_query_count_start")
public func fcTableQueryCountStart(
    _ table: OpaquePointer?, _ query: OpaquePointer?, _ callback: fc_operation_callback?,
    _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    startOperation(out, callback, userData) { () throws(FeatureCacheError) in try queryWork(table, query, count) }
}

@_cdecl("fc_table_query_count")
public func fcTableQueryCount(_ table: OpaquePointer?, _ query: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    out?.pointee = -1
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = Int64(
            try runOperation("fc_table_query_count", \.count) { () throws(FeatureCacheError) in
                try queryWork(table, query, count)
            })
    }
}

@_cdecl("fc_table_query_extent_start")
public func fcTableQueryExtentStart(
    _ table: OpaquePointer?, _ query: OpaquePointer?, _ callback: fc_operation_callback?,
    _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    startOperation(out, callback, userData) { () throws(FeatureCacheError) in try queryWork(table, query, extent) }
}

@_cdecl("fc_table_query_extent")
public func fcTableQueryExtent(_ table: OpaquePointer?, _ query: OpaquePointer?, _ out: UnsafeMutablePointer<fc_envelope>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = fc_envelope(nil, wkid: 0)
        out.pointee = try runOperation("fc_table_query_extent", \.extent) { () throws(FeatureCacheError) in
            try queryWork(table, query, extent)
        }
    }
}
