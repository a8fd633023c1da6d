// SPDX-License-Identifier: Apache-2.0
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

/// Checks of C arguments, each failing with a message that names the argument.
enum CArguments {
    static func string(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(FeatureCacheError) -> String {
        guard let pointer else { throw FeatureCacheError(.invalidArgument, "\(name) is NULL") }
        guard let text = String(validatingCString: pointer) else {
            throw FeatureCacheError(.invalidArgument, "\(name) is not valid UTF-8")
        }
        return text
    }

    static func optionalString(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(FeatureCacheError) -> String? {
        guard pointer != nil else { return nil }
        return try string(pointer, name)
    }

    static func output<T>(_ pointer: UnsafeMutablePointer<T>?, _ name: String = "out") throws(FeatureCacheError) -> UnsafeMutablePointer<T>
    {
        guard let pointer else { throw FeatureCacheError(.invalidArgument, "\(name) is NULL") }
        return pointer
    }

    /// `list[index]` for an index from C; `name` names the index in the error.
    static func element<T>(_ list: [T], _ index: Int32, _ name: String) throws(FeatureCacheError) -> T {
        guard index >= 0, Int(index) < list.count else {
            throw FeatureCacheError(.invalidArgument, "\(name) \(index) is out of range (0..<\(list.count))")
        }
        return list[Int(index)]
    }

    static func finite(_ value: Double, _ name: String, minimum: Double = 0) throws(FeatureCacheError) -> Double {
        guard value.isFinite, value >= minimum else {
            throw FeatureCacheError(.invalidArgument, "\(name) must be a finite number >= \(minimum) (got \(value))")
        }
        return value
    }

    static func enumValue<E: RawRepresentable>(_ raw: Int32, _ type: E.Type, _ name: String) throws(FeatureCacheError) -> E
    where E.RawValue == Int32 {
        guard let value = E(rawValue: raw) else {
            throw FeatureCacheError(.invalidArgument, "\(raw) is not a valid \(name)")
        }
        return value
    }

    /// Whether text holds a C0 control character or DEL (never valid in a header,
    /// user agent or token).
    /// The `struct_size` a caller set in a versioned struct (its first field).
    static func versionedSize<T>(_ pointer: UnsafeRawPointer, _ type: T.Type, _ name: String) throws(FeatureCacheError) -> Int {
        let size = Int(pointer.load(as: UInt32.self))
        guard size >= MemoryLayout<UInt32>.size else {
            throw FeatureCacheError(.invalidArgument, "set struct_size to sizeof(\(name)) first")
        }
        return size
    }

    /// Reads the caller's (possibly older, smaller) struct of `size` bytes over
    /// `base`: the fields past it keep `base`'s values.
    static func readVersioned<T>(_ pointer: UnsafePointer<T>, size: Int, over base: inout T) {
        withUnsafeMutableBytes(of: &base) { bytes in
            bytes.baseAddress!.copyMemory(from: UnsafeRawPointer(pointer), byteCount: min(size, bytes.count))
        }
    }

    /// Copies the part of `full` that fits the caller's (possibly older,
    /// smaller) struct of `size` bytes.
    /// What every fc_*_options_init does: the defaults, for a struct of
    /// `structSize` bytes (the caller's, which may be older and smaller).
    static func initVersioned<T>(_ out: UnsafeMutablePointer<T>?, _ structSize: Int, defaults: T, _ name: String) throws(FeatureCacheError)
    {
        let out = try output(out, "options")
        guard structSize >= MemoryLayout<UInt32>.size else {
            throw FeatureCacheError(.invalidArgument, "struct_size \(structSize) is smaller than struct_size itself: pass sizeof(\(name))")
        }
        var full = defaults
        withUnsafeMutableBytes(of: &full) { $0.storeBytes(of: UInt32(min(structSize, MemoryLayout<T>.size)), as: UInt32.self) }
        copyVersioned(&full, to: out, size: structSize)
    }

    static func copyVersioned<T>(_ full: inout T, to out: UnsafeMutableRawPointer, size: Int) {
        withUnsafeBytes(of: &full) { bytes in
            out.copyMemory(from: bytes.baseAddress!, byteCount: min(size, bytes.count))
        }
    }

    /// A copy of `text` the caller owns and frees with `fc_string_free`.
    static func ownedString(_ text: String) throws(FeatureCacheError) -> UnsafeMutablePointer<CChar> {
        guard let copy = strdup(text) else {
            throw FeatureCacheError(.limit, "out of memory copying a string of \(text.utf8.count) bytes")
        }
        return copy
    }

    static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
