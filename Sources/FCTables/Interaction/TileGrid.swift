// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

#if canImport(Glibc)
import Glibc
#endif

/// A tile of the interaction grid: level 0 is the whole grid, each level halves
/// the tile size; x grows east and y north from the grid's lower-left corner.
package struct TileKey: Hashable, Sendable, CustomStringConvertible {
    package let level: Int
    package let x: Int
    package let y: Int

    package var children: [TileKey] {
        [
            TileKey(level: level + 1, x: 2 * x, y: 2 * y), TileKey(level: level + 1, x: 2 * x + 1, y: 2 * y),
            TileKey(level: level + 1, x: 2 * x, y: 2 * y + 1), TileKey(level: level + 1, x: 2 * x + 1, y: 2 * y + 1),
        ]
    }

    package var parent: TileKey? { level == 0 ? nil : TileKey(level: level - 1, x: x >> 1, y: y >> 1) }

    package var description: String { "\(level)/\(x)/\(y)" }

    /// Whether `other` lies inside this tile at a finer level.
    package func isAncestor(of other: TileKey) -> Bool {
        guard other.level > level else { return false }
        let shift = other.level - level
        return other.x >> shift == x && other.y >> shift == y
    }
}

/// The fixed tile grid of a table: a square over the table's full extent,
/// quartered level by level. The level for a view comes from the map scale, so
/// the same view always asks for the same tiles, neighbouring views share tiles,
/// and servers and proxies see the same URLs again.
package struct TileGrid: Sendable, Equatable {
    package static let maxLevel = 24
    /// The screen pixels a tile spans, within which a quarter of the view's
    /// width is kept: smaller tiles would cost more in requests than they save
    /// in bytes, larger ones reach far past the view.
    package static let tilePixels = 256.0...1024.0

    package let xmin: Double
    package let ymin: Double
    /// The side of the level-0 tile.
    package let size: Double
    /// Map units are degrees (else metres).
    package let geographic: Bool

    /// - Parameter extent: the table's full extent, in its spatial reference.
    package init(extent: BoundingBox, geographic: Bool) {
        // A server's extent may be anything: coordinates are clamped to ±1e300
        // (no coordinate system comes near), so the grid's arithmetic stays finite.
        func clamp(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, -1e300), 1e300) }
        let (left, bottom, right, top) = (clamp(extent.xmin), clamp(extent.ymin), clamp(extent.xmax), clamp(extent.ymax))
        // A little margin so features on the extent's edge are inside the grid.
        let side = max(right - left, top - bottom)
        let margin = side > 0 ? side * 0.001 : 1
        xmin = left - margin
        ymin = bottom - margin
        size = side + 2 * margin
        self.geographic = geographic
    }

    package func tileSize(_ level: Int) -> Double { size / Double(1 << level) }

    package func bounds(_ key: TileKey) -> BoundingBox {
        let side = tileSize(key.level)
        return BoundingBox(
            xmin + Double(key.x) * side, ymin + Double(key.y) * side,
            xmin + Double(key.x + 1) * side, ymin + Double(key.y + 1) * side)
    }

    package var root: BoundingBox { bounds(TileKey(level: 0, x: 0, y: 0)) }

    /// The level whose tiles are about a quarter of the visible extent's width
    /// `viewWidth` (map units) at `scale` (a scale denominator, 96 dpi), kept
    /// within `tilePixels` screen pixels. A 1000-pixel view then needs about
    /// 4 × 3 tiles, and its buffer reaches little past what the view needs;
    /// bigger tiles fetched up to twice the bytes on the pan/zoom trace
    /// (BENCHMARKS.md). Scale 0 (no pixel size known): tiles as wide as the view.
    package func level(scale: Double, viewWidth: Double) -> Int {
        let target: Double
        if let unitsPerPixel = unitsPerPixel(scale: scale) {
            let quarterView = viewWidth / unitsPerPixel / 4
            let pixels =
                quarterView.isNaN
                ? Self.tilePixels.lowerBound
                : min(max(quarterView, Self.tilePixels.lowerBound), Self.tilePixels.upperBound)
            target = pixels * unitsPerPixel
        } else {
            target = viewWidth
        }
        let level = log2(size / target).rounded()
        guard level > 0 else { return 0 }  // also NaN
        return level < Double(Self.maxLevel) ? Int(level) : Self.maxLevel
    }

    /// Map units per screen pixel at `scale` (a scale denominator, 96 dpi;
    /// degrees at the equator for a geographic grid); nil for scale 0 (unknown).
    package func unitsPerPixel(scale: Double) -> Double? {
        guard scale > 0, scale.isFinite else { return nil }
        let metresPerPixel = scale * 0.0254 / 96
        return geographic ? metresPerPixel / 111_319.490_793 : metresPerPixel
    }

    /// The geometry tolerance tiles of `level` are fetched at (where the
    /// service can generalize): a 1,024th of the tile's side, at most about a
    /// screen pixel of the views that choose the level.
    package func tolerance(_ level: Int) -> Double { tileSize(level) / 1024 }

    /// The columns and rows of `level` that overlap `area` (tiles it only
    /// touches are left out); nil when it misses the grid. Safe for any area:
    /// positions are clamped to the grid before they become integers, so an
    /// extent of ±1e300 (or a scale that asks for the finest level) cannot trap.
    package func tileRange(overlapping area: BoundingBox, level: Int) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
        guard area.intersects(root) else { return nil }
        let side = tileSize(level), count = 1 << level
        func index(_ position: Double, rounding: FloatingPointRoundingRule) -> Int {
            let cell = position.rounded(rounding)
            guard cell > 0 else { return 0 }  // also NaN
            return cell < Double(count) ? Int(cell) : count
        }
        func range(_ low: Double, _ high: Double, _ origin: Double) -> ClosedRange<Int> {
            let first = min(index((low - origin) / side, rounding: .down), count - 1)
            let last = min(max(index((high - origin) / side, rounding: .up) - 1, first), count - 1)
            return first...last
        }
        return (range(area.xmin, area.xmax, xmin), range(area.ymin, area.ymax, ymin))
    }

    /// How many tiles of `level` overlap `area`.
    package func tileCount(overlapping area: BoundingBox, level: Int) -> Int {
        tileRange(overlapping: area, level: level).map { $0.x.count * $0.y.count } ?? 0
    }

    /// The tiles of `level` that overlap `area`.
    package func tiles(overlapping area: BoundingBox, level: Int) -> [TileKey] {
        guard let (columns, rows) = tileRange(overlapping: area, level: level) else { return [] }
        var keys: [TileKey] = []
        keys.reserveCapacity(columns.count * rows.count)
        for y in rows {
            for x in columns { keys.append(TileKey(level: level, x: x, y: y)) }
        }
        return keys
    }

    /// `level`, or the finest coarser one at which `area` needs at most `maxTiles` tiles.
    package func level(_ level: Int, coarsenedToFit area: BoundingBox, maxTiles: Int) -> Int {
        var level = level
        while level > 0, tileCount(overlapping: area, level: level) > maxTiles { level -= 1 }
        return level
    }
}
