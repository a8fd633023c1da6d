// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// A table's cache between runs (opt-in: the context's or the table's cache
/// folder). Loading reads what was saved — features, coverage, pending edits —
/// and keeps what the service's evidence says is still current; when the
/// service cannot be reached the table loads from it alone ("offline").
/// Changes are saved as they come (`CacheSaver`), edits journaled one by one.
package struct TablePersistence: Sendable {
    /// Set on the table before load (wins over the context's).
    var folder: String?
    var timeToLive: Double?
    var cache: PersistedCache?
    var saver: CacheSaver?
    var info = CacheInfo()
    /// The service's generation the cached features are current to (a
    /// source that tracks changes): what a synchronize asks changes since.
    var syncGeneration: String?
    /// The pages of the last populate that replaced the cache, to be asked again conditionally.
    var populateValidators: [AnswerValidator]?
    /// That populate's query (nil: the whole table), what a synchronize
    /// without change tracking fetches again.
    var populateQuery: QueryParameters?
    /// The data version the populated features were fetched at (nil: not
    /// known), what a synchronize compares with the service's now.
    var featuresVersion: String?
    /// The load kept a stale cache for its changes to be brought in, or its
    /// coverage dropped, after the restore (`revalidateByChanges`).
    var revalidationPending = false
    /// Stale-while-revalidate: that revalidation runs after the load returns.
    var background = false
    /// The store holds what was saved, and the service's evidence says it is
    /// unchanged; nothing wrote to the store since (a resumable populate the
    /// populate journal says completed is then answered from it).
    var restoredUnchanged = false
    /// A populate journal is in the folder: the next write removes it (a
    /// completed one no longer describes the cache; a cut one may stay
    /// only while nothing else writes).
    var populateJournal = false
    /// Writes to the cache so far (a populate's journal completes only if
    /// none came after its own).
    var writes = 0
}

extension FeatureTable {
    /// Seconds between a change and its save to disk.
    package static let saveInterval = 1.0

    /// Keeps the table's cache in `folder` between runs (nil: the context's
    /// setting). Set before load.
    public func setCacheFolder(_ folder: String?, timeToLive: Double? = nil) throws(FeatureCacheError) {
        if let folder, folder.isEmpty { throw .invalidArgument("a cache folder must not be empty") }
        if let timeToLive, !(timeToLive >= 0) { throw .invalidArgument("a time-to-live must be >= 0 seconds") }
        guard loadStatus == .notLoaded || loadStatus == .failedToLoad else {
            throw .invalidState("the cache folder must be set before the table loads")
        }
        persistence.withLock {
            $0.folder = folder
            $0.timeToLive = timeToLive
        }
    }

    /// Stale-while-revalidate (before load): a reopened cache whose service
    /// moved on answers as saved at once, and is revalidated after the load.
    public func setBackgroundRevalidation(_ background: Bool) throws(FeatureCacheError) {
        guard loadStatus == .notLoaded || loadStatus == .failedToLoad else {
            throw .invalidState("background revalidation must be set before the table loads")
        }
        persistence.withLock { $0.background = background }
    }

    /// Where the persisted cache stands (`folder` nil: not persisted).
    public var cacheInfo: CacheInfo {
        let (info, cache) = persistence.withLock { ($0.info, $0.cache) }
        var current = info
        current.bytesOnDisk = cache?.bytesOnDisk ?? 0
        current.segments = store.segmentCount
        let figures = store.segments.figures
        current.segmentsInMemory = figures.held
        current.segmentReads = figures.reads
        current.segmentEvictions = figures.evictions
        return current
    }

    /// Whether features over the memory budget move to segment files in the
    /// cache folder (a budget and a folder this table writes) rather than
    /// leave the cache.
    package var spillsToDisk: Bool {
        cacheBudget > 0 && persistence.withLock { $0.cache.map { !$0.isReadOnly } ?? false }
    }

    /// Features left the cache with no change at the service (a segment that
    /// could not be read back): what said the cache was whole — the
    /// coverage, the populate's validators and data version, the change
    /// tracking's generation — says so no longer, so the next view,
    /// populate or synchronize fetches them again.
    package func cacheLostFeatures(_ count: Int) {
        interaction.restart(resetCoverage: true)
        persistence.withLock {
            $0.syncGeneration = nil
            $0.populateValidators = nil
            $0.featuresVersion = nil
            $0.restoredUnchanged = false
            $0.info.lostFeatures += count
        }
        cacheChanged()
    }

