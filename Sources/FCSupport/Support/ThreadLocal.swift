// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A per-thread slot holding a strong reference, released when the thread exits.
/// Swift has no thread-local storage of its own on Linux; this wraps a pthread key.
package final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    private var key = pthread_key_t()

    package init() {
        // The destructor releases the reference a thread still holds when it exits.
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
    }

    package var value: Value? {
        get {
            guard let pointer = pthread_getspecific(key) else { return nil }
            return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? Value
        }
        set {
            let old = pthread_getspecific(key)
            if let newValue {
                pthread_setspecific(key, Unmanaged<AnyObject>.passRetained(newValue).toOpaque())
            } else {
                pthread_setspecific(key, nil)
            }
            if let old { Unmanaged<AnyObject>.fromOpaque(old).release() }
        }
    }
}
