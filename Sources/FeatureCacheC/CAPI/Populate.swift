import CFeatureCacheABI
import Dispatch
import FeatureCache

/// C callbacks and their user data, carried to a library thread.
struct ResultCallbacks: @unchecked Sendable {
    let progress: fc_progress_callback?
    let result: fc_result_callback?
    let userData: UnsafeMutableRawPointer?

    func report(_ pages: Int, _ features: Int) {
        progress?(Int64(pages), Int64(features), userData)
    }

    func deliver(_ outcome: Result<FeatureResult, FeatureCacheError>) {
        guard let result else { return }
        switch outcome {
        case let .success(features):
            result(exportResult(features), nil, userData)
        case let .failure(error):
            let box = ErrorBox(error)
            withExtendedLifetime(box) { result(nil, box.pointer, userData) }
        }
    }
}

/// Checks the arguments and starts the populate; errors in the arguments are
/// returned at once, everything later goes to the completion.
private func startPopulate(_ pointer: OpaquePointer?, _ query: OpaquePointer?, _ clearCache: Bool,
                           _ outFields: UnsafePointer<CChar>?, progress: PopulateProgress?,
                           completion: @escaping @Sendable (Result<FeatureResult, FeatureCacheError>) -> Void) throws(FeatureCacheError) -> FeatureOperation {
    let table = try table(pointer).1
    let parameters = try queryParameters(query)
    try parameters.validate()
    let fields = try fieldList(outFields, "out_fields")
    return table.startPopulate(parameters, clearCache: clearCache, outFields: fields, progress: progress, completion: completion)
}

@_cdecl("fc_table_populate")
public func fcTablePopulate(_ table: OpaquePointer?, _ query: OpaquePointer?, _ clearCache: Bool, _ outFields: UnsafePointer<CChar>?,
                            _ callback: fc_result_callback?, _ userData: UnsafeMutableRawPointer?) -> Int32 {
    fcTablePopulateStart(table, query, clearCache, outFields, nil, callback, userData, nil)
}

@_cdecl("fc_table_populate_start")
public func fcTablePopulateStart(_ table: OpaquePointer?, _ query: OpaquePointer?, _ clearCache: Bool, _ outFields: UnsafePointer<CChar>?,
                                 _ progress: fc_progress_callback?, _ callback: fc_result_callback?, _ userData: UnsafeMutableRawPointer?,
                                 _ outOperation: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    outOperation?.pointee = nil
    let callbacks = ResultCallbacks(progress: progress, result: callback, userData: userData)
    let report: PopulateProgress? = progress == nil ? nil : { @Sendable pages, features in callbacks.report(pages, features) }
    let deliver: @Sendable (Result<FeatureResult, FeatureCacheError>) -> Void = { outcome in callbacks.deliver(outcome) }
    return status { () throws(FeatureCacheError) in
        let operation = try startPopulate(table, query, clearCache, outFields, progress: report, completion: deliver)
        outOperation?.pointee = Handles.export(Handle(.operation, operation))
    }
}

@_cdecl("fc_table_populate_wait")
public func fcTablePopulateWait(_ table: OpaquePointer?, _ query: OpaquePointer?, _ clearCache: Bool, _ outFields: UnsafePointer<CChar>?,
                                _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    waitForResult(out, "fc_table_populate_wait") { completion throws(FeatureCacheError) in
        try startPopulate(table, query, clearCache, outFields, progress: nil, completion: completion)
    }
}

/// Runs an operation to its end on the calling thread and exports its result
/// into `*out`; the operation's error is returned.
func waitForResult(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ name: String,
                   _ start: (@escaping @Sendable (Result<FeatureResult, FeatureCacheError>) -> Void) throws(FeatureCacheError) -> FeatureOperation) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        try CallbackScope.checkMayBlock(name)
        let outcome = Locked<Result<FeatureResult, FeatureCacheError>?>(nil)
        let operation = try start { result in outcome.withLock { $0 = result } }
        _ = try operation.wait()
        switch outcome.withLock({ $0 })! {
        case let .success(result): out.pointee = exportResult(result)
        case let .failure(error): throw error
        }
    }
}

private func operation(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> FeatureOperation {
    try Handles.borrow(pointer, .operation, as: FeatureOperation.self, "operation")
}

@_cdecl("fc_operation_cancel")
public func fcOperationCancel(_ pointer: OpaquePointer?) -> Int32 {
    status { () throws(FeatureCacheError) in try operation(pointer).cancel() }
}

@_cdecl("fc_operation_wait")
public func fcOperationWait(_ pointer: OpaquePointer?, _ timeout: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        guard !timeout.isNaN else { throw FeatureCacheError(.invalidArgument, "timeout_seconds is NaN") }
        guard try operation(pointer).wait(timeout: timeout) else {
            throw FeatureCacheError(.timeout, "the operation did not finish within \(timeout) s")
        }
    }
}

@_cdecl("fc_operation_is_finished")
public func fcOperationIsFinished(_ pointer: OpaquePointer?) -> Bool {
    value(or: false) { () throws(FeatureCacheError) in try operation(pointer).isFinished }
}

@_cdecl("fc_operation_free")
public func fcOperationFree(_ pointer: OpaquePointer?) {
    _ = Handles.take(pointer, .operation)
}

@_cdecl("fc_table_cached_feature_count")
public func fcTableCachedFeatureCount(_ pointer: OpaquePointer?) -> Int64 {
    value(or: -1) { () throws(FeatureCacheError) in Int64(try table(pointer).1.cachedFeatureCount) }
}

@_cdecl("fc_table_cached_bytes")
public func fcTableCachedBytes(_ pointer: OpaquePointer?) -> Int64 {
    value(or: -1) { () throws(FeatureCacheError) in Int64(try table(pointer).1.store.byteSize) }
}

@_cdecl("fc_table_clear_cache")
public func fcTableClearCache(_ pointer: OpaquePointer?) -> Int32 {
    status { () throws(FeatureCacheError) in try table(pointer).1.clearCache() }
}
