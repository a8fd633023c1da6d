// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The DE-9IM intersection matrix of two shapes (OGC Simple Features 6.1.15):
/// the dimension of the intersection of the interior, boundary and exterior of
/// `a` with those of `b`; -1 = empty (F).
///
/// Computed by tracing the linework of each shape against the other: every
/// segment is split where it meets the other's segments, each piece is located
/// by its midpoint (or known to lie on the other's linework when collinear), and
/// the meeting points are contacts. Exact for the coordinates as given (no
/// snapping tolerance), quadratic in the vertex counts after box checks.
package struct IntersectionMatrix: Equatable, CustomStringConvertible {
    package enum Part: Int { case interior = 0, boundary = 1, exterior = 2 }

    package private(set) var cells: [Int8] = Array(repeating: -1, count: 9)

    package subscript(_ a: Part, _ b: Part) -> Int8 { cells[a.rawValue * 3 + b.rawValue] }

    private mutating func raise(_ a: Part, _ b: Part, _ dimension: Int8) {
        let i = a.rawValue * 3 + b.rawValue
        if dimension > cells[i] { cells[i] = dimension }
    }

    package var description: String {
        String(cells.map { $0 < 0 ? "F" : Character(String($0)) })
    }

    /// Whether the matrix matches a 9-character pattern of T, F, *, 0, 1, 2.
    package func matches(_ pattern: String) -> Bool {
        let symbols = Array(pattern.uppercased())
        guard symbols.count == 9 else { return false }
        for (cell, symbol) in zip(cells, symbols) {
            switch symbol {
            case "*": continue
            case "T": if cell < 0 { return false }
            case "F": if cell >= 0 { return false }
            case "0", "1", "2": if Int(cell) != Int(String(symbol))! { return false }
            default: return false
            }
        }
        return true
    }

    /// Whether `pattern` is a valid DE-9IM pattern.
    package static func isPattern(_ pattern: String) -> Bool {
        pattern.count == 9 && pattern.uppercased().allSatisfy { "TF*012".contains($0) }
    }

    package init(_ a: Shape, _ b: Shape) {
        if a.dimension < b.dimension {
            self = IntersectionMatrix(b, a).transposed
            return
        }
        raise(.exterior, .exterior, 2)
        if !a.box.intersects(b.box) {
            fillDisjoint(a, b)
            return
        }
        switch (a.dimension, b.dimension) {
        case (.point, _): relatePoints(a, b)
        case (.line, .point), (.area, .point): relateToPoints(a, b)
        case (.line, .line): relateLines(a, b)
        case (.area, .line): relateAreaLine(a, b)
        default: relateAreas(a, b)
        }
    }

    private init(cells: [Int8]) { self.cells = cells }

    package var transposed: IntersectionMatrix {
        var t = [Int8](repeating: -1, count: 9)
        for i in 0..<3 { for j in 0..<3 { t[j * 3 + i] = cells[i * 3 + j] } }
        return IntersectionMatrix(cells: t)
    }

    // MARK: - Cases

    private static func interiorDimension(_ s: Shape) -> Int8 { Int8(s.dimension.rawValue) }
    private static func boundaryDimension(_ s: Shape) -> Int8 {
        switch s.dimension {
        case .point: -1
        case .line: s.lineBoundary.isEmpty ? -1 : 0
        case .area: 1
        }
    }

    private mutating func fillDisjoint(_ a: Shape, _ b: Shape) {
        raise(.interior, .exterior, Self.interiorDimension(a))
        raise(.boundary, .exterior, Self.boundaryDimension(a))
        raise(.exterior, .interior, Self.interiorDimension(b))
        raise(.exterior, .boundary, Self.boundaryDimension(b))
    }

    /// a: points, b: points (dimension 0 both).
    private mutating func relatePoints(_ a: Shape, _ b: Shape) {
        for (x, y) in points(a) {
            switch b.locate(x, y) {
            case .interior: raise(.interior, .interior, 0)
            case .boundary: raise(.interior, .boundary, 0)
            case .exterior: raise(.interior, .exterior, 0)
            }
        }
        if points(b).contains(where: { a.locate($0.0, $0.1) == .exterior }) { raise(.exterior, .interior, 0) }
    }

    /// a: line or area, b: points.
    private mutating func relateToPoints(_ a: Shape, _ b: Shape) {
        var covered = 0
        for (x, y) in points(b) {
            switch a.locate(x, y) {
            case .interior: raise(.interior, .interior, 0)
            case .boundary: raise(.boundary, .interior, 0); covered += 1
            case .exterior: raise(.exterior, .interior, 0)
            }
        }
        raise(.interior, .exterior, Self.interiorDimension(a))
        if a.dimension == .area {
            raise(.boundary, .exterior, 1)
        } else {
            // A line's boundary points all covered by b's points leave none outside.
            let boundary = a.lineBoundary
            if boundary.contains(where: { b.locate($0.0, $0.1) == .exterior }) { raise(.boundary, .exterior, 0) }
        }
    }

    private mutating func relateLines(_ a: Shape, _ b: Shape) {
        let ta = Trace(a, against: b), tb = Trace(b, against: a)
        if ta.pieces.contains(.interior) || ta.pieces.contains(.boundary) { raise(.interior, .interior, 1) }
        if ta.pieces.contains(.exterior) { raise(.interior, .exterior, 1) }
        if tb.pieces.contains(.exterior) { raise(.exterior, .interior, 1) }
        for contact in ta.contacts { raise(contact.own, contact.other, 0) }
        for contact in tb.contacts { raise(contact.other, contact.own, 0) }
        for (x, y) in a.lineBoundary { raise(.boundary, Part(b.locate(x, y)), 0) }
        for (x, y) in b.lineBoundary { raise(Part(a.locate(x, y)), .boundary, 0) }
    }

    /// a: area, b: line.
    private mutating func relateAreaLine(_ a: Shape, _ b: Shape) {
        let tb = Trace(b, against: a), ta = Trace(a, against: b)
        for piece in tb.pieces { raise(Part(piece), .interior, 1) }
        for contact in tb.contacts where contact.own == .interior { raise(.boundary, .interior, 0) }
        for (x, y) in b.lineBoundary { raise(Part(a.locate(x, y)), .boundary, 0) }
        raise(.interior, .exterior, 2)
        if ta.pieces.contains(.exterior) { raise(.boundary, .exterior, 1) }
    }

    private mutating func relateAreas(_ a: Shape, _ b: Shape) {
        let ta = Trace(a, against: b), tb = Trace(b, against: a)
        for piece in ta.pieces { raise(.boundary, Part(piece), 1) }
        for piece in tb.pieces { raise(Part(piece), .boundary, 1) }
        if !ta.contacts.isEmpty || !tb.contacts.isEmpty { raise(.boundary, .boundary, 0) }
        let sameBoundary = ta.pieces == [.boundary] && tb.pieces == [.boundary]
        if ta.pieces.contains(.interior) || tb.pieces.contains(.interior) || sameBoundary { raise(.interior, .interior, 2) }
        if tb.pieces.contains(.interior) || ta.pieces.contains(.exterior) { raise(.interior, .exterior, 2) }
        if ta.pieces.contains(.interior) || tb.pieces.contains(.exterior) { raise(.exterior, .interior, 2) }
    }

    private func points(_ s: Shape) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        for part in s.parts {
            var i = 0
            while i + 1 < part.count { out.append((part[i], part[i + 1])); i += 2 }
        }
        return out
    }
}

