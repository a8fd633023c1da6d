// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// Which tiles have their complete answer in the cache, per filter signature
/// (definition expression + out fields), and what the memory budget needs:
/// the features each tile brought, how many covered tiles hold each feature,
/// which features are pinned (a manual populate brought them), and when each
/// tile was last used, and how generalized its geometry is (a quantized tile
/// answers views down to half its tolerance, within a pixel, not a zoom past
/// that; for which features there are, it answers any). Besides tiles, the areas whose complete answer a table
/// query brought (any box, per signature and where clause): the same query
/// asked again is answered from the cache. Each tile and area keeps when its
/// answer came and until when the server said it stays fresh, so a reopened
/// cache drops only what aged (`dropExpired`).
package struct TileCoverage {
    /// When an answer came (epoch milliseconds) and until when its server
    /// said it stays fresh (nil: it did not say).
    package struct Received: Sendable, Equatable {
        package var at: Int64
        package var freshUntil: Int64?
        /// What asks the answers again conditionally (a 304 renews them
        /// without a body); nil when some answer had no validator.
        package var validators: [AnswerValidator]?

        package init(at: Int64 = DateText.now, freshUntil: Int64? = nil, validators: [AnswerValidator]? = nil) {
            self.at = at
            self.freshUntil = freshUntil
            self.validators = validators
        }

        /// Received now, with the freshness and validators of the answers that brought it.
        package init(_ answers: AnswerFreshness, validators: [AnswerValidator]? = nil) {
            self.init(freshUntil: answers.vouchedUntil, validators: validators)
        }

        /// Whether it can be asked again conditionally.
        var canRevalidate: Bool { !(validators?.isEmpty ?? true) }
    }

    private struct Tile {
        var ids: [Int64]
        var lastUsed: UInt64
        /// The quantization tolerance its geometry came at (0 = exact).
        var tolerance: Double
        var received: Received
        /// Past its freshness and time-to-live when the cache was read back,
        /// kept with its validators: its features answer, but a view asks
        /// the service again (conditionally) before the tile covers anything.
        var stale = false

        /// Whether it serves views whose pixel is `needed`: snapping moves a
        /// vertex by at most half the tolerance on each axis, so a tile is
        /// within a pixel of views down to half its tolerance.
        func answers(_ needed: Double) -> Bool { !stale && tolerance <= 2 * needed }
    }
    private struct Area {
        var box: BoundingBox
        var ids: [Int64]
        var lastUsed: UInt64
        var received: Received
    }
    private var tiles: [String: [TileKey: Tile]] = [:]
    private var areas: [String: [Area]] = [:]
    /// Answered areas kept per signature (the least recently used go first): bounds lookups.
    package static let maxAreasPerSignature = 32
    /// For every ancestor of a covered tile: how many covered tiles lie below it
    /// (so a coverage check descends only where something is covered).
    private var below: [String: [TileKey: Int]] = [:]
    private var references: [Int64: Int] = [:]
    private var pinned: Set<Int64> = []
    /// Pins read back from a persisted cache, not yet in `pinned`: hashing a
    /// million of them would cost a reopen ~70 ms before its first query, and
    /// they are only needed when something is released (eviction, a filter change).
    private var restoredPins: [Int64] = []
    private var clock: UInt64 = 0

    package var count: Int { tiles.values.reduce(0) { $0 + $1.count } }

    /// No tile and no answered area (pins aside).
    package var isEmpty: Bool { tiles.values.allSatisfy(\.isEmpty) && areas.values.allSatisfy(\.isEmpty) }

    package mutating func reset() { self = TileCoverage() }

    package func contains(_ key: TileKey, signature: String) -> Bool { tiles[signature]?[key] != nil }

    /// Records a tile's complete answer, its geometry generalized to `tolerance`.
    /// Returns the features the tile held before and nothing holds now.
    @discardableResult
    package mutating func cover(
        _ key: TileKey, signature: String, ids: [Int64], tolerance: Double = 0, received: Received = Received()
    ) -> [Int64] {
        clock += 1
        var released: [Int64] = []
        if let old = tiles[signature]?[key] {
            for id in ids { references[id, default: 0] += 1 }  // kept ones are not released on the way
            released = release(old.ids)
            for id in ids { references[id]! -= 1 }
        } else {
            var ancestor = key.parent
            while let current = ancestor {
                below[signature, default: [:]][current, default: 0] += 1
                ancestor = current.parent
            }
        }
        tiles[signature, default: [:]][key] = Tile(ids: ids, lastUsed: clock, tolerance: tolerance, received: received)
        for id in ids { references[id, default: 0] += 1 }
        return released
    }

    /// The validators of a tile kept stale for revalidation; nil when it is
    /// not such a tile.
    package func staleValidators(_ key: TileKey, signature: String) -> [AnswerValidator]? {
        guard let tile = tiles[signature]?[key], tile.stale else { return nil }
        return tile.received.validators
    }

    /// A stale tile the service said is unchanged (every page a 304): it
    /// covers again, received now.
    package mutating func renew(_ key: TileKey, signature: String, received: Received) {
        guard tiles[signature]?[key] != nil else { return }
        clock += 1
        tiles[signature]![key]!.stale = false
        tiles[signature]![key]!.received = received
        tiles[signature]![key]!.lastUsed = clock
    }

    /// Records the complete answer of a query over `box` (signature: the filter
    /// and the query's where clause); returns the features an area dropped for
    /// room no longer holds (to drop from the cache).
    package mutating func coverArea(
        _ box: BoundingBox, signature: String, ids: [Int64], received: Received = Received()
    ) -> [Int64] {
        clock += 1
        for id in ids { references[id, default: 0] += 1 }
        areas[signature, default: []].append(Area(box: box, ids: ids, lastUsed: clock, received: received))
        guard let list = areas[signature], list.count > Self.maxAreasPerSignature,
            let oldest = list.indices.min(by: { list[$0].lastUsed < list[$1].lastUsed })
        else { return [] }
        return release(areas[signature]!.remove(at: oldest).ids)
    }

    /// Whether a recorded answer of `signature` spans `area` (and marks it used).
    package mutating func coversAnswered(_ area: BoundingBox, signature: String) -> Bool {
        guard
            let index = areas[signature]?.firstIndex(where: { box in
                box.box.xmin <= area.xmin && area.xmax <= box.box.xmax && box.box.ymin <= area.ymin && area.ymax <= box.box.ymax
            })
        else { return false }
        clock += 1
        areas[signature]![index].lastUsed = clock
        return true
    }

    /// Features a manual populate brought in: never evicted.
    package mutating func pin(_ ids: [Int64]) {
        settlePins()
        pinned.formUnion(ids)
    }

    private mutating func settlePins() {
        guard !restoredPins.isEmpty else { return }
        pinned.formUnion(restoredPins)
        restoredPins = []
    }

    /// Whether every part of `area` lies in covered tiles (of any level) whose
    /// geometry is within `tolerance` (infinity: which features, whatever their
    /// geometry). Marks the tiles used as recently used.
    package mutating func covers(_ area: BoundingBox, grid: TileGrid, signature: String, tolerance: Double = .infinity) -> Bool {
        guard let covered = tiles[signature] else { return false }
        let root = grid.root
        guard area.intersects(root) else { return true }  // outside the data's extent: nothing to fetch
        clock += 1
        var used: [TileKey] = []
        let result = covers(TileKey(level: 0, x: 0, y: 0), area, grid, covered, below[signature] ?? [:], tolerance, &used)
        if result { for key in used { tiles[signature]![key]!.lastUsed = clock } }
        return result
    }

    private func covers(
        _ key: TileKey, _ area: BoundingBox, _ grid: TileGrid, _ covered: [TileKey: Tile],
        _ below: [TileKey: Int], _ tolerance: Double, _ used: inout [TileKey]
    ) -> Bool {
        if let tile = covered[key], tile.answers(tolerance) {
            used.append(key)
            return true
        }
        guard below[key] != nil, key.level < TileGrid.maxLevel else { return false }
        for child in key.children where overlaps(grid.bounds(child), area) {
            if !covers(child, area, grid, covered, below, tolerance, &used) { return false }
        }
        return true
    }

    /// What of tile `key` still needs fetching for a view of pixel size
    /// `tolerance`: nothing when covered fine enough; the tile itself when
    /// nothing under it is; else its uncovered pieces (so zooming out fetches
    /// only what finer tiles did not bring, and zooming in past a generalized
    /// tile fetches it again).
    package func missingPieces(of key: TileKey, signature: String, tolerance: Double = .infinity) -> [TileKey] {
        guard let covered = tiles[signature] else { return [key] }
        var ancestor: TileKey? = key
        while let current = ancestor {
            if let tile = covered[current], tile.answers(tolerance) { return [] }
            ancestor = current.parent
        }
        let below = self.below[signature] ?? [:]
        func pieces(_ key: TileKey) -> [TileKey] {
            if let tile = covered[key], tile.answers(tolerance) { return [] }
            guard below[key] != nil, key.level < TileGrid.maxLevel else { return [key] }
            return key.children.flatMap(pieces)
        }
        return pieces(key)
    }

    /// Positive-area overlap (a degenerate area: closed overlap), so an area on
    /// a tile edge does not need the neighbour.
    private func overlaps(_ tile: BoundingBox, _ area: BoundingBox) -> Bool {
        let x = area.xmin == area.xmax ? tile.xmin <= area.xmax && area.xmin <= tile.xmax : tile.xmin < area.xmax && area.xmin < tile.xmax
        let y = area.ymin == area.ymax ? tile.ymin <= area.ymax && area.ymin <= tile.ymax : tile.ymin < area.ymax && area.ymin < tile.ymax
        return x && y
    }

    /// Removes the least recently used covered tile `keep` does not protect, or
    /// answered area if older; returns the features no covered tile, area or
    /// pin holds any more (to drop from the cache).
    package mutating func evictLeastRecent(keeping keep: (TileKey) -> Bool) -> [Int64]? {
        var oldest: (signature: String, key: TileKey, used: UInt64)? = nil
        for (signature, byKey) in tiles {
            for (key, tile) in byKey where tile.lastUsed < (oldest?.used ?? .max) && !keep(key) {
                oldest = (signature, key, tile.lastUsed)
            }
        }
        var oldestArea: (signature: String, index: Int, used: UInt64)? = nil
        for (signature, list) in areas {
            for (index, area) in list.enumerated() where area.lastUsed < (oldestArea?.used ?? .max) {
                oldestArea = (signature, index, area.lastUsed)
            }
        }
        if let area = oldestArea, area.used < (oldest?.used ?? .max) {
            return release(areas[area.signature]!.remove(at: area.index).ids)
        }
        guard let oldest, let tile = removeTile(oldest.key, signature: oldest.signature) else { return nil }
        return release(tile.ids)
    }

    /// Takes a tile out, and its count out of its ancestors'.
    private mutating func removeTile(_ key: TileKey, signature: String) -> Tile? {
        guard let tile = tiles[signature]?.removeValue(forKey: key) else { return nil }
        var ancestor = key.parent
        while let current = ancestor {
            below[signature]![current]! -= 1
            if below[signature]![current] == 0 { below[signature]![current] = nil }
            ancestor = current.parent
        }
        return tile
    }

    /// What `dropExpired` kept and dropped.
    package struct Aging: Sendable, Equatable {
        /// Features nothing holds any more (to drop from the cache).
        package var released: [Int64] = []
        /// Tiles and areas kept because their server says they are still fresh…
        package var fresh = 0
        /// …because they are younger than the time-to-live…
        package var young = 0
        /// …and dropped.
        package var dropped = 0
        /// …or kept stale, to be asked again conditionally (they had validators).
        package var stale = 0
    }

    /// Drops the tiles and areas neither fresh by their server's word at `now`
    /// nor younger than `timeToLive` seconds (epoch milliseconds).
    package mutating func dropExpired(now: Int64, timeToLive: Double) -> Aging {
        var aging = Aging()
        func kept(_ received: Received) -> Bool {
            if let until = received.freshUntil, now < until {
                aging.fresh += 1
                return true
            }
            if Double(now - received.at) <= timeToLive * 1000 {
                aging.young += 1
                return true
            }
            aging.dropped += 1
            return false
        }
        for (signature, byKey) in tiles {
            for (key, tile) in byKey where !kept(tile.received) {
                if tile.received.canRevalidate {
                    aging.dropped -= 1
                    aging.stale += 1
                    tiles[signature]![key]!.stale = true
                    continue
                }
                _ = removeTile(key, signature: signature)
                aging.released += release(tile.ids)
            }
            if tiles[signature]?.isEmpty == true { tiles[signature] = nil }
        }
        for (signature, list) in areas {
            var keptAreas: [Area] = []
            for area in list {
                if kept(area.received) { keptAreas.append(area) } else { aging.released += release(area.ids) }
            }
            areas[signature] = keptAreas.isEmpty ? nil : keptAreas
        }
        return aging
    }

    /// Drops one reference to each id; returns those now unreferenced and unpinned.
    @discardableResult
    private mutating func release(_ ids: [Int64]) -> [Int64] {
        settlePins()
        var released: [Int64] = []
        for id in ids {
            guard let count = references[id] else { continue }
            if count <= 1 {
                references[id] = nil
                if !pinned.contains(id) { released.append(id) }
            } else {
                references[id] = count - 1
            }
        }
        return released
    }

    /// Forgets coverage under other signatures (after the filter changed);
    /// returns the features no tile, area or pin holds any more.
    package mutating func keepOnly(signature: String) -> [Int64] {
        var released: [Int64] = []
        for other in tiles.keys where other != signature {
            for tile in tiles[other]!.values { released += release(tile.ids) }
            tiles[other] = nil
            below[other] = nil
        }
        for other in areas.keys where !Self.isAnswer(other, of: signature) {
            for area in areas[other]! { released += release(area.ids) }
            areas[other] = nil
        }
        return released
    }

    /// The signature of the answers of queries with `whereClause` under the table's `signature`.
    package static func answerSignature(_ signature: String, whereClause: String) -> String {
        signature + "\u{1}" + whereClause
    }

    private static func isAnswer(_ answer: String, of signature: String) -> Bool {
        answer.hasPrefix(signature + "\u{1}")
    }
}

