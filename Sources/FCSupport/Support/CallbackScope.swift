// SPDX-License-Identifier: Apache-2.0
/// Knows whether the current thread is running a callback the library delivered.
/// A blocking `wait` made from inside such a callback could wait for the very
/// thread it runs on, so it fails with `.invalidState` instead of deadlocking.
public enum CallbackScope {
    private final class Depth { var value = 0 }
    private static let depth = ThreadLocal<Depth>()

    /// True while the current thread is inside a library callback.
    public static var isActive: Bool { (depth.value?.value ?? 0) > 0 }

    /// Runs `body` marked as a library callback.
    package static func run(_ body: () -> Void) {
        let counter: Depth
        if let existing = depth.value { counter = existing } else { counter = Depth(); depth.value = counter }
        counter.value += 1
        defer { counter.value -= 1 }
        body()
    }

    /// Throws `.invalidState` when called from inside a library callback.
    package static func checkMayBlock(_ operation: String) throws(FeatureCacheError) {
        if isActive {
            throw FeatureCacheError(
                .invalidState,
                "\(operation) would block inside a library callback; use the asynchronous form instead")
        }
    }
}