extension IntersectionMatrix.Part {
    package init(_ location: Location) {
        switch location {
        case .interior: self = .interior
        case .boundary: self = .boundary
        case .exterior: self = .exterior
        }
    }
}

/// One shape's linework traced against another shape: where its open pieces
/// lie (relative to the other), and its contact points with the other's
/// linework (as parts of each shape).
private struct Trace {
    var pieces: Set<Location> = []
    var contacts: [(own: IntersectionMatrix.Part, other: IntersectionMatrix.Part)] = []

    init(_ s: Shape, against o: Shape) {
        let ownBoundary = Set(s.lineBoundary.map { Point2($0.0, $0.1) })
        let otherBoundary = Set(o.lineBoundary.map { Point2($0.0, $0.1) })
        // A point of s's linework on o's linework: which part of each is it?
        func contact(_ x: Double, _ y: Double) -> (IntersectionMatrix.Part, IntersectionMatrix.Part) {
            let own: IntersectionMatrix.Part = s.dimension == .area || ownBoundary.contains(Point2(x, y)) ? .boundary : .interior
            let other: IntersectionMatrix.Part = o.dimension == .area || otherBoundary.contains(Point2(x, y)) ? .boundary : .interior
            return (own, other)
        }
        // On o's linework, a piece is o's boundary (area) or interior (line).
        let onLinework: Location = o.dimension == .area ? .boundary : .interior
        var seen = Set<Point2>()
        s.forEachSegment { x0, y0, x1, y1 in
            var cuts: [Double] = [0, 1]
            var overlaps: [(Double, Double)] = []
            let box = BoundingBox(x0, y0, x1, y1)
            if o.dimension == .point {
                for part in o.parts {
                    var i = 0
                    while i + 1 < part.count {
                        let px = part[i], py = part[i + 1]
                        i += 2
                        guard pointOnSegment(px, py, x0, y0, x1, y1) else { continue }
                        cuts.append(parameter(px, py, x0, y0, x1, y1))
                    }
                }
            } else if box.intersects(o.box) {
                o.forEachSegment { cx, cy, dx, dy in
                    guard BoundingBox(cx, cy, dx, dy).intersects(box) else { return }
                    let d1 = orientation(x0, y0, x1, y1, cx, cy), d2 = orientation(x0, y0, x1, y1, dx, dy)
                    if d1 == 0, d2 == 0 {
                        // Collinear: the overlap, if any, is a run on o's linework.
                        let tc = parameter(cx, cy, x0, y0, x1, y1), td = parameter(dx, dy, x0, y0, x1, y1)
                        let low = max(0, min(tc, td)), high = min(1, max(tc, td))
                        if low <= high {
                            cuts.append(low); cuts.append(high)
                            if low < high { overlaps.append((low, high)) }
                        }
                        return
                    }
                    let d3 = orientation(cx, cy, dx, dy, x0, y0), d4 = orientation(cx, cy, dx, dy, x1, y1)
                    guard (d1 <= 0 || d2 <= 0) && (d1 >= 0 || d2 >= 0), (d3 <= 0 || d4 <= 0) && (d3 >= 0 || d4 >= 0) else { return }
                    if d3 == 0 { cuts.append(0) } else if d4 == 0 { cuts.append(1) } else { cuts.append(d3 / (d3 - d4)) }
                    // Record the contact itself (exact when it is a vertex of either).
                    let (px, py): (Double, Double) =
                        d3 == 0
                        ? (x0, y0)
                        : d4 == 0
                            ? (x1, y1)
                            : d1 == 0
                                ? (cx, cy)
                                : d2 == 0
                                    ? (dx, dy)
                                    : (x0 + (x1 - x0) * d3 / (d3 - d4), y0 + (y1 - y0) * d3 / (d3 - d4))
                    if seen.insert(Point2(px, py)).inserted {
                        let (own, other) = contact(px, py)
                        contacts.append((own, other))
                    }
                }
            }
            cuts.sort()
            var previous = cuts[0]
            for t in cuts.dropFirst() where t > previous {
                let mid = (previous + t) / 2
                if overlaps.contains(where: { $0.0 <= previous && t <= $0.1 }) {
                    pieces.insert(onLinework)
                } else {
                    let location = o.locate(x0 + (x1 - x0) * mid, y0 + (y1 - y0) * mid)
                    pieces.insert(location)
                }
                previous = t
            }
            // Point contacts with a point shape.
            if o.dimension == .point {
                for t in cuts where t > 0 && t < 1 || (t == 0 || t == 1) {
                    let px = t == 0 ? x0 : t == 1 ? x1 : x0 + (x1 - x0) * t
                    let py = t == 0 ? y0 : t == 1 ? y1 : y0 + (y1 - y0) * t
                    if o.locate(px, py) != .exterior, seen.insert(Point2(px, py)).inserted {
                        contacts.append(contact(px, py))
                    }
                }
            }
        }
    }
}

/// Where (x, y) lies along a→b, as a fraction of its length (the larger axis).
@inline(__always)
private func parameter(_ x: Double, _ y: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
    abs(bx - ax) >= abs(by - ay) ? (bx == ax ? 0 : (x - ax) / (bx - ax)) : (y - ay) / (by - ay)
}

extension BoundingBox {
    package init(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        self.init()
        add(x0, y0)
        add(x1, y1)
    }
}
