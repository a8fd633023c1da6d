// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// Definition expressions, cache budgets, statistics, views and change callbacks.

@_cdecl("fc_table_set_definition_expression")
public func fcTableSetDefinitionExpression(_ pointer: OpaquePointer?, _ text: UnsafePointer<CChar>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        try table(pointer).1.setDefinitionExpression(try CArguments.optionalString(text, "where") ?? "")
    }
}

@_cdecl("fc_table_definition_expression")
public func fcTableDefinitionExpression(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    out?.pointee = nil
    return output(out) { () throws(FeatureCacheError) in
        try CArguments.ownedString(try table(pointer).1.definitionExpression)
    }
}

@_cdecl("fc_table_set_cache_budget")
public func fcTableSetCacheBudget(_ pointer: OpaquePointer?, _ bytes: Int64) -> Int32 {
    status { () throws(FeatureCacheError) in try table(pointer).1.setCacheBudget(Int(bytes)) }
}

@_cdecl("fc_table_cache_budget")
public func fcTableCacheBudget(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in Int64(try table(pointer).1.cacheBudget) }
}

@_cdecl("fc_table_get_statistics")
public func fcTableGetStatistics(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<fc_table_statistics>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let size = try CArguments.versionedSize(UnsafeRawPointer(out), fc_table_statistics.self, "fc_table_statistics")
        let s = try table(pointer).1.statisticsSnapshot
        var full = fc_table_statistics(
            struct_size: UInt32(size), requests: Int64(s.requests), bytes_received: Int64(s.bytesReceived),
            features_received: Int64(s.featuresReceived), queries_local: Int64(s.queriesLocal),
            queries_server: Int64(s.queriesServer), tiles_covered: Int64(s.tilesCovered), tiles_fetched: Int64(s.tilesFetched),
            tile_failures: Int64(s.tileFailures), evictions: Int64(s.evictions),
            server_filters_ignored: Int64(s.serverFiltersIgnored), next_links_repaired: Int64(s.nextLinksRepaired),
            retries: Int64(s.retries), format_fallbacks: Int64(s.formatFallbacks), tiles_revalidated: Int64(s.tilesRevalidated))
        CArguments.copyVersioned(&full, to: UnsafeMutableRawPointer(out), size: size)
    }
}

@_cdecl("fc_table_reset_statistics")
public func fcTableResetStatistics(_ pointer: OpaquePointer?) -> Int32 {
    status { () throws(FeatureCacheError) in try table(pointer).1.resetStatistics() }
}

// MARK: - Layers

@_cdecl("fc_layer_set_definition_expression")
public func fcLayerSetDefinitionExpression(_ pointer: OpaquePointer?, _ text: UnsafePointer<CChar>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        try layer(pointer).setDefinitionExpression(try CArguments.optionalString(text, "where") ?? "")
    }
}

/// A C features-changed callback, carried to a library thread.
private struct ChangedCallback: @unchecked Sendable {
    let callback: fc_features_changed_callback
    let layer: OpaquePointer
    let userData: UnsafeMutableRawPointer?
}

@_cdecl("fc_layer_set_features_changed_callback")
public func fcLayerSetFeaturesChangedCallback(
    _ pointer: OpaquePointer?, _ callback: fc_features_changed_callback?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    status { () throws(FeatureCacheError) in
        let layer = try layer(pointer)
        guard let callback, let pointer else {
            layer.setFeaturesChangedHandler(nil)
            return
        }
        let carried = ChangedCallback(callback: callback, layer: pointer, userData: userData)
        layer.setFeaturesChangedHandler { count in carried.callback(carried.layer, Int64(count), carried.userData) }
    }
}

// MARK: - Maps

@_cdecl("fc_map_set_visible_extent")
public func fcMapSetVisibleExtent(_ pointer: OpaquePointer?, _ extent: UnsafePointer<fc_envelope>?, _ scale: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        let map = try map(pointer)
        guard let e = extent?.pointee else { throw FeatureCacheError(.invalidArgument, "extent is NULL") }
        guard e.wkid >= 0 else {
            throw FeatureCacheError(.invalidArgument, "the extent's wkid must be >= 0 (0 = the tables'), not \(e.wkid)")
        }
        try map.setVisibleExtent(
            Envelope(
                xmin: e.xmin, ymin: e.ymin, xmax: e.xmax, ymax: e.ymax,
                spatialReference: e.wkid == 0 ? nil : SpatialReference(wkid: e.wkid)), scale: scale)
    }
}

@_cdecl("fc_map_wait_idle")
public func fcMapWaitIdle(_ pointer: OpaquePointer?, _ timeout: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        guard !timeout.isNaN else { throw FeatureCacheError(.invalidArgument, "timeout_seconds is NaN") }
        guard try map(pointer).waitIdle(timeout: timeout) else {
            throw FeatureCacheError(.timeout, "the map's fetches did not finish within \(timeout) s")
        }
    }
}

@_cdecl("fc_map_set_buffer_factor")
public func fcMapSetBufferFactor(_ pointer: OpaquePointer?, _ factor: Double) -> Int32 {
    status { () throws(FeatureCacheError) in try map(pointer).setBufferFactor(factor) }
}

@_cdecl("fc_map_buffer_factor")
public func fcMapBufferFactor(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try map(pointer).bufferFactor }
}
