// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// Keeps a cache folder within a byte budget across its tables: each table
/// bounds its own file by its memory budget, but the folders of tables not
/// opened again would pile up. After a save, while the folders under the root
/// hold more than the budget, the least recently used ones are removed whole:
/// never one a table holds now (its lock), never one with pending edits (nor a
/// journal set aside for a look), which are the user's work, not a copy.
package enum CacheDiskBudget {
    /// Removes folders under `root` until they fit `budget` bytes (or none can
    /// go); returns how many were removed.
    @discardableResult
    package static func enforce(root: String, budget: Int) -> Int {
        guard budget > 0 else { return 0 }
        let folders = CacheFiles.folders(in: root)
        var total = folders.reduce(0) { $0 + $1.bytes }
        var removed = 0
        for folder in folders.sorted(by: { $0.lastUse < $1.lastUse }) {
            guard total > budget else { break }
            // Held by a table (here or in another process): not ours to take.
            guard let lock = try? CacheFiles.Lock(folder.path + "/lock", patience: 0, stamp: false) else { continue }
            guard !holdsEdits(folder.path) else { continue }
            CacheFiles.removeFolder(folder.path)
            withExtendedLifetime(lock) {}
            total -= folder.bytes
            removed += 1
        }
        return removed
    }

    /// Whether the folder keeps edits: pending ones in its journal, a journal
    /// that cannot be read, or one set aside.
    private static func holdsEdits(_ folder: String) -> Bool {
        if CacheFiles.hasFile(in: folder, prefix: "edits.fcj.corrupt-") { return true }
        do throws(FeatureCacheError) {
            return !(try EditJournal.read(folder + "/edits.fcj")).edits.isEmpty
        } catch {
            return true
        }
    }
}
