// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import Dispatch

/// What a table in an on-interaction mode fetches as the map moves.
///
/// - On-interaction cache: the tiles of the (buffered) view at the level its
///   scale chooses, minus those already covered for the table's filter, nearest
///   the view centre first, each through the host's gate. A tile whose answer
///   hit the transfer limit is split into four, up to `maxSplits` times, then
///   paged. A tile is covered only once its complete answer is in the cache;
///   a failure leaves it uncovered (the next interaction asks again). Tiles no
///   longer wanted when the view moves are cancelled.
/// - On-interaction no cache: the buffered view, every time, all pages; the
///   cache then holds exactly that view's features.
package final class InteractionFetcher: Sendable {
    /// Splits of a transfer-limited tile before its pieces are paged instead.
    package static let maxSplits = 3

    private struct Job {
        let id: UInt64
        let task: Task<Void, Never>
    }

    private struct State {
        var coverage = TileCoverage()
        var jobs: [TileKey: Job] = [:]
        var viewJob: Job?
        var nextJobId: UInt64 = 0
        /// Bumped when the mode or the filter changes: answers of older jobs are dropped.
        var generation: UInt64 = 0
        /// The current view's tiles and their ancestors: never evicted for the
        /// budget (nor the pieces of split view tiles).
        var viewTiles: Set<TileKey> = []
        var viewAncestors: Set<TileKey> = []
        var lastError: FeatureCacheError?
        /// The finest level a transfer-limited tile was split to: later views
        /// start there, instead of paying again for answers that get split.
        var learnedLevel = 0
    }

    private let state = Locked(State())
    /// Jobs running now.
    package let idle = IdleTracker()

    // MARK: - Views

    /// The map settled on a view `visibleWidth` wide (map units) at `scale`,
    /// which needs `area` (table spatial reference, buffer applied).
    package func show(_ area: BoundingBox, visibleWidth: Double, scale: Double, table: FeatureTable) {
        guard let grid = table.tileGrid else { return }
        switch table.requestMode {
        case .manualCache: return
        case .onInteractionNoCache: fetchView(area, tolerance: grid.unitsPerPixel(scale: scale) ?? 0, table: table)
        case .onInteractionCache: fetchTiles(area, visibleWidth: visibleWidth, scale: scale, grid: grid, table: table)
        }
    }

    private func fetchTiles(_ area: BoundingBox, visibleWidth: Double, scale: Double, grid: TileGrid, table: FeatureTable) {
        let limits = table.context.settings.limits
        let wantedLevel = max(grid.level(scale: scale, viewWidth: visibleWidth), state.withLock { $0.learnedLevel })
        // A scale finer than the view can be fetched at tile by tile is fetched
        // at the finest level whose tiles fit the cap (each tile bigger).
        let level = grid.level(wantedLevel, coarsenedToFit: area, maxTiles: limits.maxTilesPerView)
        let budget = ViewRequestBudget(limits.maxRequestsPerView)
        let cx = (area.xmin + area.xmax) / 2, cy = (area.ymin + area.ymax) / 2
        let keys = grid.tiles(overlapping: area, level: level).sorted { a, b in
            distance(grid.bounds(a), cx, cy) < distance(grid.bounds(b), cx, cy)
        }
        let signature = table.filterSignature
        // With a known scale, tiles are generalized to their level's pixel
        // (about the view's: a level's tiles span 256 to 1,024 of its pixels),
        // so views of one level share them, and a zoom past the level fetches
        // again. Without one, tiles come exact and any coverage answers.
        let quantize = grid.unitsPerPixel(scale: scale) != nil
        let tolerance = quantize ? grid.tolerance(level) : .infinity
        let wanted = Set(keys)
        var cancelled: [Task<Void, Never>] = []
        state.withLock { state in
            var ancestors = Set<TileKey>()
            for key in keys {
                var ancestor = key.parent
                while let current = ancestor, ancestors.insert(current).inserted { ancestor = current.parent }
            }
            state.viewTiles = wanted
            state.viewAncestors = ancestors
            for (key, job) in state.jobs where !wanted.contains(key) && !wanted.contains(where: { $0.isAncestor(of: key) }) {
                cancelled.append(job.task)
                state.jobs[key] = nil
            }
            let generation = state.generation
            // Partly covered tiles (finer tiles of an earlier zoom) fetch only their gaps.
            let pieces = keys.flatMap { state.coverage.missingPieces(of: $0, signature: signature, tolerance: tolerance) }
            for key in pieces where state.jobs[key] == nil {
                state.nextJobId += 1
                let id = state.nextJobId
                idle.begin()
                let task = Task.detached { [self] in
                    await fetchTile(
                        key, splits: 0, grid: grid, signature: signature, generation: generation, table: table,
                        budget: budget, quantize: quantize)
                    self.state.withLock { state in
                        if state.jobs[key]?.id == id { state.jobs[key] = nil }
                    }
                    idle.end()
                }
                state.jobs[key] = Job(id: id, task: task)
            }
        }
        for task in cancelled { task.cancel() }
    }

    /// Fetches one tile (quarters, when the service caps its answer), at its
    /// level's tolerance when `quantize`, so coverage and tolerance agree
    /// whichever view asked for it.
    private func fetchTile(
        _ key: TileKey, splits: Int, grid: TileGrid, signature: String, generation: UInt64,
        table: FeatureTable, budget: ViewRequestBudget, quantize: Bool
    ) async {
        do throws(FeatureCacheError) {
            try budget.take()
            // Kept stale with its validators: asked again conditionally first.
            if let validators = state.withLock({ $0.coverage.staleValidators(key, signature: signature) }),
                let renewed = try await table.revalidate(validators)
            {
                state.withLock { state in
                    guard state.generation == generation, !Task.isCancelled else { return }
                    state.coverage.renew(key, signature: signature, received: renewed)
                }
                table.statistics.update { $0.tilesRevalidated += 1 }
                return
            }
            var (fetched, answers, validators) = try await FreshnessCollector.collecting { () async throws(FeatureCacheError) in
                try await table.fetchArea(
                    grid.bounds(key), maxPages: splits < Self.maxSplits ? 1 : nil,
                    tolerance: quantize ? grid.tolerance(key.level) : 0)
            }
            guard fetched.complete else {
                // Too many features for one answer: the four quarters instead,
                // and the finer level from now on.
                state.withLock { $0.learnedLevel = max($0.learnedLevel, key.level + 1) }
                let cx = grid.bounds(key), x = (cx.xmin + cx.xmax) / 2, y = (cx.ymin + cx.ymax) / 2
                await withTaskGroup(of: Void.self) { group in
                    for child in key.children.sorted(by: { distance(grid.bounds($0), x, y) < distance(grid.bounds($1), x, y) }) {
                        group.addTask { [self] in
                            await fetchTile(
                                child, splits: splits + 1, grid: grid, signature: signature, generation: generation,
                                table: table, budget: budget, quantize: quantize)
                        }
                    }
                }
                return
            }
            fetched.compact()  // outside the lock: it copies every row
            let change = state.withLock { state -> FeatureTable.CacheChange? in
                guard state.generation == generation, !Task.isCancelled else { return nil }
                var change = table.write(fetched, replacing: false)
                let released = state.coverage.cover(
                    key, signature: signature, ids: fetched.objectIds, tolerance: fetched.geometryTolerance,
                    received: TileCoverage.Received(answers, validators: validators))
                // A tile fetched again (it was stale and changed): what it no
                // longer has, and nothing else holds, is gone from the service.
                if !released.isEmpty { table.store.remove(released, recording: &change.delta) }
                let evicted = enforceBudget(&state, table: table)
                table.statistics.update { stats in
                    stats.tilesFetched += 1
                    stats.evictions += evicted
                }
                return change
            }
            if let change { table.announce(change) }
        } catch {
            guard error.code != .cancelled else { return }
            state.withLock { $0.lastError = error }
            table.statistics.update { $0.tileFailures += 1 }
        }
    }

    /// Evicts least recently used tiles outside the current view until the cache
    /// fits its budget; returns how many were evicted. Not when the table
    /// moves what its budget cannot hold to its cache folder instead: then
    /// nothing leaves the cache, so nothing is fetched again.
    private func enforceBudget(_ state: inout State, table: FeatureTable) -> Int {
        let budget = table.cacheBudget
        guard budget > 0, !table.spillsToDisk else { return 0 }
        var evicted = 0
        let viewTiles = state.viewTiles, viewAncestors = state.viewAncestors
        while table.store.byteSize > budget {
            guard
                let released = state.coverage.evictLeastRecent(keeping: { key in
                    // The current view's tiles, their ancestors and their pieces stay.
                    if viewAncestors.contains(key) { return true }
                    var current: TileKey? = key
                    while let k = current {
                        if viewTiles.contains(k) { return true }
                        current = k.parent
                    }
                    return false
                })
            else { break }
            table.store.remove(released)
            evicted += 1
        }
        return evicted
    }

    private func fetchView(_ area: BoundingBox, tolerance: Double, table: FeatureTable) {
        state.withLock { state in
            state.viewJob?.task.cancel()
            state.nextJobId += 1
            let id = state.nextJobId, generation = state.generation
            idle.begin()
            let task = Task.detached { [self] in
                do throws(FeatureCacheError) {
                    var fetched = try await table.fetchArea(area, maxPages: nil, tolerance: tolerance)
                    fetched.compact()  // outside the lock: it copies every row
                    let change = self.state.withLock { state -> FeatureTable.CacheChange? in
                        // Only the latest view replaces the cache.
                        guard state.generation == generation, state.viewJob?.id == id, !Task.isCancelled else { return nil }
                        return table.write(fetched, replacing: true)
                    }
                    if let change { table.announce(change) }
                } catch {
                    if error.code != .cancelled {
                        self.state.withLock { $0.lastError = error }
                        table.statistics.update { $0.tileFailures += 1 }
                    }
                }
                self.state.withLock { state in
                    if state.viewJob?.id == id { state.viewJob = nil }
                }
                idle.end()
            }
            state.viewJob = Job(id: id, task: task)
        }
    }

    // MARK: - Coverage

    /// Whether `area` is covered for `signature` (and marks its tiles used).
    package func covers(_ area: BoundingBox, grid: TileGrid, signature: String) -> Bool {
        state.withLock { $0.coverage.covers(area, grid: grid, signature: signature) }
    }

    /// Whether a table query's complete answer recorded for `signature` spans `area`.
    package func coversAnswered(_ area: BoundingBox, signature: String) -> Bool {
        state.withLock { $0.coverage.coversAnswered(area, signature: signature) }
    }

    /// The fetches now in force: an answer fetched under an older generation
    /// (the filter changed, the cache was cleared) is not recorded.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Records a table query's complete answer over `area`, merged into the
    /// cache, when nothing changed meanwhile: the same generation, and every
    /// feature still cached (an eviction between the merge and now would make
    /// the area incomplete). Then keeps the cache within its budget.
    package func recordAnswered(
        _ area: BoundingBox, signature: String, ids: [Int64], received: TileCoverage.Received, generation: UInt64,
        table: FeatureTable
    ) {
        state.withLock { state in
            guard state.generation == generation, table.store.containsAll(ids) else { return }
            table.store.remove(state.coverage.coverArea(area, signature: signature, ids: ids, received: received))
            let evicted = enforceBudget(&state, table: table)
            table.statistics.update { $0.evictions += evicted }
        }
    }

    /// Features a manual populate brought in stay whatever the budget.
    package func pin(_ ids: [Int64]) {
        state.withLock { $0.coverage.pin(ids) }
    }

    /// The last error of an interaction fetch, if any.
    package var lastError: FeatureCacheError? { state.withLock { $0.lastError } }

    /// Cancels everything in flight and drops late answers; `resetCoverage`
    /// forgets every covered tile too.
    package func restart(resetCoverage: Bool) {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.generation += 1
            let tasks = state.jobs.values.map(\.task) + (state.viewJob.map { [$0.task] } ?? [])
            state.jobs.removeAll()
            state.viewJob = nil
            if resetCoverage { state.coverage.reset() }
            return tasks
        }
        for task in tasks { task.cancel() }
    }

    /// The filter changed: cancel, forget coverage of other filters and drop
    /// the features only they held.
    package func filterChanged(to signature: String, table: FeatureTable) {
        keepCoverage(of: signature, table: table)
    }

    /// Cancels, forgets the coverage of every signature but `signature`, and
    /// drops the features only that coverage held.
    private func keepCoverage(of signature: String, table: FeatureTable) {
        restart(resetCoverage: false)
        state.withLock { state -> Void in
            _ = table.store.remove(state.coverage.keepOnly(signature: signature))
        }
    }

    /// The budget changed: evict down to it now.
    package func budgetChanged(table: FeatureTable) {
        state.withLock { state in
            let evicted = enforceBudget(&state, table: table)
            table.statistics.update { $0.evictions += evicted }
        }
    }

    /// The coverage and the store's batches as one consistent state (both are
    /// changed together under this fetcher's lock), for a persisted cache.
    package func persistedState(store: FeatureStore) -> (TileCoverage, [(slot: BatchSlot, live: Bitmap?)]) {
        state.withLock { state in (state.coverage, store.persistedEntries()) }
    }

    /// Coverage read back from a persisted cache.
    package func restore(_ coverage: TileCoverage) {
        state.withLock { $0.coverage = coverage }
    }

    /// What the cache holds of the service, as far as its coverage says.
    package enum Holdings { case nothing, tilesOnly, pinned }

    package var holdings: Holdings {
        state.withLock { state in
            state.coverage.hasPins ? .pinned : state.coverage.isEmpty ? .nothing : .tilesOnly
        }
    }

    /// Forgets every covered tile and answered area (their data changed on
    /// the service) and drops the features only they held; pins stay.
    package func dropCoverage(table: FeatureTable) {
        keepCoverage(of: TileCoverage.noSignature, table: table)
        // A view's tile may have held the id of a feature edited here.
        table.restoreEdits()
    }

    /// The tiles covered now (for the statistics).
    package var coveredTiles: Int { state.withLock { $0.coverage.count } }
}

/// Distance from a point to a box's centre.
private func distance(_ box: BoundingBox, _ x: Double, _ y: Double) -> Double {
    let dx = (box.xmin + box.xmax) / 2 - x, dy = (box.ymin + box.ymax) / 2 - y
    return dx * dx + dy * dy
}

/// The tile requests one view may still send (its tiles and their splits),
/// shared by the view's fetch tasks. Past it a tile fails with `.limit` and
/// stays uncovered, asked for again on the next view.
package final class ViewRequestBudget: Sendable {
    private let remaining: Locked<Int>
    private let limit: Int

    package init(_ limit: Int) {
        self.limit = limit
        remaining = Locked(limit)
    }

    package func take() throws(FeatureCacheError) {
        let granted = remaining.withLock { remaining -> Bool in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
        guard granted else {
            throw FeatureCacheError(
                .limit,
                "the view needs more than \(limit) tile requests (the context's max_requests_per_view); the rest are asked for on the next view"
            )
        }
    }
}
