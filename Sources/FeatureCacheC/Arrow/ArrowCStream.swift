// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a stream's get_last_error gives: the text of its last failure, valid
/// until the next one or the stream's release (both kinds of stream: a
/// result's, here, and a streamed query's, ArrowPageStream.swift).
final class ArrowStreamLastError: Sendable {
    private let text = Mutex<UnsafeMutablePointer<CChar>?>(nil)

    deinit { text.withLock { free($0) } }

    /// Keeps `message` as the last error and returns `code`.
    func fail(_ message: String, _ code: Int32) -> Int32 {
        text.withLock { text in
            free(text)
            text = strdup(message)
        }
        return code
    }

    var pointer: UnsafePointer<CChar>? { text.withLock { UnsafePointer($0) } }
}

/// The state behind an exported `ArrowArrayStream`: the export (which keeps the
/// result and its batches alive), the next batch, and the last error.
/// Arrow streams are used by one thread at a time; the mutex makes misuse
/// harmless rather than a data race.
private final class StreamState: Sendable {
    let export: ArrowExport
    let next = Mutex(0)
    let lastError = ArrowStreamLastError()

    init(_ export: ArrowExport) { self.export = export }

    func fail(_ message: String, _ code: Int32) -> Int32 { lastError.fail(message, code) }
}

/// The state a stream of ours keeps in its private data; nil for a released stream.
func streamState<State: AnyObject>(_ stream: UnsafeMutablePointer<ArrowArrayStream>?, as _: State.Type) -> State? {
    guard let stream, stream.pointee.release != nil, let data = stream.pointee.private_data else { return nil }
    return Unmanaged<State>.fromOpaque(data).takeUnretainedValue()
}

private func state(_ stream: UnsafeMutablePointer<ArrowArrayStream>?) -> StreamState? { streamState(stream, as: StreamState.self) }

private let getSchema: @convention(c) (UnsafeMutablePointer<ArrowArrayStream>?, UnsafeMutablePointer<ArrowSchema>?) -> Int32 = {
    stream, out in
    guard let state = state(stream) else { return EINVAL }
    guard let out else { return state.fail("get_schema: out is NULL", EINVAL) }
    exportSchema(state.export, into: out)
    return 0
}

private let getNext: @convention(c) (UnsafeMutablePointer<ArrowArrayStream>?, UnsafeMutablePointer<ArrowArray>?) -> Int32 = { stream, out in
    guard let state = state(stream) else { return EINVAL }
    guard let out else { return state.fail("get_next: out is NULL", EINVAL) }
    let index = state.next.withLock { next -> Int? in
        guard next < state.export.batchCount else { return nil }
        next += 1
        return next - 1
    }
    guard let index else {
        out.pointee = ArrowArray()  // release == NULL: the end of the stream
        return 0
    }
    do throws(FeatureCacheError) {
        try exportBatch(state.export, index, into: out)
        return 0
    } catch {
        return state.fail(error.message, error.code == .limit ? EOVERFLOW : EINVAL)
    }
}

private let getLastError: @convention(c) (UnsafeMutablePointer<ArrowArrayStream>?) -> UnsafePointer<CChar>? = { stream in
    guard let state = state(stream) else { return nil }
    return state.lastError.pointer
}

private let releaseStream: @convention(c) (UnsafeMutablePointer<ArrowArrayStream>?) -> Void = { stream in
    guard let stream, stream.pointee.release != nil else { return }
    Unmanaged<StreamState>.fromOpaque(stream.pointee.private_data).release()
    stream.pointee.release = nil
}

/// Fills `out` with a stream over the export's record batches.
func exportStream(_ export: ArrowExport, into out: UnsafeMutablePointer<ArrowArrayStream>) {
    out.pointee = ArrowArrayStream(
        get_schema: getSchema, get_next: getNext, get_last_error: getLastError, release: releaseStream,
        private_data: Unmanaged.passRetained(StreamState(export)).toOpaque())
}
