// SPDX-License-Identifier: Apache-2.0
import FCSupport

extension SpatialRelationship {
    /// The REST API's name; disjoint has none there and is sent as a relation
    /// pattern (`FF*FF****`).
    public var esriName: String {
        switch self {
        case .intersects: "esriSpatialRelIntersects"
        case .contains: "esriSpatialRelContains"
        case .within: "esriSpatialRelWithin"
        case .touches: "esriSpatialRelTouches"
        case .crosses: "esriSpatialRelCrosses"
        case .overlaps: "esriSpatialRelOverlaps"
        case .disjoint, .relation: "esriSpatialRelRelation"
        case .envelopeIntersects: "esriSpatialRelEnvelopeIntersects"
        case .indexIntersects: "esriSpatialRelIndexIntersects"
        }
    }
}

/// The geometry a query filters by: an envelope or any WKB geometry, with the
/// spatial reference it is in.
public enum QueryGeometry: Sendable, Equatable {
    case envelope(Envelope)
    case geometry(Geometry, wkid: Int32)

    public var wkid: Int32 {
        switch self {
        case let .envelope(envelope): envelope.spatialReference?.effectiveWkid ?? 0
        case let .geometry(_, wkid): wkid
        }
    }
}

/// What to fetch or select: the ArcGIS SDK's `QueryParameters`. A value type, so
/// a copy is independent and reading it from any thread is safe.
public struct QueryParameters: Sendable, Equatable {
    /// SQL-92 where clause; empty = every feature.
    public var whereClause = ""
    public var geometry: QueryGeometry?
    public var spatialRelationship: SpatialRelationship = .intersects
    /// DE-9IM pattern for `.relation`.
    public var relationParameter = ""
    /// nil = all fields.
    public var outFields: [String]?
    public var returnGeometry = true
    /// 0 = no limit.
    public var maxFeatures = 0
    public var resultOffset = 0
    public var objectIds: [Int64] = []
    /// "Name ASC, DBH DESC"; empty = the service's order.
    public var orderBy = ""
    /// How far (map units of the table's spatial reference) the service may
    /// generalize geometry; 0 = exact (the default). ArcGIS layers are asked
    /// with `quantizationParameters` in PBF and `maxAllowableOffset` in JSON;
    /// other services answer exact geometry, which is within any tolerance.
    public var maxAllowableOffset = 0.0
    /// Map units per pixel of the view a fetch serves: services that can
    /// generalize geometry to it (ArcGIS PBF, `quantizationParameters`) are
    /// asked to. 0 = exact geometry (populates, queries).
    package var quantizationTolerance = 0.0
    /// The spatial reference (wkid) the result's geometries and extents are
    /// given in; 0 = the table's. The cache keeps the table's: results are
    /// projected as they are made.
    public var outWkid: Int32 = 0

    public init() {}

    /// Checks that the parameters can be sent: the where clause is text a service
    /// can take, the relation has its pattern, numbers are in range.
    public func validate() throws(FeatureCacheError) {
        if whereClause.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" }) {
            throw FeatureCacheError(.invalidArgument, "the where clause contains a control character")
        }
        if spatialRelationship == .relation, relationParameter.isEmpty {
            throw FeatureCacheError(.invalidArgument, "FC_SPATIAL_REL_RELATION needs a relation pattern (fc_query_set_relation_parameter)")
        }
        if maxFeatures < 0 || resultOffset < 0 {
            throw FeatureCacheError(.invalidArgument, "max features and result offset must not be negative")
        }
        if outWkid < 0 {
            throw FeatureCacheError(.invalidArgument, "an output wkid must be positive, or 0 for the table's (got \(outWkid))")
        }
        if !(maxAllowableOffset >= 0) || !maxAllowableOffset.isFinite {
            throw FeatureCacheError(
                .invalidArgument, "the max allowable offset must be a finite distance of 0 or more (got \(maxAllowableOffset))")
        }
    }

    /// Where the rows asked for end: `resultOffset + maxFeatures`, saturating
    /// (an offset with INT64_MAX as "no limit" is common); Int.max for no limit.
    public var rowsEnd: Int {
        guard maxFeatures > 0 else { return .max }
        let (end, overflow) = resultOffset.addingReportingOverflow(maxFeatures)
        return overflow ? .max : end
    }

    /// The relation pattern sent for `.relation` and `.disjoint`.
    package var effectiveRelationParameter: String? {
        switch spatialRelationship {
        case .relation: relationParameter
        case .disjoint: "FF*FF****"
        default: nil
        }
    }
}