    /// What identifies the table's saved cache: the kind of service, its URL
    /// and item (credentials taken out), the spatial reference asked for, the
    /// definition expression.
    package var cacheIdentity: String {
        Self.cacheIdentity(
            kind: source.kind, source: source.cacheIdentity, wkid: presetSpatialReference?.wkid ?? 0,
            definitionExpression: definitionExpression)
    }

    /// The identity of a table of `kind` on `source` (its `cacheIdentity`)
    /// in `wkid` (0: the service's) under a definition expression.
    package static func cacheIdentity(kind: ServiceKind, source: String, wkid: Int32, definitionExpression: String) -> String {
        "\(kind.rawValue)|\(RequestURL.redacted(source))|wkid=\(wkid)|where=\(definitionExpression)"
    }

    /// The spatial reference and definition expression a cache identity
    /// records (nil: not one `cacheIdentity` writes). Only as sure as the
    /// identity is plain: a caller checks that a table made from them has the
    /// very identity it parsed.
    package static func settings(ofCacheIdentity identity: String) -> (wkid: Int32, definitionExpression: String)? {
        guard let wkidAt = identity.firstRange(of: "|wkid="),
            let whereAt = identity[wkidAt.upperBound...].firstRange(of: "|where="),
            let wkid = Int32(identity[wkidAt.upperBound..<whereAt.lowerBound])
        else { return nil }
        return (wkid, String(identity[whereAt.upperBound...]))
    }

    /// Opens the folder (once) and reads what it holds; nil when not persisted.
    /// Throws `.storage` when the folder or its lock cannot be used (a lock
    /// path that is a folder, no permission): the caller asked for a
    /// persisted cache, so the load fails rather than run without it.
    package func openPersistedCache() throws(FeatureCacheError) -> PersistedCache.Snapshot? {
        let settings = context.settings
        guard let folder = persistence.withLock({ $0.cache == nil ? $0.folder ?? settings.cacheFolder : nil }) else { return nil }
        let cache: PersistedCache
        do {
            cache = try PersistedCache(root: folder, identity: cacheIdentity, lockWait: settings.cacheLockWait)
        } catch {
            persistence.withLock { $0.info.lastSaveError = error }
            var failure = error
            failure.message = "the cache folder cannot be used: \(error.message)"
            throw failure
        }
        (source as? any AnswerKeepingSource)?.keepAnswers(in: cache)
        let (snapshot, setAside) = cache.readSnapshot()
        let (journal, contents, journalSetAside) = cache.openJournal()
        edits.restore(contents.edits, nextLocalId: contents.nextLocalId, nextSequence: contents.nextSequence)
        edits.attach(journal)
        let saver = CacheSaver(interval: Self.saveInterval) { [weak self] in self?.saveCache() }
        store.onLost { [weak self] count in self?.cacheLostFeatures(count) }
        persistence.withLock {
            $0.cache = cache
            $0.saver = cache.isReadOnly ? nil : saver
            $0.info.folder = cache.folder
            $0.info.isReadOnly = cache.isReadOnly
            $0.info.savedAt = snapshot?.savedAt ?? 0
            $0.info.restoredEdits = contents.edits.count
            $0.populateJournal = CacheFiles.size(cache.populatePath) > 0
            $0.info.setAside = [setAside, journalSetAside, snapshot?.lostReason].compactMap { $0 }.joined(separator: "; ").nonEmpty
        }
        store.setMemoryBudget(spillsToDisk ? cacheBudget : 0)
        return snapshot
    }

