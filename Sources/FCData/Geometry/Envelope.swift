// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A spatial reference as services name it: a well-known id (and the newer id that
/// replaced it, e.g. 102100 → 3857), or WKT when there is no id.
public struct SpatialReference: Sendable, Equatable {
    public var wkid: Int32
    public var latestWkid: Int32
    public var wkt: String?

    public init(wkid: Int32, latestWkid: Int32 = 0, wkt: String? = nil) {
        self.wkid = wkid
        self.latestWkid = latestWkid
        self.wkt = wkt
    }

    public static let wgs84 = SpatialReference(wkid: 4326, latestWkid: 4326)
    public static let webMercator = SpatialReference(wkid: 102100, latestWkid: 3857)

    /// The id to compare and send: the latest one when known.
    public var effectiveWkid: Int32 { latestWkid != 0 ? latestWkid : wkid }
}

/// An axis-aligned rectangle in a spatial reference.
public struct Envelope: Sendable, Equatable {
    public var xmin: Double
    public var ymin: Double
    public var xmax: Double
    public var ymax: Double
    public var spatialReference: SpatialReference?

    public init(xmin: Double, ymin: Double, xmax: Double, ymax: Double, spatialReference: SpatialReference? = nil) {
        self.xmin = xmin
        self.ymin = ymin
        self.xmax = xmax
        self.ymax = ymax
        self.spatialReference = spatialReference
    }

    /// False for empty or NaN extents (ArcGIS writes `"xmin":"NaN"` or nulls for empty layers).
    public var isValid: Bool { xmin <= xmax && ymin <= ymax }
}