// MARK: - Persisted

extension TileCoverage {
    /// The coverage in a cache file: per signature its tiles (key, tolerance,
    /// last use, feature ids) and answered areas, the pinned ids and the clock.
    /// What is derived (tiles below each ancestor, references) is rebuilt on reading.
    package func write(to out: inout BinaryWriter) {
        out.u64(clock)
        out.u32(UInt32(tiles.count))
        for (signature, byKey) in tiles.sorted(by: { $0.key < $1.key }) {
            out.string(signature)
            out.u32(UInt32(byKey.count))
            for (key, tile) in byKey {
                out.int(key.level)
                out.int(key.x)
                out.int(key.y)
                out.f64(tile.tolerance)
                out.u64(tile.lastUsed)
                tile.received.write(to: &out)
                out.buffer(tile.ids)
            }
        }
        out.u32(UInt32(areas.count))
        for (signature, list) in areas.sorted(by: { $0.key < $1.key }) {
            out.string(signature)
            out.u32(UInt32(list.count))
            for area in list {
                for value in [area.box.xmin, area.box.ymin, area.box.xmax, area.box.ymax] { out.f64(value) }
                out.u64(area.lastUsed)
                area.received.write(to: &out)
                out.buffer(area.ids)
            }
        }
        out.buffer(Array(pinned) + restoredPins)
    }

