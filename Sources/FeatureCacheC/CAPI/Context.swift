import FeatureCache

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
    _ = Handles.take(ctx, .context)
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
