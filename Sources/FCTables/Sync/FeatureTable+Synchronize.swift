// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// Synchronize: the pending edits up, the service's changes down, in one call
/// (the ArcGIS Maps SDK's offline sync, without a replica). Where the source
/// tracks changes (`ChangeTrackingSource`), only what changed since the
/// cache's generation is read; otherwise the cache is fetched again.
extension FeatureTable {
    /// Applies the pending edits (`upload`), except those of features the
    /// service changed since they were cached (conflicts: kept, reported),
    /// then brings the cache current. Never throws: the report says how far
    /// it got and why it stopped.
    public func synchronize(
        upload: Bool = true, options: ApplyOptions = ApplyOptions(), progress: PopulateProgress? = nil
    ) async -> SyncReport {
        var report = SyncReport()
        do {
            try await synchronize(upload: upload, options: options, progress: progress, into: &report)
        } catch {
            report.error = error
        }
        return report
    }

    private func synchronize(
        upload: Bool, options: ApplyOptions, progress: PopulateProgress?, into report: inout SyncReport
    ) async throws(FeatureCacheError) {
        try await load()
        let metadata = try metadata()
        // A source that does not track changes (or not this layer) says nil.
        let tracker = source as? any ChangeTrackingSource
        let since = persistence.withLock { $0.syncGeneration }
        // 1. Down first, where the service can say what changed: the edits of
        //    features it changed are conflicts, not sent over its version.
        var conflicts: [Int64: FeatureCacheError] = [:]
        var delta = false, notModified = false
        if let tracker, let since, let changes = try await tracker.changes(since: since, metadata: metadata) {
            (delta, notModified) = (true, changes.notModified)
            conflicts = try await bringIn(changes, metadata: metadata, into: &report)
        }
        try Task.checkCancellationTyped()
        // 2. Up.
        if upload, !edits.isEmpty {
            let applied = await applyEditsReporting(options: options, progress: progress, conflicts: conflicts)
            report.edits = applied.results
            if let error = applied.error { throw error }
        }
        // 3. Down again: what the upload itself changed (new ids, server-computed
        //    fields), so the next synchronize does not take our own edits for
        //    someone else's — or, without change tracking, everything.
        if delta {
            report.method = notModified && report.uploaded == 0 ? .notModified : .delta
            if report.uploaded > 0, let tracker, let since = persistence.withLock({ $0.syncGeneration }),
                let changes = try await tracker.changes(since: since, metadata: metadata)
            {
                _ = try await bringIn(changes, metadata: metadata, into: &report)
            }
        } else {
            try await refetch(metadata: metadata, progress: progress, into: &report)
        }
        await flushCache()
    }

    /// Whether the source can say what changed since a generation of this metadata.
    package func canTrackChanges(_ metadata: TableMetadata) -> Bool {
        (source as? any ChangeTrackingSource)?.changeGeneration(metadata) != nil
    }

    /// The load kept a stale cache (`revalidationPending`): brings the
    /// service's changes in, or, when it cannot say them, drops the coverage
    /// as any stale cache's (views fetch again). Runs before the load returns,
    /// or after it (`setBackgroundRevalidation`).
    package func revalidateAfterRestore(_ metadata: TableMetadata) async {
        let (pending, background) = persistence.withLock { state in
            defer { state.revalidationPending = false }
            return (state.revalidationPending, state.background)
        }
        guard pending else { return }
        guard background else { return await catchUpAfterRestore(metadata) }
        Task.detached { [self] in await catchUpAfterRestore(metadata) }
    }

    private func catchUpAfterRestore(_ metadata: TableMetadata) async {
        var report = SyncReport()
        var revalidation = CacheInfo.Revalidation.stale
        if let tracker = source as? any ChangeTrackingSource, let since = persistence.withLock({ $0.syncGeneration }),
            let changes = try? await tracker.changes(since: since, metadata: metadata),
            (try? await bringIn(changes, metadata: metadata, into: &report)) != nil
        {
            revalidation = .synchronized
        } else {
            interaction.dropCoverage(table: self)
        }
        persistence.withLock {
            $0.info.revalidation = revalidation
            if revalidation == .synchronized {
                $0.info.synchronized = .init(added: report.added, updated: report.updated, deleted: report.deleted)
            }
        }
    }

    /// The generation a cache that holds no feature of the service yet is
    /// current to: the metadata's (called at load).
    package func startGeneration(_ metadata: TableMetadata) {
        guard let generation = (source as? any ChangeTrackingSource)?.changeGeneration(metadata) else { return }
        persistence.withLock { $0.syncGeneration = $0.syncGeneration ?? generation }
    }

