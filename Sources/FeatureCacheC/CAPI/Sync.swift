// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// fc_table_synchronize: the pending edits up, the service's changes down.

/// `fc_sync_options` as the library reads it.
private struct CSyncOptions {
    var upload = true
    var options = ApplyOptions()
    var progress: fc_progress_callback?
    var progressUserData = UserData(nil)

    static var defaults: fc_sync_options {
        fc_sync_options(
            struct_size: UInt32(MemoryLayout<fc_sync_options>.size), upload: true, rollback_on_failure: true, progress: nil,
            progress_user_data: nil)
    }

    init(_ pointer: UnsafePointer<fc_sync_options>?) throws(FeatureCacheError) {
        guard let pointer else { return }
        let size = try CArguments.versionedSize(pointer, fc_sync_options.self, "fc_sync_options")
        var given = Self.defaults
        CArguments.readVersioned(pointer, size: size, over: &given)
        upload = given.upload
        options.rollbackOnFailure = given.rollback_on_failure
        progress = given.progress
        progressUserData = UserData(given.progress_user_data)
    }
}

extension fc_sync_result {
    init(_ report: SyncReport) {
        self.init(
            struct_size: UInt32(MemoryLayout<fc_sync_result>.size), method: report.method.rawValue,
            uploaded: Int64(report.uploaded), refused: Int64(report.refused), conflicts: Int64(report.conflicts.count),
            added: Int64(report.added), updated: Int64(report.updated), deleted: Int64(report.deleted),
            features_received: Int64(report.featuresReceived))
    }
}

@_cdecl("fc_sync_options_init")
public func fcSyncOptionsInit(_ options: UnsafeMutablePointer<fc_sync_options>?, _ structSize: Int) -> Int32 {
    status { () throws(FeatureCacheError) in
        try CArguments.initVersioned(options, structSize, defaults: CSyncOptions.defaults, "fc_sync_options")
    }
}

private func syncWork(
    _ pointer: OpaquePointer?, _ options: UnsafePointer<fc_sync_options>?
) throws(FeatureCacheError) -> @Sendable (COperation) async throws(FeatureCacheError) -> OperationValue {
    let table = try table(pointer).1
    let given = try CSyncOptions(options)
    let (upload, settings, callback, userData) = (given.upload, given.options, given.progress, given.progressUserData)
    return { (operation) async throws(FeatureCacheError) -> OperationValue in
        let report = await table.synchronize(
            upload: upload, options: settings, progress: operation.progressReporter(callback, userData))
        guard let error = report.error else { return .sync(report) }
        operation.keepPartial(.sync(report))  // read although the synchronize failed
        throw error
    }
}

/// Copies `report` into the caller's (possibly older) `fc_sync_result`.
private func copy(_ report: SyncReport, to out: UnsafeMutablePointer<fc_sync_result>) throws(FeatureCacheError) {
    let size = try CArguments.versionedSize(UnsafeRawPointer(out), fc_sync_result.self, "fc_sync_result")
    var full = fc_sync_result(report)
    CArguments.copyVersioned(&full, to: UnsafeMutableRawPointer(out), size: size)
}

@_cdecl("fc_table_synchronize_start")
public func fcTableSynchronizeStart(
    _ table: OpaquePointer?, _ options: UnsafePointer<fc_sync_options>?,
    _ callback: fc_operation_callback?, _ userData: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    startOperation(out, callback, userData) { () throws(FeatureCacheError) in try syncWork(table, options) }
}

@_cdecl("fc_table_synchronize")
public func fcTableSynchronize(
    _ table: OpaquePointer?, _ options: UnsafePointer<fc_sync_options>?, _ out: UnsafeMutablePointer<fc_sync_result>?
) -> Int32 {
    status { () throws(FeatureCacheError) in
        if let out { _ = try CArguments.versionedSize(UnsafeRawPointer(out), fc_sync_result.self, "fc_sync_result") }
        let report = try runOperation(
            "fc_table_synchronize", \.sync, partial: { report in if let out { try? copy(report, to: out) } }
        ) { () throws(FeatureCacheError) in try syncWork(table, options) }
        if let out { try copy(report, to: out) }
    }
}

@_cdecl("fc_operation_get_sync_result")
public func fcOperationGetSyncResult(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<fc_sync_result>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        _ = try CArguments.versionedSize(UnsafeRawPointer(out), fc_sync_result.self, "fc_sync_result")
        let report = try operation(pointer).take(
            \.sync, wrongKind: "the operation is not a synchronize (fc_table_synchronize_start)", partialToo: true)
        try copy(report, to: out)
    }
}