    /// Puts a saved cache back under the metadata the load settled on, keeping
    /// the coverage the evidence says is current (`offline`: all of it).
    package func restorePersisted(_ snapshot: PersistedCache.Snapshot?, metadata: TableMetadata, offline: Bool) {
        let ttl = persistence.withLock { $0.timeToLive } ?? context.settings.cacheTimeToLive
        var revalidation = CacheInfo.Revalidation.created
        var restored = 0
        if let snapshot {
            let saved = snapshot.metadata
            if !offline,
                saved.fields != metadata.fields || saved.geometryType != metadata.geometryType
                    || saved.spatialReference?.effectiveWkid != metadata.spatialReference?.effectiveWkid
            {
                revalidation = .schemaChanged
            } else {
                var coverage = snapshot.coverage
                let pendingNow = Set(edits.snapshot().map(\.objectId))
                // Edits landed or undone after the features were saved: what
                // the service holds moved on since, whatever else it says.
                let editsMoved = Set(snapshot.editIds) != pendingNow
                // The tiles were cut from another extent (the data grew or
                // shrank): they cover nothing now; the features themselves
                // stay for the evidence to judge.
                var released = !offline && Self.grid(for: saved) != Self.grid(for: metadata) ? coverage.dropAll() : []
                if offline {
                    revalidation = .offline
                } else if let before = saved.dataVersion, let now = metadata.dataVersion {
                    // Layer-wide evidence: one date for all its features.
                    revalidation = before == now && !editsMoved ? .unchanged : .stale
                    persistence.withLock { $0.restoredUnchanged = revalidation == .unchanged }
                    let background = persistence.withLock { $0.background }
                    if revalidation == .stale, background || snapshot.syncGeneration != nil && canTrackChanges(metadata) {
                        // What changed since can be asked, or the caller takes
                        // the saved answers first: everything is kept until the
                        // changes come in (or the coverage goes then).
                        persistence.withLock { $0.revalidationPending = true }
                        if background { revalidation = .revalidating }
                    } else if revalidation == .stale {
                        released += coverage.dropAll()
                    }
                } else if editsMoved {
                    revalidation = .expired
                    released += coverage.dropAll()
                } else if coverage.isEmpty {
                    // Populated features only (pins, kept whatever the verdict):
                    // the table's answers together decide.
                    let fresh = snapshot.freshUntil.map { DateText.now < $0 } ?? false
                    revalidation = fresh ? .fresh : CacheFiles.now() - snapshot.savedAt <= ttl ? .withinTimeToLive : .expired
                } else {
                    // Tile by tile: each kept while fresh by its server's word
                    // or younger than the caller's time-to-live, the staleness
                    // it accepts; only what aged is fetched again.
                    let aging = coverage.dropExpired(now: DateText.now, timeToLive: ttl)
                    released += aging.released
                    revalidation =
                        aging.stale > 0
                        ? .toRevalidate
                        : aging.dropped == 0
                            ? (aging.young == 0 ? .fresh : .withinTimeToLive)
                            : (aging.fresh + aging.young == 0 ? .expired : .partlyExpired)
                }
                var entries = snapshot.entries
                if !released.isEmpty {
                    let gone = Set(released)
                    entries = entries.map { entry in Self.dropping(gone, from: entry) }
                }
                // Kept features keep the server's word on them; dropped ones
                // take it with them.
                if revalidation != .stale && revalidation != .expired {
                    statistics.mergeFreshness(AnswerFreshness(saved: snapshot.freshUntil))
                }
                store.restore(entries)
                persistence.withLock {
                    $0.syncGeneration = snapshot.syncGeneration
                    $0.populateValidators = snapshot.populateValidators
                    $0.populateQuery = snapshot.populateQuery
                    $0.featuresVersion = snapshot.featuresVersion
                }
                // Rows of edits no longer pending (landed or undone since) go;
                // pending edits show over whatever was saved.
                store.remove(snapshot.editIds.filter { !pendingNow.contains($0) })
                interaction.restore(coverage)
                restored = store.count
                if snapshot.lostFeatures > 0 { cacheLostFeatures(snapshot.lostFeatures) }
            }
        }
        let overlay = edits.overlay()
        store.remove(Array(overlay.hidden.subtracting(overlay.rows.keys)))
        restoreEdits()
        persistence.withLock {
            $0.info.revalidation = revalidation
            $0.info.isOffline = offline
            $0.info.restoredFeatures = restored
        }
    }

    /// An entry without the rows of `ids` (a segment is read for its ids;
    /// one that cannot be is left as it is, and lost at its first use).
    private static func dropping(
        _ ids: Set<Int64>, from entry: (slot: BatchSlot, live: Bitmap?)
    ) -> (slot: BatchSlot, live: Bitmap?) {
        guard let batch = try? entry.slot.batch(nil) else { return entry }
        var live = entry.live ?? Bitmap(count: batch.count, value: true)
        for row in 0..<batch.count where live[row] && ids.contains(batch.objectId(row)) { live[row] = false }
        if entry.slot.segment != nil { entry.slot.release() }
        return (entry.slot, live)
    }

