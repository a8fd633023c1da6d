// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A geometry flattened for spatial predicates: its topological dimension and
/// its parts as flat `x0, y0, x1, y1, …` arrays. Points: one part holding every
/// point. Lines: one part per path. Areas: one part per ring, holes included;
/// inside is decided by the even-odd rule over all rings, which is right for
/// valid polygons and multipolygons whatever the ring orientation.
package struct Shape: Sendable {
    package enum Dimension: Int, Comparable, Sendable {
        case point = 0, line = 1, area = 2
        package static func < (a: Dimension, b: Dimension) -> Bool { a.rawValue < b.rawValue }
    }

    package var dimension: Dimension
    package var parts: [[Double]]
    package var box: BoundingBox

    package init(dimension: Dimension, parts: [[Double]]) {
        self.dimension = dimension
        self.parts = parts.filter { !$0.isEmpty }
        var box = BoundingBox()
        for part in self.parts {
            var i = 0
            while i < part.count { box.add(part[i], part[i + 1]); i += 2 }
        }
        self.box = box
    }

    package static func envelope(_ xmin: Double, _ ymin: Double, _ xmax: Double, _ ymax: Double) -> Shape {
        if xmin == xmax, ymin == ymax { return Shape(dimension: .point, parts: [[xmin, ymin]]) }
        if xmin == xmax || ymin == ymax { return Shape(dimension: .line, parts: [[xmin, ymin, xmax, ymax]]) }
        return Shape(dimension: .area, parts: [[xmin, ymin, xmin, ymax, xmax, ymax, xmax, ymin, xmin, ymin]])
    }

    /// A rectangle as a ring with `pointsPerEdge` points along each edge (corners
    /// included), to be projected where its edges curve.
    package static func densifiedEnvelope(
        _ xmin: Double, _ ymin: Double, _ xmax: Double, _ ymax: Double, pointsPerEdge: Int = 21
    ) -> Shape {
        let steps = max(1, pointsPerEdge - 1)
        var ring: [Double] = []
        ring.reserveCapacity(8 * steps + 2)
        let corners = [(xmin, ymin), (xmin, ymax), (xmax, ymax), (xmax, ymin), (xmin, ymin)]
        for edge in 0..<4 {
            let (x0, y0) = corners[edge], (x1, y1) = corners[edge + 1]
            for step in 0..<steps {
                let t = Double(step) / Double(steps)
                ring.append(x0 + (x1 - x0) * t)
                ring.append(y0 + (y1 - y0) * t)
            }
        }
        ring.append(xmin)
        ring.append(ymin)
        return Shape(dimension: .area, parts: [ring])
    }

    /// The shape of a parsed geometry; nil for an empty one. A collection keeps
    /// its members of the highest dimension.
    package init?(_ geometry: Geometry) {
        func flat(_ points: [Geometry.XY]) -> [Double] {
            var out: [Double] = []
            out.reserveCapacity(points.count * 2)
            for p in points { out.append(p.x); out.append(p.y) }
            return out
        }
        switch geometry {
        case let .point(x, y):
            guard !x.isNaN else { return nil }
            self.init(dimension: .point, parts: [[x, y]])
        case let .multiPoint(points): self.init(dimension: .point, parts: [flat(points)])
        case let .lineString(points): self.init(dimension: .line, parts: [flat(points)])
        case let .multiLineString(lines): self.init(dimension: .line, parts: lines.map(flat))
        case let .polygon(rings): self.init(dimension: .area, parts: rings.map(flat))
        case let .multiPolygon(polygons): self.init(dimension: .area, parts: polygons.flatMap { $0.map(flat) })
        case let .collection(members):
            let shapes = members.compactMap(Shape.init)
            guard let top = shapes.map(\.dimension).max() else { return nil }
            self.init(dimension: top, parts: shapes.filter { $0.dimension == top }.flatMap(\.parts))
        }
        if parts.isEmpty { return nil }
    }

    /// The shape of a stored ISO WKB geometry; nil when empty or unreadable.
    package init?(wkb: UnsafeRawBufferPointer) {
        guard wkb.count > 0, let geometry = try? WKBReader.parse(wkb) else { return nil }
        self.init(geometry)
    }

    /// Calls `body` with every segment (x0, y0, x1, y1) of the lines or rings.
    @inline(__always)
    package func forEachSegment(_ body: (Double, Double, Double, Double) -> Void) {
        guard dimension != .point else { return }
        for part in parts where part.count >= 4 {
            var i = 0
            while i + 3 < part.count {
                body(part[i], part[i + 1], part[i + 2], part[i + 3])
                i += 2
            }
        }
    }

    /// The endpoints of lines (by the mod-2 rule: an endpoint shared by an even
    /// number of paths, as in a closed path, is not on the boundary).
    package var lineBoundary: [(Double, Double)] {
        guard dimension == .line else { return [] }
        var counts: [Point2: Int] = [:]
        for part in parts where part.count >= 2 {
            counts[Point2(part[0], part[1]), default: 0] += 1
            counts[Point2(part[part.count - 2], part[part.count - 1]), default: 0] += 1
        }
        return counts.filter { $0.value % 2 == 1 }.map { ($0.key.x, $0.key.y) }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }
}

package struct Point2: Hashable {
    package let x: Double
    package let y: Double
    package init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// Where a point lies relative to a shape.
package enum Location: Sendable {
    case interior, boundary, exterior
}

extension Shape {
    /// The location of (x, y): for an area by the even-odd rule with its rings as
    /// boundary; for lines, their endpoints (mod 2) are boundary and the rest of
    /// every path interior; for points, a point is interior.
    package func locate(_ x: Double, _ y: Double) -> Location {
        guard box.contains(x, y) else { return .exterior }
        switch dimension {
        case .point:
            for part in parts {
                var i = 0
                while i < part.count {
                    if part[i] == x, part[i + 1] == y { return .interior }
                    i += 2
                }
            }
            return .exterior
        case .line:
            var on = false
            forEachSegment { x0, y0, x1, y1 in
                if !on, pointOnSegment(x, y, x0, y0, x1, y1) { on = true }
            }
            guard on else { return .exterior }
            return lineBoundary.contains { $0.0 == x && $0.1 == y } ? .boundary : .interior
        case .area:
            var inside = false
            for part in parts where part.count >= 6 {
                var i = 0
                while i + 3 < part.count {
                    let x0 = part[i], y0 = part[i + 1], x1 = part[i + 2], y1 = part[i + 3]
                    if pointOnSegment(x, y, x0, y0, x1, y1) { return .boundary }
                    if (y0 > y) != (y1 > y), x < (x1 - x0) * (y - y0) / (y1 - y0) + x0 { inside.toggle() }
                    i += 2
                }
            }
            return inside ? .interior : .exterior
        }
    }
}

extension BoundingBox {
    @inline(__always)
    package func contains(_ x: Double, _ y: Double) -> Bool { x >= xmin && x <= xmax && y >= ymin && y <= ymax }

    @inline(__always)
    package func intersects(_ other: BoundingBox) -> Bool {
        xmin <= other.xmax && other.xmin <= xmax && ymin <= other.ymax && other.ymin <= ymax
    }
}

/// The cross product (b - a) × (c - a): > 0 when c is left of a→b.
@inline(__always)
package func orientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Double {
    (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
}

@inline(__always)
package func pointOnSegment(_ x: Double, _ y: Double, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Bool {
    guard x >= min(x0, x1), x <= max(x0, x1), y >= min(y0, y1), y <= max(y0, y1) else { return false }
    return orientation(x0, y0, x1, y1, x, y) == 0
}
