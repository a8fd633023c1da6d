// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

/// `fc_arrow_stream_options` as the library reads it: what the caller's
/// struct holds (it may be older and smaller), the defaults for the rest.
private struct ArrowStreamOptions {
    var query = QueryParameters()
    var prefetch = 2
    var batchRows = 0

    static var defaults: fc_arrow_stream_options {
        fc_arrow_stream_options(
            struct_size: UInt32(MemoryLayout<fc_arrow_stream_options>.size), query: nil, prefetch_pages: 2, batch_rows: 0)
    }

    init(_ pointer: UnsafePointer<fc_arrow_stream_options>?) throws(FeatureCacheError) {
        guard let pointer else { return }
        let size = try CArguments.versionedSize(pointer, fc_arrow_stream_options.self, "fc_arrow_stream_options")
        var options = Self.defaults
        CArguments.readVersioned(pointer, size: size, over: &options)
        query = try queryParameters(options.query)
        guard (1...64).contains(options.prefetch_pages) else {
            throw FeatureCacheError(.invalidArgument, "prefetch_pages must be 1 to 64 (got \(options.prefetch_pages))")
        }
        prefetch = Int(options.prefetch_pages)
        guard options.batch_rows >= 0, let rows = Int(exactly: options.batch_rows) else {
            throw FeatureCacheError(.invalidArgument, "batch_rows must be 0 (a batch per page) or positive (got \(options.batch_rows))")
        }
        batchRows = rows
    }
}

@_cdecl("fc_arrow_stream_options_init")
public func fcArrowStreamOptionsInit(_ options: UnsafeMutablePointer<fc_arrow_stream_options>?, _ structSize: Int) -> Int32 {
    status { () throws(FeatureCacheError) in
        try CArguments.initVersioned(options, structSize, defaults: ArrowStreamOptions.defaults, "fc_arrow_stream_options")
    }
}

@_cdecl("fc_table_open_arrow_stream")
public func fcTableOpenArrowStream(
    _ pointer: OpaquePointer?, _ options: UnsafePointer<fc_arrow_stream_options>?, _ out: UnsafeMutablePointer<ArrowArrayStream>?
) -> Int32 {
    status { () throws(FeatureCacheError) in
        let table = try table(pointer).1
        let options = try ArrowStreamOptions(options)
        let out = try CArguments.output(out)
        let stream = try FeatureStream(table, query: options.query, prefetch: options.prefetch, batchRows: options.batchRows)
        exportPageStream(stream, into: out)
    }
}
