// SPDX-License-Identifier: Apache-2.0
import CPROJ
import FCSupport

/// What PROJ says of a coordinate reference system: the definitions callers
/// exchange (WKT2:2019, PROJJSON), its name and authority code, and the facts
/// requests need (geographic or not, the axis order of its definition).
package struct CRSDescription: Sendable, Equatable {
    package var name: String
    /// `EPSG:25832`, `ESRI:102719`; nil for a CRS given by WKT without an id.
    package var authorityCode: String?
    /// WKT2:2019, as PROJ writes it.
    package var wkt2: String
    /// PROJJSON on one line (what GeoArrow and GeoParquet carry).
    package var projJSON: String
    package var isGeographic: Bool
    /// The definition's first axis points north: latitude first (EPSG:4326
    /// itself) or northing first (EPSG:3035). Coordinates in the library are
    /// always x = east, y = north; this tells what a server that follows the
    /// definition sends.
    package var northFirst: Bool
}

/// The one place, with `PROJOperation`, that asks PROJ about CRSs.
package enum PROJCRS {
    /// The description of `crs` as PROJ reads it (`EPSG:25832`, `ESRI:102719`,
    /// WKT1 or WKT2, PROJJSON). `.unsupported` when PROJ cannot read it as a CRS.
    package static func describe(_ crs: String) throws(FeatureCacheError) -> CRSDescription {
        guard let context = makePROJContext() else {
            throw FeatureCacheError(.unsupported, "PROJ could not make a context (out of memory)")
        }
        defer { proj_context_destroy(context) }
        guard let object = proj_create(context, crs), proj_is_crs(object) != 0 else {
            throw FeatureCacheError(.unsupported, "PROJ cannot read \(shown(crs)) as a coordinate reference system")
        }
        defer { proj_destroy(object) }
        let name = proj_get_name(object).map { String(cString: $0) } ?? ""
        var authorityCode: String? = nil
        if let authority = proj_get_id_auth_name(object, 0), let code = proj_get_id_code(object, 0) {
            authorityCode = String(cString: authority) + ":" + String(cString: code)
        }
        let wkt2 = proj_as_wkt(context, object, PJ_WKT2_2019, nil).map { String(cString: $0) } ?? ""
        let projJSON = "MULTILINE=NO".withCString { option in
            var options: [UnsafePointer<CChar>?] = [option, nil]
            return proj_as_projjson(context, object, &options).map { String(cString: $0) } ?? ""
        }
        let horizontal = horizontalCRS(context, object)
        defer { if horizontal != object { proj_destroy(horizontal) } }
        let type = proj_get_type(horizontal)
        return CRSDescription(
            name: name, authorityCode: authorityCode, wkt2: wkt2, projJSON: projJSON,
            isGeographic: type == PJ_TYPE_GEOGRAPHIC_2D_CRS || type == PJ_TYPE_GEOGRAPHIC_3D_CRS,
            northFirst: firstAxisPointsNorth(context, horizontal))
    }

    /// Whether PROJ reads `crs` as a CRS (`EPSG:25832`, `ESRI:102719`), without
    /// describing it.
    package static func knows(_ crs: String) -> Bool {
        guard let context = makePROJContext() else { return false }
        defer { proj_context_destroy(context) }
        guard let object = proj_create(context, crs) else { return false }
        defer { proj_destroy(object) }
        return proj_is_crs(object) != 0
    }

    /// The horizontal part of a compound CRS, the source of a bound one (WKT1
    /// with TOWGS84), else the CRS itself.
    private static func horizontalCRS(_ context: OpaquePointer, _ crs: OpaquePointer) -> OpaquePointer {
        switch proj_get_type(crs) {
        case PJ_TYPE_COMPOUND_CRS: return proj_crs_get_sub_crs(context, crs, 0) ?? crs
        case PJ_TYPE_BOUND_CRS: return proj_get_source_crs(context, crs) ?? crs
        default: return crs
        }
    }

    private static func firstAxisPointsNorth(_ context: OpaquePointer, _ crs: OpaquePointer) -> Bool {
        guard let system = proj_crs_get_coordinate_system(context, crs) else { return false }
        defer { proj_destroy(system) }
        var direction: UnsafePointer<CChar>? = nil
        guard proj_cs_get_axis_info(context, system, 0, nil, nil, &direction, nil, nil, nil, nil) != 0, let direction else {
            return false
        }
        return String(cString: direction).lowercased() == "north"
    }

    static func shown(_ crs: String) -> String {
        crs.count <= 80 ? "'\(crs)'" : "'\(crs.prefix(77))…'"
    }
}
