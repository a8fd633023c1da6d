// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// The area a view fetches: the visible extent and, around it, the part of the
/// buffer the next view is likely to need.
///
/// - A pan (same scale, the view moved) puts the buffer ahead of the
///   movement: on each axis the view moved along, the whole extra length
///   (`factor - 1` view lengths) goes on the side it moved towards; an axis it
///   did not move along gets none. Panning on keeps finding its features
///   cached, and the area behind (just seen) or to the sides is not fetched.
/// - The first view, a zoom or a jump far away: the view grown by `factor`
///   around its centre (half the extra length on each side), as the ArcGIS SDK
///   does, since nothing says where the user goes next.
package enum ViewBuffer {
    package static func area(
        _ extent: Envelope, scale: Double, after previous: Envelope?, scale previousScale: Double,
        factor: Double
    ) throws(FeatureCacheError) -> Envelope {
        let width = extent.xmax - extent.xmin, height = extent.ymax - extent.ymin
        guard width.isFinite, height.isFinite else {
            throw FeatureCacheError.invalidArgument(
                "the visible extent is wider than a double can hold: coordinates near ±1.8e308 are no map's")
        }
        var x = (low: (factor - 1) * width / 2, high: (factor - 1) * width / 2)
        var y = (low: (factor - 1) * height / 2, high: (factor - 1) * height / 2)
        if let previous, let move = panMove(extent, scale: scale, from: previous, scale: previousScale) {
            x = ahead(move.dx, extra: (factor - 1) * width, length: width)
            y = ahead(move.dy, extra: (factor - 1) * height, length: height)
        }
        let area = Envelope(
            xmin: extent.xmin - x.low, ymin: extent.ymin - y.low, xmax: extent.xmax + x.high, ymax: extent.ymax + y.high,
            spatialReference: extent.spatialReference)
        guard [area.xmin, area.ymin, area.xmax, area.ymax].allSatisfy(\.isFinite) else {
            throw FeatureCacheError.invalidArgument(
                "the visible extent, buffered by \(factor), is not finite: coordinates near ±1.8e308 are no map's")
        }
        return area
    }

    /// How far the view panned, nil when the change is not a pan: another
    /// scale or size (a zoom), another spatial reference, or a jump that leaves
    /// the previous view more than a view away.
    private static func panMove(
        _ extent: Envelope, scale: Double, from previous: Envelope, scale previousScale: Double
    ) -> (dx: Double, dy: Double)? {
        let width = extent.xmax - extent.xmin, height = extent.ymax - extent.ymin
        guard scale == previousScale, extent.spatialReference?.effectiveWkid == previous.spatialReference?.effectiveWkid,
            abs((previous.xmax - previous.xmin) - width) <= width * 1e-6,
            abs((previous.ymax - previous.ymin) - height) <= height * 1e-6
        else { return nil }
        let dx = extent.xmin - previous.xmin, dy = extent.ymin - previous.ymin
        guard abs(dx) <= width, abs(dy) <= height, dx != 0 || dy != 0 else { return nil }
        return (dx, dy)
    }

    /// The extra length on the low and high side of an axis the view moved
    /// `move` along: all ahead, none behind; none for a move under 1 % of the length.
    private static func ahead(_ move: Double, extra: Double, length: Double) -> (low: Double, high: Double) {
        guard abs(move) >= length * 0.01 else { return (0, 0) }
        return move > 0 ? (0, extra) : (extra, 0)
    }
}
