// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

/// The context behind a C pointer: NULL is the process-wide default.
func context(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> ClientContext {
    guard pointer != nil else { return .shared }
    return try Handles.borrow(pointer, .context, as: ClientContext.self, "ctx")
}

@_cdecl("fc_context_create")
public func fcContextCreate(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = Handles.export(Handle(.context, ClientContext()))
    }
}

@_cdecl("fc_context_free")
public func fcContextFree(_ ctx: OpaquePointer?) {
    guard let handle = Handles.take(ctx, .context), let context = handle.object as? ClientContext else { return }
    setRequestObserver(of: context, nil)
}

// fc_context_set_request_observer: every HTTP exchange, told when it ends.

private struct RequestCallback: @unchecked Sendable {
    let function: fc_request_callback
    let userData: UnsafeMutableRawPointer?
}

/// The token of the observer set through the C API, per context.
private let requestObserverTokens = Locked<[ObjectIdentifier: UInt64]>([:])

private func setRequestObserver(of context: ClientContext, _ callback: RequestCallback?) {
    let token: UInt64? = callback.map { callback in
        context.addRequestObserver { record in
            record.method.withCString { method in
                record.url.withCString { url in
                    (record.error?.message ?? "").withCString { message in
                        var info = fc_request_info(
                            struct_size: UInt32(MemoryLayout<fc_request_info>.size), method: method, url: url,
                            http_status: Int32(clamping: record.httpStatus), attempt: Int32(clamping: record.attempt),
                            bytes: record.bytes, seconds: record.seconds,
                            status: record.error.map { $0.code.rawValue } ?? 0, message: record.error == nil ? nil : message)
                        callback.function(&info, callback.userData)
                    }
                }
            }
        }
    }
    let previous = requestObserverTokens.withLock { tokens in
        defer { tokens[ObjectIdentifier(context)] = token }
        return tokens[ObjectIdentifier(context)]
    }
    if let previous { context.removeRequestObserver(previous) }
}

@_cdecl("fc_context_set_request_observer")
public func fcContextSetRequestObserver(
    _ ctx: OpaquePointer?, _ callback: fc_request_callback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    status { () throws(FeatureCacheError) in
        setRequestObserver(of: try context(ctx), callback.map { RequestCallback(function: $0, userData: userData) })
    }
}

@_cdecl("fc_context_set_timeouts")
public func fcContextSetTimeouts(_ ctx: OpaquePointer?, _ connect: Double, _ total: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        let connect = try CArguments.finite(connect, "connect_seconds")
        let total = try CArguments.finite(total, "total_seconds")
        guard connect > 0 else { throw FeatureCacheError(.invalidArgument, "connect_seconds must be > 0") }
        try context.updateSettings { settings throws(FeatureCacheError) in
            settings.connectTimeout = connect
            settings.totalTimeout = total
        }
    }
}

@_cdecl("fc_context_set_max_connections_per_host")
public func fcContextSetMaxConnectionsPerHost(_ ctx: OpaquePointer?, _ count: Int32) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        guard (1...256).contains(count) else {
            throw FeatureCacheError(.invalidArgument, "count must be 1..256 (got \(count))")
        }
        try context.updateSettings { settings throws(FeatureCacheError) in settings.maxConnectionsPerHost = Int(count) }
    }
}

@_cdecl("fc_context_set_max_response_bytes")
public func fcContextSetMaxResponseBytes(_ ctx: OpaquePointer?, _ bytes: Int64) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        guard bytes >= 0 else { throw FeatureCacheError(.invalidArgument, "bytes must be >= 0 (got \(bytes))") }
        try context.updateSettings { settings throws(FeatureCacheError) in settings.maxResponseBytes = bytes }
    }
}

@_cdecl("fc_context_set_user_agent")
public func fcContextSetUserAgent(_ ctx: OpaquePointer?, _ userAgent: UnsafePointer<CChar>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        let agent = try CArguments.string(userAgent, "user_agent")
        guard !agent.isEmpty, !CArguments.hasControlCharacters(agent) else {
            throw FeatureCacheError(.invalidArgument, "user_agent must be non-empty, without control characters")
        }
        try context.updateSettings { settings throws(FeatureCacheError) in settings.userAgent = agent }
    }
}

