// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The state behind a streamed query's `ArrowArrayStream`
/// (`fc_table_open_arrow_stream`): the `FeatureStream` reading the service,
/// the schema (the first page's export), the first page until it is taken,
/// and the last error. Arrow streams are used by one thread at a time;
/// the mutex makes misuse harmless rather than a data race.
private final class PageStreamState: Sendable {
    struct Cursor {
        var schema: ArrowExport?
        /// The first page, exported to decide the schema, until get_next takes it.
        var first: ArrowExport?
        /// The stream ended before its first page: no batch follows the schema.
        var empty = false
    }
    let stream: FeatureStream
    let cursor = Mutex(Cursor())
    let lastError = ArrowStreamLastError()

    init(_ stream: FeatureStream) { self.stream = stream }

    deinit { stream.cancel() }

    func fail(_ message: String, _ code: Int32) -> Int32 { lastError.fail(message, code) }

    /// The Arrow errno of a library error, with its text as get_last_error gives it.
    func fail(_ error: FeatureCacheError) -> Int32 {
        let code: Int32
        switch error.code {
        case .network, .timeout, .http, .service, .parse, .protocol: code = EIO
        case .cancelled: code = ECANCELED
        case .limit: code = EOVERFLOW
        default: code = EINVAL
        }
        let name = statusNames[error.code.rawValue].map { "\($0)" } ?? "FC_E_\(error.code.rawValue)"
        return fail("\(name): \(error.message)", code)
    }

    /// The schema, waiting for the first page to decide it.
    func schema() throws(FeatureCacheError) -> ArrowExport {
        try cursor.withLock { (state) throws(FeatureCacheError) -> ArrowExport in
            if let schema = state.schema { return schema }
            if let page = try stream.next() {
                let export = ArrowExport(page)
                state.schema = export
                state.first = export
                return export
            }
            guard let empty = stream.emptyResult() else {
                throw FeatureCacheError(.invalidState, "the stream ended before its table loaded")
            }
            state.empty = true
            state.schema = ArrowExport(empty)
            return state.schema!
        }
    }

    /// The next page's export; nil at the end.
    func nextExport() throws(FeatureCacheError) -> ArrowExport? {
        let schema = try schema()
        let (first, empty) = cursor.withLock { state -> (ArrowExport?, Bool) in
            defer { state.first = nil }
            return (state.first, state.empty)
        }
        if let first { return first }
        if empty { return nil }
        guard let page = try stream.next() else { return nil }
        return try ArrowExport(page, following: schema)
    }
}

private func state(_ stream: UnsafeMutablePointer<ArrowArrayStream>?) -> PageStreamState? {
    streamState(stream, as: PageStreamState.self)
}

private let getSchema: @convention(c) (UnsafeMutablePointer<ArrowArrayStream>?, UnsafeMutablePointer<ArrowSchema>?) -> Int32 = {
    stream, out in
    guard let state = state(stream) else { return EINVAL }
    guard let out else { return state.fail("get_schema: out is NULL", EINVAL) }
    do throws(FeatureCacheError) {
        exportSchema(try state.schema(), into: out)
        return 0
    } catch {
        return state.fail(error)
    }
}

private let getNext: @convention(c) (UnsafeMutablePointer<ArrowArrayStream>?, UnsafeMutablePointer<ArrowArray>?) -> Int32 = { stream, out in
    guard let state = state(stream) else { return EINVAL }
    guard let out else { return state.fail("get_next: out is NULL", EINVAL) }
    do throws(FeatureCacheError) {
        guard let export = try state.nextExport() else {
            out.pointee = ArrowArray()  // release == NULL: the end of the stream
            return 0
        }
        try exportBatch(export, 0, into: out)
        return 0
    } catch {
        return state.fail(error)
    }
}

private let getLastError: @convention(c) (UnsafeMutablePointer<ArrowArrayStream>?) -> UnsafePointer<CChar>? = { stream in
    guard let state = state(stream) else { return nil }
    return state.lastError.pointer
}

private let releaseStream: @convention(c) (UnsafeMutablePointer<ArrowArrayStream>?) -> Void = { stream in
    guard let stream, stream.pointee.release != nil, let data = stream.pointee.private_data else { return }
    let state = Unmanaged<PageStreamState>.fromOpaque(data)
    state.takeUnretainedValue().stream.cancel()  // now, whoever else still holds the state
    state.release()
    stream.pointee.release = nil
}

/// Fills `out` with a stream over `stream`'s pages.
func exportPageStream(_ stream: FeatureStream, into out: UnsafeMutablePointer<ArrowArrayStream>) {
    out.pointee = ArrowArrayStream(
        get_schema: getSchema, get_next: getNext, get_last_error: getLastError, release: releaseStream,
        private_data: Unmanaged.passRetained(PageStreamState(stream)).toOpaque())
}
