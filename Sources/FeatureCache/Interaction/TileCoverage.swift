/// Which tiles have their complete answer in the cache, per filter signature
/// (definition expression + out fields), and what the memory budget needs:
/// the features each tile brought, how many covered tiles hold each feature,
/// which features are pinned (a manual populate brought them), and when each
/// tile was last used.
struct TileCoverage {
    private struct Tile {
        var ids: [Int64]
        var lastUsed: UInt64
    }
    private var tiles: [String: [TileKey: Tile]] = [:]
    /// For every ancestor of a covered tile: how many covered tiles lie below it
    /// (so a coverage check descends only where something is covered).
    private var below: [String: [TileKey: Int]] = [:]
    private var references: [Int64: Int] = [:]
    private var pinned: Set<Int64> = []
    private var clock: UInt64 = 0

    var count: Int { tiles.values.reduce(0) { $0 + $1.count } }

    mutating func reset() { self = TileCoverage() }

    func contains(_ key: TileKey, signature: String) -> Bool { tiles[signature]?[key] != nil }

    /// Records a tile's complete answer.
    mutating func cover(_ key: TileKey, signature: String, ids: [Int64]) {
        clock += 1
        if let old = tiles[signature]?[key] { release(old.ids) }
        else {
            var ancestor = key.parent
            while let current = ancestor {
                below[signature, default: [:]][current, default: 0] += 1
                ancestor = current.parent
            }
        }
        tiles[signature, default: [:]][key] = Tile(ids: ids, lastUsed: clock)
        for id in ids { references[id, default: 0] += 1 }
    }

    /// Features a manual populate brought in: never evicted.
    mutating func pin(_ ids: [Int64]) { pinned.formUnion(ids) }

    /// Whether every part of `area` lies in covered tiles (of any level).
    /// Marks the tiles used as recently used.
    mutating func covers(_ area: BoundingBox, grid: TileGrid, signature: String) -> Bool {
        guard let covered = tiles[signature] else { return false }
        let root = grid.root
        guard area.intersects(root) else { return true }  // outside the data's extent: nothing to fetch
        clock += 1
        var used: [TileKey] = []
        let result = covers(TileKey(level: 0, x: 0, y: 0), area, grid, covered, below[signature] ?? [:], &used)
        if result { for key in used { tiles[signature]![key]!.lastUsed = clock } }
        return result
    }

    private func covers(_ key: TileKey, _ area: BoundingBox, _ grid: TileGrid, _ covered: [TileKey: Tile],
                        _ below: [TileKey: Int], _ used: inout [TileKey]) -> Bool {
        if covered[key] != nil {
            used.append(key)
            return true
        }
        guard below[key] != nil, key.level < TileGrid.maxLevel else { return false }
        for child in key.children where overlaps(grid.bounds(child), area) {
            if !covers(child, area, grid, covered, below, &used) { return false }
        }
        return true
    }

    /// What of tile `key` still needs fetching: nothing when covered; the tile
    /// itself when nothing under it is covered; else its uncovered pieces (so
    /// zooming out fetches only what finer tiles did not bring).
    func missingPieces(of key: TileKey, signature: String) -> [TileKey] {
        guard let covered = tiles[signature] else { return [key] }
        var ancestor: TileKey? = key
        while let current = ancestor {
            if covered[current] != nil { return [] }
            ancestor = current.parent
        }
        let below = self.below[signature] ?? [:]
        func pieces(_ key: TileKey) -> [TileKey] {
            if covered[key] != nil { return [] }
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

    /// Removes the least recently used covered tile `keep` does not protect; returns it and
    /// the features no covered tile or pin holds any more (to drop from the cache).
    mutating func evictLeastRecent(keeping keep: (TileKey) -> Bool) -> (key: TileKey, released: [Int64])? {
        var oldest: (signature: String, key: TileKey, used: UInt64)? = nil
        for (signature, byKey) in tiles {
            for (key, tile) in byKey where tile.lastUsed < (oldest?.used ?? .max) && !keep(key) {
                oldest = (signature, key, tile.lastUsed)
            }
        }
        guard let oldest, let tile = tiles[oldest.signature]?.removeValue(forKey: oldest.key) else { return nil }
        var ancestor = oldest.key.parent
        while let current = ancestor {
            below[oldest.signature]![current]! -= 1
            if below[oldest.signature]![current] == 0 { below[oldest.signature]![current] = nil }
            ancestor = current.parent
        }
        return (oldest.key, release(tile.ids))
    }

    /// Drops one reference to each id; returns those now unreferenced and unpinned.
    @discardableResult
    private mutating func release(_ ids: [Int64]) -> [Int64] {
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
    /// returns the features no tile or pin holds any more.
    mutating func keepOnly(signature: String) -> [Int64] {
        var released: [Int64] = []
        for other in tiles.keys where other != signature {
            for tile in tiles[other]!.values { released += release(tile.ids) }
            tiles[other] = nil
            below[other] = nil
        }
        return released
    }
}
