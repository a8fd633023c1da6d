// SPDX-License-Identifier: Apache-2.0
extension Task where Success == Never, Failure == Never {
    /// `Task.checkCancellation()` with the library's error type.
    package static func checkCancellationTyped() throws(FeatureCacheError) {
        if Task.isCancelled { throw FeatureCacheError.cancelled }
    }
}