@_cdecl("fc_context_set_header")
public func fcContextSetHeader(_ ctx: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        let name = try CArguments.string(name, "name")
        let value = try CArguments.string(value, "value")
        guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.value <= 0x20 || $0 == ":" || $0.value >= 0x7F }) else {
            throw FeatureCacheError(.invalidArgument, "header name '\(name)' must be a non-empty token without ':' or white space")
        }
        guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            throw FeatureCacheError(.invalidArgument, "header value must not contain CR or LF")
        }
        try context.updateSettings { settings throws(FeatureCacheError) in
            settings.headers.removeAll { $0.name.lowercased() == name.lowercased() }
            settings.headers.append((name, value))
        }
    }
}

@_cdecl("fc_context_clear_headers")
public func fcContextClearHeaders(_ ctx: OpaquePointer?) -> Int32 {
    status { () throws(FeatureCacheError) in
        try context(ctx).updateSettings { settings throws(FeatureCacheError) in settings.headers.removeAll() }
    }
}

@_cdecl("fc_context_set_token")
public func fcContextSetToken(_ ctx: OpaquePointer?, _ token: UnsafePointer<CChar>?, _ placement: Int32) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        let token = try CArguments.optionalString(token, "token")
        let placement = try CArguments.enumValue(placement, TokenPlacement.self, "token placement (FC_TOKEN_AS_*)")
        if let token, CArguments.hasControlCharacters(token) {
            throw FeatureCacheError(.invalidArgument, "token must not contain control characters")
        }
        try context.updateSettings { settings throws(FeatureCacheError) in
            settings.token = (token?.isEmpty ?? true) ? nil : token
            settings.tokenPlacement = placement
        }
    }
}

// MARK: - TLS, retries, low speed, bounded work (issue 13)

/// A readable file or directory given by the caller, or nil to reset.
private func readablePath(_ pointer: UnsafePointer<CChar>?, _ name: String, directory: Bool) throws(FeatureCacheError) -> String? {
    guard let path = try CArguments.optionalString(pointer, name) else { return nil }
    var info = stat()
    guard !path.isEmpty, stat(path, &info) == 0, access(path, R_OK) == 0,
        (info.st_mode & S_IFMT == S_IFDIR) == directory
    else {
        throw FeatureCacheError(.invalidArgument, "\(name) '\(path)' is not a readable \(directory ? "directory" : "file")")
    }
    return path
}

@_cdecl("fc_context_set_ca_file")
public func fcContextSetCAFile(_ ctx: OpaquePointer?, _ file: UnsafePointer<CChar>?) -> Int32 {
    setTrustedCertificates(ctx, file, "pem_file", directory: false, \.caFile)
}

@_cdecl("fc_context_set_ca_path")
public func fcContextSetCAPath(_ ctx: OpaquePointer?, _ directory: UnsafePointer<CChar>?) -> Int32 {
    setTrustedCertificates(ctx, directory, "directory", directory: true, \.caPath)
}

private func setTrustedCertificates(
    _ ctx: OpaquePointer?, _ pointer: UnsafePointer<CChar>?, _ name: String, directory: Bool,
    _ setting: WritableKeyPath<ClientSettings, String?>
) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        let path = try readablePath(pointer, name, directory: directory)
        try context.updateSettings { settings throws(FeatureCacheError) in settings[keyPath: setting] = path }
    }
}

@_cdecl("fc_context_set_retry_policy")
public func fcContextSetRetryPolicy(_ ctx: OpaquePointer?, _ attempts: Int32, _ base: Double, _ maximum: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        let base = try CArguments.finite(base, "base_delay_seconds")
        let maximum = try CArguments.finite(maximum, "max_delay_seconds")
        guard (1...100).contains(attempts) else {
            throw FeatureCacheError(.invalidArgument, "max_attempts must be 1..100 (got \(attempts))")
        }
        guard base >= 0, maximum >= base else {
            throw FeatureCacheError(
                .invalidArgument, "delays must satisfy 0 <= base_delay_seconds <= max_delay_seconds (got \(base), \(maximum))")
        }
        try context.updateSettings { settings throws(FeatureCacheError) in
            settings.retry.maxAttempts = Int(attempts)
            settings.retry.baseDelay = base
            settings.retry.maxDelay = maximum
        }
    }
}

