// SPDX-License-Identifier: Apache-2.0
extension Array where Element == UInt8 {
    /// `withUnsafeBytes` keeping the library's typed error (the standard
    /// library's version rethrows untyped).
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(FeatureCacheError) -> R) throws(FeatureCacheError) -> R {
        var outcome: Result<R, FeatureCacheError>!
        withUnsafeBytes { bytes in
            do throws(FeatureCacheError) { outcome = .success(try body(bytes)) } catch { outcome = .failure(error) }
        }
        return try outcome.get()
    }
}