    /// The cache changed: saved within `saveInterval`.
    package func cacheChanged() {
        let (saver, journal) = persistence.withLock { state in
            defer {
                state.writes += 1
                state.restoredUnchanged = false
                state.populateJournal = false
            }
            return (state.saver, state.populateJournal ? state.cache?.populatePath : nil)
        }
        if let journal { CacheFiles.remove(journal) }
        saver?.changed()
    }

    /// Saves what changed now (the end of a populate, an apply or a
    /// synchronize): returns once the features are written and synced. A
    /// call that changed nothing rewrites nothing (a million points are a
    /// 118 MB file, 0.5 s to write), unless the last save failed.
    package func flushCache() async {
        let (saver, failed) = persistence.withLock { ($0.saver, $0.info.lastSaveError != nil) }
        await saver?.flushed(always: failed)
    }

    /// Writes the cache to its folder now, synced, and returns once it is on
    /// disk (`fc_table_flush_cache`): for a caller that must know. Throws the
    /// save's `.storage` error; `.invalidState` for a table without a
    /// writable cache folder (not persisted, or read-only).
    public func flushCacheNow() async throws(FeatureCacheError) {
        try await load()
        guard let saver = persistence.withLock({ $0.saver }) else {
            let info = cacheInfo
            throw FeatureCacheError.invalidState(
                info.folder == nil ? "the table has no cache folder" : "the table's cache folder is read-only (another table holds it)")
        }
        await saver.flushed()
        if let error = persistence.withLock({ $0.info.lastSaveError }) { throw error }
    }

    /// Writes the features, their coverage and the metadata (on the saver's queue).
    package func saveCache() {
        guard let cache = persistence.withLock({ $0.cache }), let metadata = loadedMetadata else { return }
        // Over the memory budget, what is in memory only goes to a segment
        // file first (in chunks of a quarter of the budget: one spill's runs
        // are spatially ordered together).
        var spillError: FeatureCacheError? = nil
        if spillsToDisk, !cache.isReadOnly {
            do { try store.spill(into: cache.folder, over: cacheBudget / 4) } catch { spillError = error }
        }
        let (coverage, entries) = interaction.persistedState(store: store)
        let state = persistence.withLock { $0 }
        let snapshot = PersistedCache.Snapshot(
            identity: cache.identity, reopening: source.reopening, savedAt: CacheFiles.now(), freshUntil: statistics.freshness.vouchedUntil,
            metadata: metadata, coverage: coverage, entries: entries,
            editIds: edits.snapshot().map(\.objectId), syncGeneration: state.syncGeneration,
            populateValidators: state.populateValidators, populateQuery: state.populateQuery, featuresVersion: state.featuresVersion)
        do {
            try cache.write(snapshot)
            persistence.withLock {
                $0.info.savedAt = snapshot.savedAt
                $0.info.lastSaveError = spillError
            }
        } catch {
            persistence.withLock { $0.info.lastSaveError = error }
        }
        // After a failed save too: a full disk may be this budget's to free.
        CacheDiskBudget.enforce(root: cache.root, budget: context.settings.cacheDiskBudget)
    }

    /// Saves what changed and lets go of the folder (its lock): the caller is
    /// done with the table (C `fc_table_free`). What still holds the table (a
    /// layer) keeps its features in memory; nothing more is written.
    public func closePersistedCache() {
        guard let saver = persistence.withLock({ $0.saver }) else {
            persistence.withLock { $0.cache = nil }
            return
        }
        saver.flush { saveCache() }
        edits.attach(nil)
        persistence.withLock {
            $0.saver = nil
            $0.cache = nil
        }
    }

    /// Whether a load failure means the service cannot be reached (then a saved cache answers).
    package static func isUnreachable(_ error: FeatureCacheError) -> Bool {
        switch error.code {
        case .network, .timeout: return true
        case .http: return [502, 503, 504].contains(error.httpStatus)
        default: return false
        }
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
