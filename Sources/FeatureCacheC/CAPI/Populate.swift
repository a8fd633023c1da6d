// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

/// `fc_populate_options` as the library reads it: what the caller's struct holds
/// (it may be older and smaller), the defaults for the rest.
struct PopulateOptions {
    var query = QueryParameters()
    /// Whether the caller gave a query (NULL means every feature).
    var queryGiven = false
    var clearCache = true
    var resumable = false
    var progress: fc_progress_callback?
    var progressUserData = UserData(nil)

    static var defaults: fc_populate_options {
        fc_populate_options(
            struct_size: UInt32(MemoryLayout<fc_populate_options>.size), query: nil,
            clear_cache: true, progress: nil, progress_user_data: nil, resumable: false)
    }

    init(_ pointer: UnsafePointer<fc_populate_options>?) throws(FeatureCacheError) {
        guard let pointer else { return }
        let size = try CArguments.versionedSize(pointer, fc_populate_options.self, "fc_populate_options")
        var options = Self.defaults
        CArguments.readVersioned(pointer, size: size, over: &options)
        queryGiven = options.query != nil
        query = try queryParameters(options.query)
        try query.validate()
        clearCache = options.clear_cache
        resumable = options.resumable
        progress = options.progress
        progressUserData = UserData(options.progress_user_data)
    }

    /// The operation's progress reporter: kept by the operation, passed to the
    /// caller's progress callback when there is one.
    var reporter: @Sendable (COperation) -> PopulateProgress {
        let (callback, userData) = (progress, progressUserData)
        return { operation in operation.progressReporter(callback, userData) }
    }
}

@_cdecl("fc_populate_options_init")
public func fcPopulateOptionsInit(_ options: UnsafeMutablePointer<fc_populate_options>?, _ structSize: Int) -> Int32 {
    status { () throws(FeatureCacheError) in
        try CArguments.initVersioned(options, structSize, defaults: PopulateOptions.defaults, "fc_populate_options")
    }
}

/// The work of a populate: checks everything the caller passed before it starts.
private func populateWork(
    _ pointer: OpaquePointer?, _ options: UnsafePointer<fc_populate_options>?
) throws(FeatureCacheError) -> @Sendable (COperation) async throws(FeatureCacheError) -> OperationValue {
    let table = try table(pointer).1
    let options = try PopulateOptions(options)
    let (query, clearCache, resumable, reporter) = (options.query, options.clearCache, options.resumable, options.reporter)
    return { (operation) async throws(FeatureCacheError) -> OperationValue in
        .features(
            try await table.populate(query, clearCache: clearCache, progress: reporter(operation), validated: true, resumable: resumable))
    }
}

@_cdecl("fc_table_populate_start")
public func fcTablePopulateStart(
    _ table: OpaquePointer?, _ options: UnsafePointer<fc_populate_options>?,
    _ callback: fc_operation_callback?, _ userData: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    startOperation(out, callback, userData) { () throws(FeatureCacheError) in try populateWork(table, options) }
}

@_cdecl("fc_table_populate")
public func fcTablePopulate(
    _ table: OpaquePointer?, _ options: UnsafePointer<fc_populate_options>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let result = try runOperation("fc_table_populate", \.features) { () throws(FeatureCacheError) in try populateWork(table, options) }
        out?.pointee = exportResult(result)
    }
}

@_cdecl("fc_table_cached_feature_count")
public func fcTableCachedFeatureCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = Int64(try table(pointer).1.cachedFeatureCount)
    }
}

@_cdecl("fc_table_cached_bytes")
public func fcTableCachedBytes(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = Int64(try table(pointer).1.cachedByteSize)
    }
}

@_cdecl("fc_table_clear_cache")
public func fcTableClearCache(_ pointer: OpaquePointer?) -> Int32 {
    status { () throws(FeatureCacheError) in try table(pointer).1.clearCache() }
}