    /// Reads the features `changes` names (by object id, as every other
    /// feature of the table was read) and writes them, and the deletes, to the
    /// cache as one change (`.sync`); local edits stay on top, and a change to
    /// a feature with a pending edit makes that edit a conflict (returned).
    /// Nothing changes when a read fails. Then the generation moves on.
    @discardableResult
    package func bringIn(
        _ changes: SourceChanges, metadata: TableMetadata, into report: inout SyncReport
    ) async throws(FeatureCacheError) -> [Int64: FeatureCacheError] {
        var fetched = FetchedFeatures()
        let size = max(1, metadata.maxRecordCount)
        var start = 0
        while start < changes.upserted.count {
            try Task.checkCancellationTyped()
            var query = QueryParameters()
            query.objectIds = Array(changes.upserted[start..<min(start + size, changes.upserted.count)])
            start += query.objectIds.count
            let page = try await source.fetch(serverQuery(query), outFields: nil, metadata: metadata, progress: nil)
            fetched.batches += page.batches
            fetched.spatialReference = page.spatialReference ?? fetched.spatialReference
        }
        fetched.compact()
        let read = Set(fetched.objectIds)
        // Named as changed but not read back: deleted since (or outside the
        // definition expression now). Either way not the service's any more.
        let gone = changes.deleted + changes.upserted.filter { !read.contains($0) }

        let local = edits.snapshot()
        let pending = Set(local.filter { $0.kind != .add }.map(\.objectId))
        let deletes = Set(local.filter { $0.kind == .delete }.map(\.objectId))
        var conflicts: [Int64: FeatureCacheError] = [:]
        for id in Set(changes.upserted).union(changes.deleted) where pending.contains(id) {
            let deleted = !read.contains(id)
            if deleted, deletes.contains(id) {
                _ = edits.remove(id)  // deleted here and there: nothing left to send
                continue
            }
            let error = FeatureCacheError(
                .conflict,
                "feature \(id) was \(deleted ? "deleted" : "changed") on the service since it was cached: "
                    + "the local edit is kept, not sent (undo it to take the service's version, then edit again)")
            edits.update(id) { $0.lastError = error }
            conflicts[id] = error
        }

        let removable = gone.filter { !pending.contains($0) }
        guard fetched.featureCount > 0 || !removable.isEmpty else {
            // Nothing to write: only the generation moves on (and is saved).
            let moved = persistence.withLock { state in
                defer { state.syncGeneration = changes.generation }
                return state.syncGeneration != changes.generation
            }
            if moved { cacheChanged() }
            return conflicts
        }
        writeSynchronized(fetched, replacing: false, removing: removable, generation: changes.generation, into: &report)
        return conflicts
    }

    /// Writes what a synchronize read as one change (`.sync`): the features,
    /// pinned, and the removals; counted in the report whether or not someone
    /// listens, then told. The generation moves on with it.
    private func writeSynchronized(
        _ fetched: FetchedFeatures, replacing: Bool, removing gone: [Int64], generation: String?,
        into report: inout SyncReport
    ) {
        var change = write(fetched, replacing: replacing, keepingFinerCopies: false, cause: .sync, recording: true)
        if !gone.isEmpty { store.remove(gone, recording: &change.delta) }
        interaction.pin(fetched.objectIds)
        if let generation { persistence.withLock { $0.syncGeneration = generation } }
        report.count(change.delta, received: fetched.featureCount)
        if !recordsChanges { change.delta = nil }
        announce(change)
    }

    /// Without change tracking: the populated features are fetched again
    /// with the last populate's query, replacing them; a cache of tiles alone
    /// drops its coverage, and views fetch again what they show.
    private func refetch(
        metadata: TableMetadata, progress: PopulateProgress?, into report: inout SyncReport
    ) async throws(FeatureCacheError) {
        switch interaction.holdings {
        case .nothing:
            report.method = .none
        case .tilesOnly:
            interaction.dropCoverage(table: self)
            report.method = .coverageDropped
        case .pinned:
            // The layer's own word: the data version the features were fetched
            // at is the service's now (one request), nothing to fetch.
            let version = persistence.withLock { $0.featuresVersion }
            let now = try await source.currentDataVersion(metadata: metadata)
            if let version, version == now {
                report.method = .notModified
                return
            }
            // The populate's pages asked again where they carried validators: all
            // unchanged, nothing to fetch.
            if let validators = persistence.withLock({ $0.populateValidators }), !validators.isEmpty,
                try await revalidate(validators) != nil
            {
                report.method = .notModified
                return
            }
            // Asked first: the features fetched next are current to it at least.
            let tracker = source as? any ChangeTrackingSource
            let generation = try await tracker?.currentGeneration(metadata: metadata)
            // The last populate's query again (the whole table when it merged).
            let query = persistence.withLock { $0.populateQuery } ?? QueryParameters()
            var (fetched, validators) = try await fetchWithValidators(query, metadata: metadata, progress: progress)
            try Task.checkCancellationTyped()
            fetched.compact()
            interaction.restart(resetCoverage: true)
            report.method = .refetched
            writeSynchronized(fetched, replacing: true, removing: [], generation: generation, into: &report)
            // Kept once the features they describe are cached: a cancel before
            // leaves the old pages' validators with the old features.
            persistence.withLock {
                $0.populateValidators = validators
                $0.featuresVersion = now
            }
        }
    }
}

extension SyncReport {
    /// Adds what one write changed.
    mutating func count(_ delta: StoreDelta?, received: Int) {
        added += delta?.added.count ?? 0
        updated += delta?.updated.count ?? 0
        deleted += delta?.deleted.count ?? 0
        featuresReceived += received
    }
}
