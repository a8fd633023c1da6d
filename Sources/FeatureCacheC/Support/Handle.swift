// SPDX-License-Identifier: Apache-2.0
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

/// What a C handle points at: one reference to a core object, plus what the
/// caller borrowed through this handle (strings) and registered through it
/// (status observers), both released when the handle is freed.
final class Handle: @unchecked Sendable {
    enum Kind: String {
        case context, table, layer, map, query, result, operation, service, arcgisService, ogcService, wfsService, featureEdit, editList
    }

    let kind: Kind
    let object: AnyObject
    /// Borrowed strings handed out through this handle, by content.
    private let strings = Locked<[String: UnsafeMutablePointer<CChar>]>([:])
    /// Status observers registered through this handle.
    let observerTokens = Locked<[UInt64]>([])
    /// Change observers registered through this handle (tables).
    let changeObserverTokens = Locked<[UInt64]>([])

    init(_ kind: Kind, _ object: AnyObject) {
        self.kind = kind
        self.object = object
    }

    deinit {
        strings.withLock { for pointer in $0.values { free(pointer) } }
    }

    /// A NUL-terminated copy of `value` that lives as long as this handle.
    func borrowedCString(_ value: String) -> UnsafePointer<CChar> {
        strings.withLock { strings in
            if let existing = strings[value] { return UnsafePointer(existing) }
            let copy = strdup(value)!
            strings[value] = copy
            return UnsafePointer(copy)
        }
    }

    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }
}

/// The registry of live handles. Every entry point checks its handle here first,
/// so a NULL, freed or foreign pointer is `FC_E_INVALID_ARGUMENT`, not a crash,
/// and a handle freed on one thread while used on another stays alive until the
/// other call returns (the borrow takes a strong reference under the lock).
enum Handles {
    /// Addresses of live handles.
    private static let live = Locked(AddressSet())

    static func export(_ handle: Handle) -> OpaquePointer {
        let raw = Unmanaged.passRetained(handle).toOpaque()
        live.withLock { _ = $0.insert(UInt(bitPattern: raw)) }
        return OpaquePointer(raw)
    }

    static func borrow(_ pointer: OpaquePointer?, _ kinds: Set<Handle.Kind>, _ what: String) throws(FeatureCacheError) -> Handle {
        try borrow(pointer, what) { kinds.contains($0) }
    }

    /// The live handle at `pointer` of one kind; no set is built per call (the
    /// result accessors come here once per value).
    @inline(__always)
    static func borrow(_ pointer: OpaquePointer?, _ kind: Handle.Kind, _ what: String) throws(FeatureCacheError) -> Handle {
        try borrow(pointer, what) { $0 == kind }
    }

    @inline(__always)
    private static func borrow(
        _ pointer: OpaquePointer?, _ what: String, accepting accepts: (Handle.Kind) -> Bool
    ) throws(FeatureCacheError) -> Handle {
        guard let pointer else { throw FeatureCacheError(.invalidArgument, "\(what) is NULL") }
        let raw = UnsafeMutableRawPointer(pointer)
        let handle = live.withLock { live -> Handle? in
            guard live.contains(UInt(bitPattern: raw)) else { return nil }
            return Unmanaged<Handle>.fromOpaque(raw).takeUnretainedValue()
        }
        guard let handle else {
            throw FeatureCacheError(.invalidArgument, "\(what) is not a live handle (freed, or never created)")
        }
        guard accepts(handle.kind) else {
            throw FeatureCacheError(.invalidArgument, "\(what) is a \(handle.kind.rawValue) handle")
        }
        return handle
    }

    static func borrow<T>(_ pointer: OpaquePointer?, _ kind: Handle.Kind, as type: T.Type, _ what: String) throws(FeatureCacheError) -> T {
        let handle = try borrow(pointer, kind, what)
        guard let object = handle.object as? T else {
            throw FeatureCacheError(.invalidArgument, "\(what) does not hold a \(T.self)")
        }
        return object
    }

    /// Unregisters and returns the handle; the caller releases the reference.
    static func take(_ pointer: OpaquePointer?, _ kind: Handle.Kind) -> Handle? {
        guard let pointer else { return nil }
        let raw = UnsafeMutableRawPointer(pointer)
        let removed = live.withLock { $0.remove(UInt(bitPattern: raw)) }
        guard removed else {
            LastError.set(FeatureCacheError(.invalidArgument, "freeing a \(kind.rawValue) handle that is not live (freed twice?)"))
            return nil
        }
        return Unmanaged<Handle>.fromOpaque(raw).takeRetainedValue()
    }

    /// Frees a handle of a loadable. Its observers are removed first, and any
    /// observer call already running finishes, while the handle is still live (so
    /// an observer never sees its own handle freed); then the handle goes.
    static func freeLoadable(_ pointer: OpaquePointer?, _ kind: Handle.Kind) {
        guard let pointer else { return }
        if let handle = try? borrow(pointer, [kind], "handle"), let loadable = handle.object as? any Loadable {
            let tokens = handle.observerTokens.withLock { tokens in
                defer { tokens.removeAll() }
                return tokens
            }
            for token in tokens { loadable.removeStatusObserver(token) }
            if !tokens.isEmpty { loadable.loadMachine.flushEvents() }
            // The layer's features-changed callback carries this handle: it goes with it.
            if let layer = loadable as? FeatureLayer { layer.setFeaturesChangedHandler(nil) }
        }
        _ = take(pointer, kind)
    }
}
