// SPDX-License-Identifier: Apache-2.0
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

/// An error as C sees it (`fc_error`): the core error and its message as a C string.
final class ErrorBox: @unchecked Sendable {
    let error: FeatureCacheError
    let message: UnsafeMutablePointer<CChar>

    /// The addresses of every live box: a pointer the caller passes is looked up
    /// here before it is read, so a table handle, a freed error or garbage given
    /// to fc_error_* reads nothing (errors are rare: the set stays small).
    private static let live = Locked(Set<UInt>())

    init(_ error: FeatureCacheError) {
        self.error = error
        message = strdup(error.message)!
        let address = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        Self.live.withLock { _ = $0.insert(address) }
    }

    deinit {
        let address = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        Self.live.withLock { _ = $0.remove(address) }
        free(message)
    }

    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    static func from(_ pointer: OpaquePointer?) -> ErrorBox? {
        guard let pointer else { return nil }
        let address = UInt(bitPattern: UnsafeRawPointer(pointer))
        return live.withLock { live in
            live.contains(address) ? Unmanaged<ErrorBox>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue() : nil
        }
    }
}

/// The thread-local slots behind `fc_last_error()` and `fc_loadable_load_error()`.
enum LastError {
    static let slot = ThreadLocal<ErrorBox>()
    static let loadErrorSlot = ThreadLocal<ErrorBox>()

    static func set(_ error: FeatureCacheError) { slot.value = ErrorBox(error) }
}

/// Runs a shim body: FC_OK, or the error's code with `fc_last_error` set.
@inline(__always)
func status(_ body: () throws(FeatureCacheError) -> Void) -> Int32 {
    do {
        try body()
        return 0
    } catch {
        LastError.set(error)
        return error.code.rawValue
    }
}

/// Runs a getter's body into `*out`: FC_OK, or the error's code with
/// `fc_last_error` set (and `*out` left as it was).
@inline(__always)
func output<T>(_ out: UnsafeMutablePointer<T>?, _ body: () throws(FeatureCacheError) -> T) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try body()
    }
}

/// Runs `make` into `*out` as a new table handle the caller owns; `*out` is
/// NULL unless it succeeds (every fc_*_create_table and fc_table_create_*).
func tableOutput(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ make: () throws(FeatureCacheError) -> FeatureTable) -> Int32 {
    out?.pointee = nil
    return output(out) { () throws(FeatureCacheError) in Handles.export(Handle(.table, try make())) }
}

/// Runs `body` into `*out` as a string borrowed from `handle` (valid until the
/// handle is freed): the getters of names, titles and ids.
func borrowedOutput(
    _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ body: () throws(FeatureCacheError) -> (Handle, String)
) -> Int32 {
    output(out) { () throws(FeatureCacheError) in
        let (handle, text) = try body()
        return handle.borrowedCString(text)
    }
}
