// SPDX-License-Identifier: Apache-2.0
import FCSupport

#if canImport(Glibc)
import Glibc
#endif

/// WGS84 longitude/latitude ↔ Web Mercator (EPSG:3857, Esri 102100), the two
/// spatial references web maps and feature services mix. Other pairs are not
/// projected here: a query in another reference goes to the server as is.
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

    /// The function taking coordinates from `from` to `to`; nil = no change
    /// needed (same reference, or one unknown = assume the table's).
    package static func transform(from: Int32, to: Int32) throws(FeatureCacheError) -> CoordinateTransform? {
        if from == 0 || to == 0 || from == to || (isMercator(from) && isMercator(to)) { return nil }
        if isGeographic(from), isMercator(to) { return forward }
        if isMercator(from), isGeographic(to) { return inverse }
        throw FeatureCacheError(.unsupported, "cannot project from wkid \(from) to wkid \(to) locally (only WGS84 and Web Mercator)")
    }
}

/// A pure function of one coordinate pair, safe to use from any task.
package typealias CoordinateTransform = @Sendable (Double, Double) -> (Double, Double)

extension Shape {
    /// The shape with every coordinate mapped (densifying nothing: a Web Mercator
    /// rectangle maps to a lon/lat rectangle exactly, other edges nearly so).
    package func mapped(_ transform: (Double, Double) -> (Double, Double)) -> Shape {
        Shape(
            dimension: dimension,
            parts: parts.map { part in
                var out = part
                var i = 0
                while i + 1 < out.count {
                    (out[i], out[i + 1]) = transform(part[i], part[i + 1])
                    i += 2
                }
                return out
            })
    }
}

extension Envelope {
    /// The envelope in another spatial reference (its corners projected).
    package func projected(to wkid: Int32) throws(FeatureCacheError) -> Envelope {
        guard let transform = try WebMercator.transform(from: spatialReference?.effectiveWkid ?? 0, to: wkid) else { return self }
        let (x0, y0) = transform(xmin, ymin), (x1, y1) = transform(xmax, ymax)
        return Envelope(
            xmin: min(x0, x1), ymin: min(y0, y1), xmax: max(x0, x1), ymax: max(y0, y1),
            spatialReference: SpatialReference(wkid: wkid))
    }
}
