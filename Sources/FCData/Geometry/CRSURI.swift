// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// CRS identifiers as OGC standards write them (OGC API, WFS 2.0): `http://www.opengis.net/def/crs/OGC/1.3/CRS84`
/// (lon/lat, the default), `http://www.opengis.net/def/crs/EPSG/0/3857`, and the
/// older `urn:ogc:def:crs:EPSG::3857` / `EPSG:3857` forms.
package enum CRSURI {
    package static let crs84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"

    /// The wkid a CRS URI names; CRS84 is 4326 in the library's lon/lat sense.
    /// nil for what is not an EPSG code or CRS84.
    package static func wkid(of uri: String) -> Int32? {
        let text = uri.trimmingCharacters(in: " <>")
        let lower = text.lowercased()
        if lower.hasSuffix("/crs84") || lower.hasSuffix(":crs84") || lower.hasSuffix("/crs84h") { return 4326 }
        for prefix in [
            "http://www.opengis.net/def/crs/epsg/", "https://www.opengis.net/def/crs/epsg/",
            "urn:ogc:def:crs:epsg:", "epsg:",
        ] where lower.hasPrefix(prefix) {
            let code = lower.dropFirst(prefix.count).split(whereSeparator: { $0 == "/" || $0 == ":" }).last
            return code.flatMap { Int32($0) }
        }
        return nil
    }

    /// The URI to ask for a wkid in: CRS84 for 4326 (lon/lat; `EPSG/0/4326` means lat/lon).
    package static func uri(for wkid: Int32) -> String {
        wkid == 4326 ? crs84 : "http://www.opengis.net/def/crs/EPSG/0/\(wkid)"
    }

    /// Whether `uri` names EPSG:4326 with its lat/lon axis order (not CRS84).
    package static func isLatLon4326(_ uri: String) -> Bool {
        wkid(of: uri) == 4326 && !uri.lowercased().contains("crs84")
    }
}
