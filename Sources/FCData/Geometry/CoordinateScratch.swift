// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Coordinates of one geometry as read from JSON, before its type is known
/// (GeoJSON may put `coordinates` before `type`): x/y pairs plus the ends of each
/// nesting level. Reused from feature to feature, so reading allocates nothing.
package struct CoordinateScratch {
    /// x0, y0, x1, y1, …
    package var xy: [Double] = []
    /// Innermost lists (a path, ring or point list): end index, in points.
    package var listEnds: [Int] = []
    /// Lists of lists (a polygon's rings): end index, in `listEnds`.
    package var groupEnds: [Int] = []
    /// 1 = a position, 2 = a list of positions, 3 = list of lists, 4 = list of those.
    package var depth = 0
    /// Whether `null` may stand for an ordinate after x and y (a missing Z or M):
    /// Esri JSON only, where ArcGIS Online writes a Z+M vertex without a measure
    /// as `[x, y, z, null]`. GeoJSON positions stay numbers (RFC 7946).
    package var nullOrdinatesAfterXY = false
    /// The ordinates the reader keeps beyond x and y, as the response declares
    /// them (Esri `hasZ`/`hasM`); `layout` starts as this for each geometry.
    package var declared = VertexLayout.xy
    /// Whether a third ordinate the response did not declare is a Z (GeoJSON
    /// altitude; Esri JSON without `hasZ`, as GDAL reads it).
    package var inferZ = false
    /// The geometry's own `hasZ`/`hasM` members (Esri JSON), which say what
    /// undeclared ordinates are, as GDAL reads them: with `hasM` alone a
    /// third ordinate is an M, with `hasM` a fourth is one. How many ordinates
    /// a vertex has still decides how many are kept (GDAL's `hasZ` over 2D
    /// points stays 2D). Set before the coordinates, cleared per geometry.
    package var geometryFlags = VertexLayout.xy
    /// This geometry's layout, and its extra ordinates (`layout.extra` per
    /// point, NaN where a vertex had none). Empty for 2D: no cost.
    package var layout = VertexLayout.xy
    package var extras: [Double] = []

    package init(declared: VertexLayout = .xy, inferZ: Bool = false) {
        self.declared = declared
        self.inferZ = inferZ
        layout = declared
    }

    package var pointCount: Int { xy.count / 2 }

    package mutating func reset() {
        xy.removeAll(keepingCapacity: true)
        listEnds.removeAll(keepingCapacity: true)
        groupEnds.removeAll(keepingCapacity: true)
        if !extras.isEmpty { extras.removeAll(keepingCapacity: true) }
        layout = declared
        depth = 0
    }

    /// The extra ordinates of point `index`.
    @inline(__always)
    package func extra(of index: Int) -> ArraySlice<Double> {
        let width = layout.extra
        return extras[(index * width)..<(index * width + width)]
    }

    /// Appends a vertex whose ordinates after x and y came in order
    /// (`more[0..<count]`, NaN for a null): z then m, or m alone in an M-only layout.
    package mutating func appendVertex(_ x: Double, _ y: Double, more: (Double, Double), count: Int) {
        if count > 0, layout == .xy, inferZ, geometryFlags.hasM {
            // What the geometry's flags make of its first vertex with more ordinates.
            startLayout(
                count == 1
                    ? VertexLayout(hasZ: geometryFlags.hasZ, hasM: !geometryFlags.hasZ)
                    : VertexLayout(hasZ: true, hasM: true))
        }
        let first = count > 0 ? more.0 : nil, second = count > 1 ? more.1 : nil
        if layout.hasM, !layout.hasZ {
            appendVertex(x, y, z: nil, m: first)
        } else {
            appendVertex(x, y, z: first, m: second)
        }
    }

    /// Appends a vertex with its Z and M, each kept if the layout has it (NaN
    /// when missing). A Z where none was declared makes the layout Z when
    /// `inferZ`: the earlier vertices had none.
    package mutating func appendVertex(_ x: Double, _ y: Double, z: Double?, m: Double?) {
        if z != nil, layout == .xy, inferZ { startLayout(VertexLayout(hasZ: true)) }
        xy.append(x)
        xy.append(y)
        if layout.hasZ { extras.append(z ?? .nan) }
        if layout.hasM { extras.append(m ?? .nan) }
    }

    /// Gives the geometry read so far (2D) the layout `inferred`: NaN for the
    /// ordinates its vertices did not have.
    private mutating func startLayout(_ inferred: VertexLayout) {
        layout = inferred
        extras = [Double](repeating: .nan, count: pointCount * inferred.extra)
    }

    @inline(__always)
    package func listRange(_ list: Int) -> Range<Int> {
        (list == 0 ? 0 : listEnds[list - 1])..<listEnds[list]
    }

    @inline(__always)
    package func groupRange(_ group: Int) -> Range<Int> {
        (group == 0 ? 0 : groupEnds[group - 1])..<groupEnds[group]
    }

    /// The lists of `lists` that hold points: empty rings and parts (`[]`, which
    /// servers and fuzzers send) are left out of what is written.
    package func nonEmptyLists(_ lists: Range<Int>) -> [Int] {
        lists.filter { !listRange($0).isEmpty }
    }

    /// Whether a list ends where it starts.
    package func isClosed(_ list: Int) -> Bool {
        let range = listRange(list)
        guard range.count > 1 else { return false }
        let first = range.lowerBound, last = range.upperBound - 1
        return xy[2 * first] == xy[2 * last] && xy[2 * first + 1] == xy[2 * last + 1]
    }

    /// Twice the signed area of a ring (shoelace); negative = clockwise with y up.
    package func signedArea2(_ list: Int) -> Double {
        let range = listRange(list)
        guard range.count >= 3 else { return 0 }
        var sum = 0.0
        let x0 = xy[2 * range.lowerBound], y0 = xy[2 * range.lowerBound + 1]
        for index in range.lowerBound + 1..<range.upperBound - 1 {
            let x1 = xy[2 * index] - x0, y1 = xy[2 * index + 1] - y0
            let x2 = xy[2 * index + 2] - x0, y2 = xy[2 * index + 3] - y0
            sum += x1 * y2 - x2 * y1
        }
        return sum
    }

    /// Whether (x, y) lies inside the ring (even-odd rule).
    package func ringContains(_ list: Int, _ x: Double, _ y: Double) -> Bool {
        let range = listRange(list)
        var inside = false
        var previous = range.upperBound - 1
        for index in range {
            let xi = xy[2 * index], yi = xy[2 * index + 1]
            let xj = xy[2 * previous], yj = xy[2 * previous + 1]
            if (yi > y) != (yj > y), x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
            previous = index
        }
        return inside
    }
}
