// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A query's geometry and spatial relationship, projected into the table's
/// spatial reference, tested against cached rows: the R-tree narrows by box,
/// then the exact predicate decides (rows that are points against a query
/// rectangle need nothing more than the box).
///
/// Relationships read as the ArcGIS REST API defines them: the *query geometry*
/// contains / is within / touches / crosses / overlaps the feature.
package struct SpatialFilter: Sendable {
    package let shape: Shape
    package let relationship: SpatialRelationship
    /// The DE-9IM pattern for `.relation`.
    package let pattern: String
    /// The query shape is an axis-aligned rectangle (box tests are exact for it).
    package let isRectangle: Bool

    package var box: BoundingBox { shape.box }

    package init(_ query: QueryParameters, tableWkid: Int32) throws(FeatureCacheError) {
        try self.init(query, table: SpatialReference(wkid: tableWkid))
    }

    /// - Parameter table: the spatial reference of cached geometries (a code,
    ///   or the WKT a layer gives alone; nil or 0 = the query's own).
    package init(_ query: QueryParameters, table: SpatialReference?) throws(FeatureCacheError) {
        guard let geometry = query.geometry else { throw FeatureCacheError.invalidArgument("the query has no geometry") }
        var shape: Shape
        var rectangle = false
        switch geometry {
        case let .envelope(envelope):
            guard envelope.isValid else { throw FeatureCacheError.invalidArgument("the query envelope is empty or NaN") }
            shape = .envelope(envelope.xmin, envelope.ymin, envelope.xmax, envelope.ymax)
            rectangle = shape.dimension == .area
        case let .geometry(value, _):
            guard let made = Shape(value) else { throw FeatureCacheError.invalidArgument("the query geometry is empty") }
            shape = made
        }
        if let transform = try Projection.transform(from: SpatialReference(wkid: geometry.wkid), to: table) {
            if !transform.keepsRectangles, case let .envelope(envelope) = geometry, shape.dimension == .area {
                // Its edges curve in the table's system: a polygon along them, not the box around it.
                shape = .densifiedEnvelope(envelope.xmin, envelope.ymin, envelope.xmax, envelope.ymax)
                rectangle = false
            }
            shape = shape.mapped(transform)
            guard shape.box.xmin.isFinite, shape.box.ymin.isFinite, shape.box.xmax.isFinite, shape.box.ymax.isFinite else {
                throw FeatureCacheError(.unsupported, "the query geometry cannot be projected (\(transform.label))")
            }
        }
        self.shape = shape
        isRectangle = rectangle
        relationship = query.spatialRelationship
        pattern = query.effectiveRelationParameter ?? ""
        if relationship == .relation, !IntersectionMatrix.isPattern(pattern) {
            throw FeatureCacheError.invalidArgument("'\(pattern)' is not a DE-9IM pattern (9 of T, F, *, 0, 1, 2)")
        }
    }

    /// Only disjoint can hold for rows whose box misses the query's.
    package var needsBoxHit: Bool { relationship != .disjoint }

    /// Whether a row of `geometry` whose box the spatial index found meeting
    /// the query's box (borders included, as `test` compares) stands in the
    /// relationship with nothing more to test: envelope relationships, and
    /// points against a rectangle.
    package func boxHitDecides(_ geometry: GeometryColumn) -> Bool {
        switch relationship {
        case .envelopeIntersects, .indexIntersects: true
        case .intersects: isRectangle && geometry.isPointsOnly
        default: false
        }
    }

    /// Whether the row's geometry stands in the relationship to the query shape.
    package func test(_ geometry: GeometryColumn, _ row: Int) -> Bool {
        let b = geometry.box(row)
        guard !b.xmin.isNaN else { return false }
        let hit = b.xmin <= box.xmax && b.xmax >= box.xmin && b.ymin <= box.ymax && b.ymax >= box.ymin
        switch relationship {
        case .envelopeIntersects, .indexIntersects:
            return hit
        case .intersects:
            guard hit else { return false }
            if b.xmin == b.xmax, b.ymin == b.ymax, geometry.isPointsOnly {
                return isRectangle || shape.locate(b.xmin, b.ymin) != .exterior
            }
            if isRectangle, b.xmin >= box.xmin, b.xmax <= box.xmax, b.ymin >= box.ymin, b.ymax <= box.ymax { return true }
            return feature(geometry, row).map { !Self.isDisjoint(IntersectionMatrix(shape, $0)) } ?? false
        case .disjoint:
            guard hit else { return true }
            return feature(geometry, row).map { Self.isDisjoint(IntersectionMatrix(shape, $0)) } ?? false
        default:
            guard hit, let other = feature(geometry, row) else { return false }
            return holds(IntersectionMatrix(shape, other), other.dimension)
        }
    }

    private func feature(_ geometry: GeometryColumn, _ row: Int) -> Shape? {
        Shape(wkb: geometry.wkb(row))
    }

    private static func isDisjoint(_ m: IntersectionMatrix) -> Bool { m.matches("FF*FF****") }

    /// The named relationships as OGC Simple Features defines them on the matrix
    /// (query geometry first).
    private func holds(_ m: IntersectionMatrix, _ featureDimension: Shape.Dimension) -> Bool {
        let a = shape.dimension, b = featureDimension
        switch relationship {
        case .contains: return m.matches("T*****FF*")
        case .within: return m.matches("T*F**F***")
        case .touches:
            guard !(a == .point && b == .point) else { return false }
            return m.matches("FT*******") || m.matches("F**T*****") || m.matches("F***T****")
        case .crosses:
            if a == .line, b == .line { return m.matches("0********") }
            if a < b { return m.matches("T*T******") }
            if a > b { return m.matches("T*****T**") }
            return false
        case .overlaps:
            guard a == b else { return false }
            return a == .line ? m.matches("1*T***T**") : m.matches("T*T***T**")
        case .relation: return m.matches(pattern)
        case .intersects: return !Self.isDisjoint(m)
        case .disjoint: return Self.isDisjoint(m)
        case .envelopeIntersects, .indexIntersects: return true
        }
    }
}
