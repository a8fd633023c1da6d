// SPDX-License-Identifier: Apache-2.0
import FCSupport

#if canImport(Glibc)
import Glibc
#endif

/// WGS84 longitude/latitude ↔ Web Mercator (EPSG:3857, Esri 102100), the two
/// spatial references web maps and feature services mix: by formula, exact and
/// fast (`Projection` uses it for this pair and PROJ for every other).
package enum WebMercator {
    package static let radius = 6378137.0
    package static let maxLatitude = 85.0511287798066

    package static func isMercator(_ wkid: Int32) -> Bool { [3857, 102100, 102113, 900913].contains(wkid) }
    package static func isGeographic(_ wkid: Int32) -> Bool { wkid == 4326 }

    @inline(__always)
    package static func forward(_ lon: Double, _ lat: Double) -> (Double, Double) {
        let clamped = min(max(lat, -maxLatitude), maxLatitude)
        return (lon * .pi / 180 * radius, log(tan(.pi / 4 + clamped * .pi / 360)) * radius)
    }

    @inline(__always)
    package static func inverse(_ x: Double, _ y: Double) -> (Double, Double) {
        (x / radius * 180 / .pi, (2 * atan(exp(y / radius)) - .pi / 2) * 180 / .pi)
    }
}
