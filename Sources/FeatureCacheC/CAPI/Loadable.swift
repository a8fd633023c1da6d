// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

/// The handle kinds that are loadable.
private let loadableKinds: Set<Handle.Kind> = [.table, .layer, .map, .arcgisService, .ogcService, .wfsService]

private func loadable(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> (Handle, any Loadable) {
    let handle = try Handles.borrow(pointer, loadableKinds, "obj")
    guard let loadable = handle.object as? any Loadable else {
        throw FeatureCacheError(.invalidArgument, "obj is not loadable")
    }
    return (handle, loadable)
}

/// A C callback and its user data, carried to a library thread.
private struct LoadCallback: @unchecked Sendable {
    let function: fc_load_callback
    let userData: UnsafeMutableRawPointer?
    /// Keeps the handle's memory valid until the callback has run.
    let handle: Handle

    func callAsFunction(_ error: FeatureCacheError?) {
        let box = error.map(ErrorBox.init)
        withExtendedLifetime(box) {
            function(handle.pointer, box?.pointer, userData)
        }
    }
}

private struct StatusCallback: @unchecked Sendable {
    let function: fc_load_status_callback
    let userData: UnsafeMutableRawPointer?
    let handle: Handle
}

private func completion(
    _ callback: fc_load_callback?, _ userData: UnsafeMutableRawPointer?,
    _ handle: Handle
) -> LoadMachine.Completion? {
    guard let callback else { return nil }
    let call = LoadCallback(function: callback, userData: userData, handle: handle)
    return { error in call(error) }
}

@_cdecl("fc_loadable_load")
public func fcLoadableLoad(_ obj: OpaquePointer?, _ callback: fc_load_callback?, _ userData: UnsafeMutableRawPointer?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, loadable) = try loadable(obj)
        loadable.load(completion: completion(callback, userData, handle))
    }
}

@_cdecl("fc_loadable_retry_load")
public func fcLoadableRetryLoad(_ obj: OpaquePointer?, _ callback: fc_load_callback?, _ userData: UnsafeMutableRawPointer?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, loadable) = try loadable(obj)
        loadable.retryLoad(completion: completion(callback, userData, handle))
    }
}

@_cdecl("fc_loadable_cancel_load")
public func fcLoadableCancelLoad(_ obj: OpaquePointer?) -> Int32 {
    status { () throws(FeatureCacheError) in
        try loadable(obj).1.cancelLoad()
    }
}

@_cdecl("fc_loadable_load_status")
public func fcLoadableLoadStatus(_ obj: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try loadable(obj).1.loadStatus.rawValue }
}

@_cdecl("fc_loadable_load_error")
public func fcLoadableLoadError(_ obj: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return output(out) { () throws(FeatureCacheError) -> OpaquePointer? in
        guard let error = try loadable(obj).1.loadError else { return nil }
        let box = ErrorBox(error)
        LastError.loadErrorSlot.value = box  // keeps it valid until the next call on this thread
        return box.pointer
    }
}

@_cdecl("fc_loadable_add_status_observer")
public func fcLoadableAddStatusObserver(
    _ obj: OpaquePointer?, _ callback: fc_load_status_callback?,
    _ userData: UnsafeMutableRawPointer?, _ outToken: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, loadable) = try loadable(obj)
        guard let callback else { throw FeatureCacheError(.invalidArgument, "callback is NULL") }
        let observer = StatusCallback(function: callback, userData: userData, handle: handle)
        // The observer holds its handle; freeing the handle removes the observer,
        // which ends that reference cycle.
        let token = loadable.addStatusObserver { status in
            observer.function(observer.handle.pointer, status.rawValue, observer.userData)
        }
        handle.observerTokens.withLock { $0.append(token) }
        outToken?.pointee = token
    }
}

@_cdecl("fc_loadable_remove_status_observer")
public func fcLoadableRemoveStatusObserver(_ obj: OpaquePointer?, _ token: UInt64) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, loadable) = try loadable(obj)
        guard loadable.removeStatusObserver(token) else {
            throw FeatureCacheError(.invalidArgument, "no status observer has token \(token)")
        }
        handle.observerTokens.withLock { $0.removeAll { $0 == token } }
        loadable.loadMachine.flushEvents()
    }
}

@_cdecl("fc_loadable_wait")
public func fcLoadableWait(_ obj: OpaquePointer?, _ timeout: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        guard !timeout.isNaN else { throw FeatureCacheError(.invalidArgument, "timeout_seconds is NaN") }
        try loadable(obj).1.loadAndWait(timeout: timeout)
    }
}
