#if canImport(Glibc)
import Glibc
#endif

/// A tile of the interaction grid: level 0 is the whole grid, each level halves
/// the tile size; x grows east and y north from the grid's lower-left corner.
struct TileKey: Hashable, Sendable, CustomStringConvertible {
    let level: Int
    let x: Int
    let y: Int

    var children: [TileKey] {
        [TileKey(level: level + 1, x: 2 * x, y: 2 * y), TileKey(level: level + 1, x: 2 * x + 1, y: 2 * y),
         TileKey(level: level + 1, x: 2 * x, y: 2 * y + 1), TileKey(level: level + 1, x: 2 * x + 1, y: 2 * y + 1)]
    }

    var parent: TileKey? { level == 0 ? nil : TileKey(level: level - 1, x: x >> 1, y: y >> 1) }

    var description: String { "\(level)/\(x)/\(y)" }

    /// Whether `other` lies inside this tile at a finer level.
    func isAncestor(of other: TileKey) -> Bool {
        guard other.level > level else { return false }
        let shift = other.level - level
        return other.x >> shift == x && other.y >> shift == y
    }
}

/// The fixed tile grid of a table: a square over the table's full extent,
/// quartered level by level. The level for a view comes from the map scale, so
/// the same view always asks for the same tiles, neighbouring views share tiles,
/// and servers and proxies see the same URLs again.
struct TileGrid: Sendable, Equatable {
    static let maxLevel = 24
    /// Screen pixels a tile spans at the scale it is chosen for.
    static let tilePixels = 512.0

    let xmin: Double
    let ymin: Double
    /// The side of the level-0 tile.
    let size: Double
    /// Map units are degrees (else metres).
    let geographic: Bool

    /// - Parameter extent: the table's full extent, in its spatial reference.
    init(extent: BoundingBox, geographic: Bool) {
        // A little margin so features on the extent's edge are inside the grid.
        let side = max(extent.xmax - extent.xmin, extent.ymax - extent.ymin)
        let margin = side > 0 ? side * 0.001 : 1
        xmin = extent.xmin - margin
        ymin = extent.ymin - margin
        size = side + 2 * margin
        self.geographic = geographic
    }

    func tileSize(_ level: Int) -> Double { size / Double(1 << level) }

    func bounds(_ key: TileKey) -> BoundingBox {
        let side = tileSize(key.level)
        return BoundingBox(xmin + Double(key.x) * side, ymin + Double(key.y) * side,
                           xmin + Double(key.x + 1) * side, ymin + Double(key.y + 1) * side)
    }

    var root: BoundingBox { bounds(TileKey(level: 0, x: 0, y: 0)) }

    /// The level whose tiles span about `tilePixels` screen pixels at `scale`
    /// (a scale denominator, 96 dpi). Scale 0: tiles half as wide as the view.
    func level(scale: Double, viewWidth: Double) -> Int {
        let target: Double
        if scale > 0 {
            let metresPerPixel = scale * 0.0254 / 96
            target = Self.tilePixels * (geographic ? metresPerPixel / 111_319.490_793 : metresPerPixel)
        } else {
            target = viewWidth / 2
        }
        guard target > 0 else { return Self.maxLevel }
        return min(max(Int(log2(size / target).rounded()), 0), Self.maxLevel)
    }

    /// The tiles of `level` that overlap `area` (tiles it only touches are left out).
    func tiles(overlapping area: BoundingBox, level: Int) -> [TileKey] {
        let side = tileSize(level), count = 1 << level
        func range(_ low: Double, _ high: Double, _ origin: Double) -> ClosedRange<Int> {
            let first = Int(((low - origin) / side).rounded(.down))
            var last = Int(((high - origin) / side).rounded(.up)) - 1
            last = max(last, first)
            return max(first, 0)...max(min(last, count - 1), max(first, 0))
        }
        guard area.intersects(root) else { return [] }
        var keys: [TileKey] = []
        for y in range(area.ymin, area.ymax, ymin) {
            for x in range(area.xmin, area.xmax, xmin) { keys.append(TileKey(level: level, x: x, y: y)) }
        }
        return keys
    }
}
