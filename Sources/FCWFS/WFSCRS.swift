// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// CRS names as WFS servers write them, and what each spelling says about axis
/// order (a definition's own order as PROJ reads it).
///
/// - `EPSG:4326`: WFS 1.0 means x/y (lon/lat). In 1.1/2.0 servers disagree
///   (MapServer writes lat/lon, GeoServer lon/lat): the guess is the EPSG order,
///   checked against the WGS84 bounding box.
/// - `urn:ogc:def:crs:EPSG::4326`, `urn:x-ogc:def:crs:EPSG:4326`,
///   `http://www.opengis.net/def/crs/EPSG/0/4326`: the EPSG definition — lat/lon
///   for geographic CRSs.
/// - `http://www.opengis.net/gml/srs/epsg.xml#4326` and CRS84: lon/lat.
enum WFSCRS {
    enum Spelling { case epsgCode, definition, lonLat }

    static func wkid(of name: String) -> Int32? {
        let lower = name.trimmingCharacters(in: " ").lowercased()
        if let hash = lower.lastIndex(of: "#"), lower.contains("epsg.xml") { return Int32(lower[lower.index(after: hash)...]) }
        if lower.hasPrefix("urn:x-ogc:def:crs:epsg:") {
            return lower.split(separator: ":").last.flatMap { Int32($0) }
        }
        return CRSURI.wkid(of: name)
    }

    static func spelling(of name: String) -> Spelling {
        let lower = name.lowercased()
        if lower.contains("crs84") || lower.contains("epsg.xml#") { return .lonLat }
        if lower.hasPrefix("epsg:") { return .epsgCode }
        return .definition
    }

    /// Whether the CRS's definition puts its north axis first: latitude (EPSG:4326
    /// and most geographic CRSs) or northing (EPSG:3035, the Gauss-Krüger zones),
    /// as PROJ reads the definition. For a code PROJ does not know, the EPSG
    /// geographic range (4000–4999) stands in.
    static func isNorthFirst(_ wkid: Int32) -> Bool {
        if let description = try? Projection.describe(SpatialReference(wkid: wkid)) { return description.northFirst }
        return (4000..<5000).contains(wkid)
    }

    /// Whether the CRS is geographic (degrees), as PROJ reads it; the EPSG
    /// geographic range for a code PROJ does not know.
    static func isGeographic(_ wkid: Int32) -> Bool {
        if let description = try? Projection.describe(SpatialReference(wkid: wkid)) { return description.isGeographic }
        return (4000..<5000).contains(wkid)
    }

    /// Whether coordinates written under `srsName` by a server of `version` come
    /// latitude first, by the rules above (before any sanity check).
    static func guessSwap(srsName: String?, requested wkid: Int32, version: WFSVersion) -> Bool {
        guard version != .v100 else { return false }
        guard let srsName else { return isNorthFirst(wkid) }
        let code = self.wkid(of: srsName) ?? wkid
        switch spelling(of: srsName) {
        case .lonLat: return false
        case .epsgCode, .definition: return isNorthFirst(code)
        }
    }

    /// The name to send for `wkid`: the spelling the capabilities list when they
    /// list it, else the URN (1.1/2.0) or `EPSG:` code (1.0).
    static func name(for wkid: Int32, listed: [String], version: WFSVersion) -> String {
        if let match = listed.first(where: { self.wkid(of: $0) == wkid && !$0.lowercased().hasPrefix("http") }) { return match }
        return version == .v100 ? "EPSG:\(wkid)" : "urn:ogc:def:crs:EPSG::\(wkid)"
    }
}
