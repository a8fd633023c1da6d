// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex.
///
/// Why not `Synchronization.Mutex`: on Linux it synchronizes through raw futex
/// calls that ThreadSanitizer cannot see, so TSan reports every access under it
/// as a race, and a sanitizer run full of false reports hides the real ones.
/// pthread mutexes are intercepted by TSan and cost the same uncontended.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    // The mutex is the exclusion: no dynamic exclusivity check (a thread-local
    // look-up per access, from a shared library) on top of it.
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
