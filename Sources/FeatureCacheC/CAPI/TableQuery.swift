import CFeatureCacheABI
import FeatureCache

// Queries of a table, answered by the cache or the service by its request mode.

private func startQuery(_ pointer: OpaquePointer?, _ query: OpaquePointer?,
                        completion: @escaping @Sendable (Result<FeatureResult, FeatureCacheError>) -> Void) throws(FeatureCacheError) -> FeatureOperation {
    let table = try table(pointer).1
    let parameters = try queryParameters(query)
    try parameters.validate()
    return FeatureOperation({ () async throws(FeatureCacheError) -> FeatureResult in try await table.query(parameters) },
                            completion: completion)
}

@_cdecl("fc_table_query")
public func fcTableQuery(_ table: OpaquePointer?, _ query: OpaquePointer?, _ callback: fc_result_callback?,
                         _ userData: UnsafeMutableRawPointer?) -> Int32 {
    fcTableQueryStart(table, query, callback, userData, nil)
}

@_cdecl("fc_table_query_start")
public func fcTableQueryStart(_ table: OpaquePointer?, _ query: OpaquePointer?, _ callback: fc_result_callback?,
                              _ userData: UnsafeMutableRawPointer?, _ outOperation: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    outOperation?.pointee = nil
    let callbacks = ResultCallbacks(progress: nil, result: callback, userData: userData)
    return status { () throws(FeatureCacheError) in
        let operation = try startQuery(table, query) { outcome in callbacks.deliver(outcome) }
        outOperation?.pointee = Handles.export(Handle(.operation, operation))
    }
}

@_cdecl("fc_table_query_wait")
public func fcTableQueryWait(_ table: OpaquePointer?, _ query: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    waitForResult(out, "fc_table_query_wait") { completion throws(FeatureCacheError) in
        try startQuery(table, query, completion: completion)
    }
}

/// Runs `work` on a library thread and blocks for its value.
private func blocking<T: Sendable>(_ name: String, _ work: @escaping @Sendable () async throws(FeatureCacheError) -> T) throws(FeatureCacheError) -> T {
    try CallbackScope.checkMayBlock(name)
    let outcome = Locked<Result<T, FeatureCacheError>?>(nil)
    let operation = FeatureOperation(work) { result in outcome.withLock { $0 = result } }
    _ = try operation.wait()
    return try outcome.withLock { $0 }!.get()
}

@_cdecl("fc_table_query_count")
public func fcTableQueryCount(_ pointer: OpaquePointer?, _ query: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    out?.pointee = -1
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let table = try table(pointer).1
        let parameters = try queryParameters(query)
        try parameters.validate()
        out.pointee = Int64(try blocking("fc_table_query_count") { () async throws(FeatureCacheError) -> Int in
            try await table.queryCount(parameters)
        })
    }
}

@_cdecl("fc_table_query_extent")
public func fcTableQueryExtent(_ pointer: OpaquePointer?, _ query: OpaquePointer?, _ out: UnsafeMutablePointer<fc_envelope>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = fc_envelope(xmin: .nan, ymin: .nan, xmax: .nan, ymax: .nan, wkid: 0)
        let table = try table(pointer).1
        let parameters = try queryParameters(query)
        try parameters.validate()
        let extent = try blocking("fc_table_query_extent") { () async throws(FeatureCacheError) -> Envelope? in
            try await table.queryExtent(parameters)
        }
        if let extent {
            out.pointee = fc_envelope(xmin: extent.xmin, ymin: extent.ymin, xmax: extent.xmax, ymax: extent.ymax,
                                      wkid: extent.spatialReference?.effectiveWkid ?? 0)
        } else {
            out.pointee.wkid = table.loadedMetadata?.spatialReference?.effectiveWkid ?? 0
        }
    }
}