    /// Reads what format `version` wrote (validators from format 2 on).
    package static func read(from input: inout BinaryReader, version: UInt32) throws(FeatureCacheError) -> TileCoverage {
        var coverage = TileCoverage()
        let clock = try input.u64()
        for _ in 0..<Int(try input.u32()) {
            let signature = try input.string()
            let count = Int(try input.u32())
            guard count <= input.remaining / 48 else { throw input.corrupt("\(count) tiles cannot fit") }
            for _ in 0..<count {
                let level = try input.int(limit: TileGrid.maxLevel), x = try input.int(limit: 1 << level),
                    y = try input.int(limit: 1 << level)
                let tolerance = try input.f64()
                let lastUsed = try input.u64()
                let received = try Received.read(from: &input, version: version)
                let ids = try input.buffer(of: Int64.self)
                guard x < 1 << level, y < 1 << level, tolerance >= 0 else { throw input.corrupt("tile \(level)/\(x)/\(y)") }
                let key = TileKey(level: level, x: x, y: y)
                coverage.cover(key, signature: signature, ids: ids, tolerance: tolerance, received: received)
                coverage.tiles[signature]![key]!.lastUsed = lastUsed
            }
        }
        for _ in 0..<Int(try input.u32()) {
            let signature = try input.string()
            let count = Int(try input.u32())
            guard count <= min(input.remaining / 48, maxAreasPerSignature) else { throw input.corrupt("\(count) answered areas") }
            for _ in 0..<count {
                var box = BoundingBox()
                let xmin = try input.f64(), ymin = try input.f64(), xmax = try input.f64(), ymax = try input.f64()
                box.add(xmin, ymin)
                box.add(xmax, ymax)
                let lastUsed = try input.u64()
                let received = try Received.read(from: &input, version: version)
                let ids = try input.buffer(of: Int64.self)
                for id in ids { coverage.references[id, default: 0] += 1 }
                coverage.areas[signature, default: []].append(Area(box: box, ids: ids, lastUsed: lastUsed, received: received))
            }
        }
        coverage.restoredPins = try input.buffer(of: Int64.self)
        coverage.clock = clock
        return coverage
    }

    /// Forgets every tile and answered area (their data changed on the
    /// service); returns the features nothing holds any more (pins still do).
    package mutating func dropAll() -> [Int64] {
        keepOnly(signature: Self.noSignature)
    }

    /// A signature no filter has: keeping only it keeps no coverage.
    package static let noSignature = "\u{0}"

    /// Whether a populate pinned features (read back from disk or not).
    package var hasPins: Bool { !pinned.isEmpty || !restoredPins.isEmpty }

    /// Every feature id a tile, area or pin holds.
    package var heldIds: Set<Int64> { pinned.union(restoredPins).union(references.keys) }
}

extension TileCoverage.Received {
    fileprivate func write(to out: inout BinaryWriter) {
        out.i64(at)
        out.optionalI64(freshUntil)
        AnswerValidator.write(validators, to: &out)
    }

    fileprivate static func read(from input: inout BinaryReader, version: UInt32) throws(FeatureCacheError) -> Self {
        let at = try input.i64()
        var received = Self(at: at, freshUntil: try input.optionalI64())
        guard version >= 2 else { return received }
        received.validators = try AnswerValidator.read(from: &input, limit: FreshnessCollector.maxValidators)
        return received
    }
}