@_cdecl("fc_context_set_low_speed_limit")
public func fcContextSetLowSpeedLimit(_ ctx: OpaquePointer?, _ bytesPerSecond: Int64, _ seconds: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        let seconds = try CArguments.finite(seconds, "seconds")
        guard bytesPerSecond >= 1, bytesPerSecond <= Int64(Int32.max), seconds >= 1, seconds <= 86_400 else {
            throw FeatureCacheError(
                .invalidArgument,
                "the low-speed limit needs bytes_per_second >= 1 and 1 <= seconds <= 86400 (got \(bytesPerSecond), \(seconds))")
        }
        try context.updateSettings { settings throws(FeatureCacheError) in
            settings.lowSpeedBytesPerSecond = Int(bytesPerSecond)
            settings.lowSpeedWindow = seconds
        }
    }
}

@_cdecl("fc_context_get_work_limits")
public func fcContextGetWorkLimits(_ ctx: OpaquePointer?, _ out: UnsafeMutablePointer<fc_work_limits>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let size = try CArguments.versionedSize(UnsafeRawPointer(out), fc_work_limits.self, "fc_work_limits")
        let settings = try context(ctx).settings
        var full = fc_work_limits(
            struct_size: UInt32(size), max_tiles_per_view: Int64(settings.limits.maxTilesPerView),
            max_requests_per_view: Int64(settings.limits.maxRequestsPerView),
            max_pages_per_operation: Int64(settings.limits.maxPagesPerOperation),
            max_features_per_operation: Int64(settings.limits.maxFeaturesPerOperation),
            max_buffered_bytes: settings.maxBufferedBytes)
        CArguments.copyVersioned(&full, to: UnsafeMutableRawPointer(out), size: size)
    }
}

@_cdecl("fc_context_set_work_limits")
public func fcContextSetWorkLimits(_ ctx: OpaquePointer?, _ limits: UnsafePointer<fc_work_limits>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let context = try context(ctx)
        guard let limits else { throw FeatureCacheError(.invalidArgument, "limits must not be NULL") }
        let size = try CArguments.versionedSize(UnsafeRawPointer(limits), fc_work_limits.self, "fc_work_limits")
        guard size <= MemoryLayout<fc_work_limits>.size else {
            throw FeatureCacheError(
                .invalidArgument,
                "limits->struct_size \(size) is larger than this library's fc_work_limits (\(MemoryLayout<fc_work_limits>.size))")
        }
        // Fields past the caller's struct_size keep their current values.
        let current = context.settings
        var merged = fc_work_limits(
            struct_size: UInt32(MemoryLayout<fc_work_limits>.size), max_tiles_per_view: Int64(current.limits.maxTilesPerView),
            max_requests_per_view: Int64(current.limits.maxRequestsPerView),
            max_pages_per_operation: Int64(current.limits.maxPagesPerOperation),
            max_features_per_operation: Int64(current.limits.maxFeaturesPerOperation), max_buffered_bytes: current.maxBufferedBytes)
        CArguments.readVersioned(limits, size: size, over: &merged)
        guard merged.max_buffered_bytes >= 0 else { throw FeatureCacheError(.invalidArgument, "max_buffered_bytes must be >= 0") }
        func count(_ value: Int64) -> Int { Int(clamping: value) }
        var updated = WorkLimits()
        updated.maxTilesPerView = count(merged.max_tiles_per_view)
        updated.maxRequestsPerView = count(merged.max_requests_per_view)
        updated.maxPagesPerOperation = count(merged.max_pages_per_operation)
        updated.maxFeaturesPerOperation = count(merged.max_features_per_operation)
        let validated = try updated.validated()
        try context.updateSettings { settings throws(FeatureCacheError) in
            settings.limits = validated
            settings.maxBufferedBytes = merged.max_buffered_bytes
        }
    }
}
