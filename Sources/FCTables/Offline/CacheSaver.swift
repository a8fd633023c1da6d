// SPDX-License-Identifier: Apache-2.0
import Dispatch
import FCSupport

/// When a table's features are written to disk: not on every change (a
/// populate of a million features or a pan across fifty tiles would rewrite the
/// file each time) but at most once per `interval` after a change, on a queue of
/// its own, and at once when asked (`flush`: at the end of a populate, an apply,
/// the table's release). Features lost between two saves are only the cache's:
/// they are fetched again. Edits never wait for this: their journal records each
/// one as it is made.
package final class CacheSaver: Sendable {
    private struct State {
        var dirty = false
        var scheduled = false
    }
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "featurecache.cache-saver")
    private let interval: Double
    private let save: @Sendable () -> Void

    package init(interval: Double, save: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.save = save
    }

    /// The cache changed: save within `interval`.
    package func changed() {
        let schedule = state.withLock { state -> Bool in
            state.dirty = true
            defer { state.scheduled = true }
            return !state.scheduled
        }
        guard schedule else { return }
        queue.asyncAfter(deadline: .now() + interval) { [self] in
            state.withLock { $0.scheduled = false }
            saveIfDirty(save)
        }
    }

    /// Saves now if anything changed since the last save, with `save` (the
    /// owner's own, from its deinit, where the saver's weak reference to it
    /// is already gone); returns once written.
    package func flush(with save: () -> Void) {
        queue.sync { saveIfDirty(save) }
    }

    /// Saves now, whether or not a change was noticed (a caller that must
    /// know the cache is on disk when this returns), without blocking a
    /// task's thread.
    /// `always` false: only when a change was noticed since the last save
    /// (a populate or synchronize that changed nothing rewrites nothing).
    package func flushed(always: Bool = true) async {
        if always { state.withLock { $0.dirty = true } }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                saveIfDirty(save)
                continuation.resume()
            }
        }
    }

    private func saveIfDirty(_ save: () -> Void) {
        let dirty = state.withLock { state in
            defer { state.dirty = false }
            return state.dirty
        }
        if dirty { save() }
    }
}
