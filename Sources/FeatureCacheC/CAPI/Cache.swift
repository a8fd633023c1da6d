// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// The persistent cache: include/featurecache.h, "Persistent cache".

@_cdecl("fc_context_set_cache_folder")
public func fcContextSetCacheFolder(_ ctx: OpaquePointer?, _ folder: UnsafePointer<CChar>?, _ timeToLive: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        let path = try folder.map { (text) throws(FeatureCacheError) in try CArguments.string(text, "folder") }
        if let path, path.isEmpty || CArguments.hasControlCharacters(path) {
            throw FeatureCacheError(.invalidArgument, "folder must be a non-empty path without control characters (or NULL)")
        }
        guard timeToLive >= 0 else { throw FeatureCacheError(.invalidArgument, "time_to_live_seconds must be >= 0 (got \(timeToLive))") }
        try context.updateSettings { settings throws(FeatureCacheError) in
            settings.cacheFolder = path
            settings.cacheTimeToLive = timeToLive
        }
    }
}

@_cdecl("fc_context_set_cache_disk_budget")
public func fcContextSetCacheDiskBudget(_ ctx: OpaquePointer?, _ bytes: Int64) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        guard bytes >= 0, bytes <= Int64(Int.max) else { throw FeatureCacheError(.invalidArgument, "bytes must be >= 0 (got \(bytes))") }
        try context.updateSettings { settings throws(FeatureCacheError) in settings.cacheDiskBudget = Int(bytes) }
    }
}

@_cdecl("fc_context_set_cache_lock_wait")
public func fcContextSetCacheLockWait(_ ctx: OpaquePointer?, _ seconds: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        guard seconds >= 0, seconds.isFinite else {
            throw FeatureCacheError(.invalidArgument, "the lock wait must be a finite number of seconds >= 0 (got \(seconds))")
        }
        try context.updateSettings { settings throws(FeatureCacheError) in settings.cacheLockWait = seconds }
    }
}

@_cdecl("fc_table_flush_cache")
public func fcTableFlushCache(_ pointer: OpaquePointer?) -> Int32 {
    status { () throws(FeatureCacheError) in
        _ = try runOperation("fc_table_flush_cache", \.count) { () throws(FeatureCacheError) in
            let table = try table(pointer).1
            return { (_) async throws(FeatureCacheError) -> OperationValue in
                try await table.flushCacheNow()
                return .count(0)
            }
        }
    }
}

@_cdecl("fc_table_set_background_revalidation")
public func fcTableSetBackgroundRevalidation(_ pointer: OpaquePointer?, _ background: Bool) -> Int32 {
    status { () throws(FeatureCacheError) in try table(pointer).1.setBackgroundRevalidation(background) }
}

@_cdecl("fc_table_set_cache_folder")
public func fcTableSetCacheFolder(_ pointer: OpaquePointer?, _ folder: UnsafePointer<CChar>?, _ timeToLive: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (_, table) = try table(pointer)
        let path = try folder.map { (text) throws(FeatureCacheError) in try CArguments.string(text, "folder") }
        if let path, path.isEmpty || CArguments.hasControlCharacters(path) {
            throw FeatureCacheError(.invalidArgument, "folder must be a non-empty path without control characters (or NULL)")
        }
        guard !timeToLive.isNaN else { throw FeatureCacheError(.invalidArgument, "time_to_live_seconds is NaN") }
        try table.setCacheFolder(path, timeToLive: timeToLive < 0 ? nil : timeToLive)
    }
}

@_cdecl("fc_table_get_cache_info")
public func fcTableGetCacheInfo(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<fc_cache_info>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let size = try CArguments.versionedSize(UnsafeRawPointer(out), fc_cache_info.self, "fc_cache_info")
        let (handle, table) = try table(pointer)
        let info = table.cacheInfo
        var full = fc_cache_info(
            struct_size: UInt32(size), folder: info.folder.map { handle.borrowedCString($0) },
            read_only: info.isReadOnly ? 1 : 0, offline: info.isOffline ? 1 : 0, revalidation: info.revalidation.rawValue,
            last_save_status: info.lastSaveError?.code.rawValue ?? 0, saved_at: info.savedAt,
            restored_features: Int64(info.restoredFeatures), restored_edits: Int64(info.restoredEdits),
            bytes_on_disk: Int64(info.bytesOnDisk), set_aside: info.setAside.map { handle.borrowedCString($0) },
            synchronized_added: Int64(info.synchronized.added), synchronized_updated: Int64(info.synchronized.updated),
            synchronized_deleted: Int64(info.synchronized.deleted), segments: Int64(info.segments),
            segments_in_memory: Int64(info.segmentsInMemory), segment_reads: Int64(info.segmentReads),
            segment_evictions: Int64(info.segmentEvictions), lost_features: Int64(info.lostFeatures))
        CArguments.copyVersioned(&full, to: UnsafeMutableRawPointer(out), size: size)
    }
}

// fc_table_open_cached: a table a cache folder holds, opened again.

private func openCachedWork(
    _ ctx: OpaquePointer?, _ folder: UnsafePointer<CChar>?
) throws(FeatureCacheError) -> @Sendable (COperation) async throws(FeatureCacheError) -> OperationValue {
    let context = try context(ctx)
    let path = try CArguments.string(folder, "table_folder")
    if path.isEmpty || CArguments.hasControlCharacters(path) {
        throw FeatureCacheError(.invalidArgument, "table_folder must be a non-empty path without control characters")
    }
    return { (_) async throws(FeatureCacheError) -> OperationValue in
        .table(try await FeatureTable.openCached(folder: path, context: context))
    }
}

@_cdecl("fc_table_open_cached_start")
public func fcTableOpenCachedStart(
    _ ctx: OpaquePointer?, _ folder: UnsafePointer<CChar>?, _ callback: fc_operation_callback?,
    _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    startOperation(out, callback, userData) { () throws(FeatureCacheError) in try openCachedWork(ctx, folder) }
}

@_cdecl("fc_table_open_cached")
public func fcTableOpenCached(
    _ ctx: OpaquePointer?, _ folder: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let table = try runOperation("fc_table_open_cached", \.table) { () throws(FeatureCacheError) in
            try openCachedWork(ctx, folder)
        }
        out.pointee = Handles.export(Handle(.table, table))
    }
}
