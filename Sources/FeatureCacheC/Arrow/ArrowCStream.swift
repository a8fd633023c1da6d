// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The state behind an exported `ArrowArrayStream`: the export (which keeps the
/// result and its batches alive), the next batch, and the last error's text.
/// Arrow streams are used by one thread at a time; the mutex makes misuse
/// harmless rather than a data race.
private final class StreamState: Sendable {
    struct Cursor {
        var next = 0
        var lastError: UnsafeMutablePointer<CChar>? = nil
    }
    let export: ArrowExport
    let cursor = Mutex(Cursor())

    init(_ export: ArrowExport) { self.export = export }

    deinit { cursor.withLock { free($0.lastError) } }

    func fail(_ message: String, _ code: Int32) -> Int32 {
        cursor.withLock { state in
            free(state.lastError)
            state.lastError = strdup(message)
        }
        return code
    }
}

private func state(_ stream: UnsafeMutablePointer<ArrowArrayStream>?) -> StreamState? {
    guard let stream, stream.pointee.release != nil, let data = stream.pointee.private_data else { return nil }
    return Unmanaged<StreamState>.fromOpaque(data).takeUnretainedValue()
}

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
    let index = state.cursor.withLock { cursor -> Int? in
        guard cursor.next < state.export.batchCount else { return nil }
        cursor.next += 1
        return cursor.next - 1
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
    return state.cursor.withLock { UnsafePointer($0.lastError) }
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
