// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// ISO Well-Known Binary geometry type codes (2D).
public enum WKBType: UInt32, Sendable {
    case point = 1
    case lineString = 2
    case polygon = 3
    case multiPoint = 4
    case multiLineString = 5
    case multiPolygon = 6
    case geometryCollection = 7
}

/// The ordinates a vertex carries beyond x and y: Z (height), M (a measure), or
/// both, in that order after x and y, as ISO WKB writes them (type codes
/// +1000 for Z, +2000 for M, +3000 for ZM).
package struct VertexLayout: Equatable, Sendable {
    package var hasZ = false
    package var hasM = false

    package static let xy = VertexLayout()

    /// Ordinates beyond x and y.
    package var extra: Int { (hasZ ? 1 : 0) + (hasM ? 1 : 0) }
    package var wkbTypeOffset: UInt32 { (hasZ ? 1000 : 0) + (hasM ? 2000 : 0) }

    /// The layout of an ISO WKB type code (1, 1001, 2001, 3001, …).
    package init(wkbType code: UInt32) {
        hasZ = (code / 1000) & 1 == 1
        hasM = code / 1000 >= 2
    }

    package init(hasZ: Bool = false, hasM: Bool = false) {
        self.hasZ = hasZ
        self.hasM = hasM
    }
}

/// Appends little-endian ISO WKB to a byte array.
package struct WKBWriter {
    package var bytes: [UInt8] = []

    package init() {}

    @inline(__always)
    package mutating func header(_ type: WKBType, _ layout: VertexLayout = .xy) {
        bytes.append(1)  // little endian
        uint32(type.rawValue + layout.wkbTypeOffset)
    }

    /// x and y, then the vertex's Z and/or M.
    @inline(__always)
    package mutating func vertex(_ x: Double, _ y: Double, _ extra: ArraySlice<Double>) {
        point(x, y)
        for value in extra { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
    }

    @inline(__always)
    package mutating func uint32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    package mutating func point(_ x: Double, _ y: Double) {
        withUnsafeBytes(of: (x.bitPattern.littleEndian, y.bitPattern.littleEndian)) { bytes.append(contentsOf: $0) }
    }

    /// Reserves a count to be written later with `patch(_:at:)`.
    package mutating func countPlaceholder() -> Int {
        let at = bytes.count
        uint32(0)
        return at
    }

    package mutating func patch(_ count: Int, at offset: Int) {
        let value = UInt32(truncatingIfNeeded: count).littleEndian
        withUnsafeBytes(of: value) { for index in 0..<4 { bytes[offset + index] = $0[index] } }
    }
}

/// A parsed geometry: the small tree used for query geometries and for checking
/// WKB handed in through the C API. Cached features stay as WKB bytes.
public indirect enum Geometry: Sendable, Equatable {
    case point(x: Double, y: Double)
    case multiPoint([XY])
    case lineString([XY])
    case multiLineString([[XY]])
    case polygon([[XY]])
    case multiPolygon([[[XY]]])
    case collection([Geometry])

    public struct XY: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    }

    /// The ArcGIS geometry type this geometry is sent as.
    public var geometryType: GeometryType {
        switch self {
        case .point: .point
        case .multiPoint: .multipoint
        case .lineString, .multiLineString: .polyline
        case .polygon, .multiPolygon: .polygon
        case .collection: .unknown
        }
    }

    /// The bounding box; nil for an empty geometry.
    public var envelope: Envelope? {
        var box = BoundingBox()
        forEachPoint { box.add($0.x, $0.y) }
        return box.isEmpty ? nil : Envelope(xmin: box.xmin, ymin: box.ymin, xmax: box.xmax, ymax: box.ymax)
    }

    package func forEachPoint(_ body: (XY) -> Void) {
        switch self {
        case let .point(x, y): if !x.isNaN { body(XY(x, y)) }
        case let .multiPoint(points), let .lineString(points): points.forEach(body)
        case let .multiLineString(lists), let .polygon(lists): lists.forEach { $0.forEach(body) }
        case let .multiPolygon(polygons): polygons.forEach { $0.forEach { $0.forEach(body) } }
        case let .collection(members): members.forEach { $0.forEachPoint(body) }
        }
    }
}

/// A running min/max over points.
package struct BoundingBox {
    /// Whether the box lies in `extent` grown by a tenth of its size (at least
    /// `margin`) on every side: evidence of which axis order coordinates are in.
    package func fits(in extent: BoundingBox, margin: Double) -> Bool {
        let dx = max(margin, (extent.xmax - extent.xmin) * 0.1), dy = max(margin, (extent.ymax - extent.ymin) * 0.1)
        return xmin >= extent.xmin - dx && xmax <= extent.xmax + dx && ymin >= extent.ymin - dy && ymax <= extent.ymax + dy
    }

    /// The box with x and y exchanged.
    package var swapped: BoundingBox { BoundingBox(ymin, xmin, ymax, xmax) }

    package var xmin = Double.infinity, ymin = Double.infinity
    package var xmax = -Double.infinity, ymax = -Double.infinity

    /// Empty: the first point added is the box.
    package init() {}

    @inline(__always)
    package mutating func add(_ x: Double, _ y: Double) {
        if x < xmin { xmin = x }
        if x > xmax { xmax = x }
        if y < ymin { ymin = y }
        if y > ymax { ymax = y }
    }

    package var isEmpty: Bool { xmin > xmax }
}
