// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Writes results as a GeoJSON FeatureCollection (RFC 7946): `id` = object id,
/// properties typed as stored (dates as epoch milliseconds, as ArcGIS's
/// `f=geojson` does), geometry straight from the WKB.
package struct GeoJSONWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package static func featureCollection(_ result: FeatureResult) -> [UInt8] {
        var writer = GeoJSONWriter()
        writer.bytes.reserveCapacity(result.count * 96)
        writer.text("{\"type\":\"FeatureCollection\",\"features\":[")
        var first = true
        let names = result.fields.map { field -> [UInt8] in
            var name = GeoJSONWriter()
            name.string(field.name)
            return name.bytes
        }
        result.forEachRow { columns, rowView, row in
            if !first { writer.bytes.append(UInt8(ascii: ",")) }
            first = false
            writer.feature(columns, rowView, row, names, geometry: result.includesGeometry)
        }
        writer.text("]}")
        return writer.bytes
    }

    /// One stored geometry as a GeoJSON geometry object; nil for WKB it cannot read.
    package static func geometry(_ wkb: UnsafeRawBufferPointer) -> String? {
        var writer = GeoJSONWriter()
        var cursor = WKBCursor(wkb)
        return writer.geometry(&cursor) ? String(decoding: writer.bytes, as: UTF8.self) : nil
    }

    /// One feature: row `row` of a batch whose object ids and geometry `rowView`
    /// reads, `columns` its column of each result field (a view of none: NULL),
    /// `names` their quoted names.
    package mutating func feature(
        _ columns: UnsafeBufferPointer<ColumnView>, _ rowView: RowView, _ row: Int, _ names: [[UInt8]],
        geometry includeGeometry: Bool
    ) {
        text("{\"type\":\"Feature\",\"id\":")
        text(String(rowView.objectId(row)))
        text(",\"geometry\":")
        let wkb = includeGeometry ? rowView.wkb(row) : UnsafeRawBufferPointer(start: nil, count: 0)
        if wkb.isEmpty {
            text("null")
        } else {
            var reader = WKBCursor(wkb)
            if !geometry(&reader) { text("null") }
        }
        text(",\"properties\":{")
        var firstProperty = true
        for (field, column) in columns.enumerated() {
            if !firstProperty { bytes.append(UInt8(ascii: ",")) }
            firstProperty = false
            bytes += names[field]
            bytes.append(UInt8(ascii: ":"))
            if column.isNull(row) { text("null"); continue }
            switch column.kind {
            case .int64: text(String(column.int64(row)))
            case .boolean: text(column.int64(row) != 0 ? "true" : "false")
            case .double: number(column.double(row))
            case .string: string(column.stringBytes(row))
            }
        }
        text("}}")
    }

    // MARK: - Geometry

    /// Writes one WKB geometry; false (nothing written) for WKB it cannot read.
    private mutating func geometry(_ wkb: inout WKBCursor) -> Bool {
        let mark = bytes.count
        if writeGeometry(&wkb) { return true }
        bytes.removeSubrange(mark...)
        return false
    }

    private mutating func writeGeometry(_ wkb: inout WKBCursor) -> Bool {
        guard let type = wkb.header() else { return false }
        switch type {
        case 1:
            guard let (x, y, z) = wkb.point() else { return false }
            text("{\"type\":\"Point\",\"coordinates\":")
            position(x, y, z)
        case 2:
            text("{\"type\":\"LineString\",\"coordinates\":")
            guard positions(&wkb) else { return false }
        case 3:
            text("{\"type\":\"Polygon\",\"coordinates\":")
            guard rings(&wkb) else { return false }
        case 4, 5, 6:
            text(
                [
                    "{\"type\":\"MultiPoint\",\"coordinates\":", "{\"type\":\"MultiLineString\",\"coordinates\":",
                    "{\"type\":\"MultiPolygon\",\"coordinates\":",
                ][Int(type) - 4])
            // Members are whole WKB geometries of the single type; GeoJSON wants their coordinates.
            let memberOK = list(&wkb) { writer, wkb in
                guard let member = wkb.header(), member == type - 3 else { return false }
                switch member {
                case 1:
                    guard let (x, y, z) = wkb.point() else { return false }
                    writer.position(x, y, z)
                    return true
                case 2: return writer.positions(&wkb)
                default: return writer.rings(&wkb)
                }
            }
            guard memberOK else { return false }
        case 7:
            text("{\"type\":\"GeometryCollection\",\"geometries\":")
            guard list(&wkb, { writer, wkb in writer.writeGeometry(&wkb) }) else { return false }
        default:
            return false
        }
        bytes.append(UInt8(ascii: "}"))
        return true
    }

    /// `[e,e,…]` for a WKB count and that many elements written by `element`.
    private mutating func list(_ wkb: inout WKBCursor, _ element: (inout GeoJSONWriter, inout WKBCursor) -> Bool) -> Bool {
        guard let count = wkb.count() else { return false }
        bytes.append(UInt8(ascii: "["))
        for index in 0..<count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard element(&self, &wkb) else { return false }
        }
        bytes.append(UInt8(ascii: "]"))
        return true
    }

    private mutating func positions(_ wkb: inout WKBCursor) -> Bool {
        list(&wkb) { writer, wkb in
            guard let (x, y, z) = wkb.point() else { return false }
            writer.position(x, y, z)
            return true
        }
    }

    private mutating func rings(_ wkb: inout WKBCursor) -> Bool {
        list(&wkb) { writer, wkb in writer.positions(&wkb) }
    }

    /// `[x,y]`, or `[x,y,z]` for a vertex with a height (GeoJSON has no M:
    /// measures are left out, as is a missing Z).
    private mutating func position(_ x: Double, _ y: Double, _ z: Double?) {
        bytes.append(UInt8(ascii: "["))
        number(x)
        bytes.append(UInt8(ascii: ","))
        number(y)
        if let z, z.isFinite {
            bytes.append(UInt8(ascii: ","))
            number(z)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    // MARK: - Scalars

    private mutating func text(_ value: String) { bytes += value.utf8 }

    /// JSON has no NaN or infinity: those become null.
    private mutating func number(_ value: Double) {
        text(value.isFinite ? JSONNumberText.shortest(value) : "null")
    }

    /// `value` as a JSON string literal (quotes and escapes included).
    package static func quoted(_ value: String) -> String { JSONStringText.quoted(value) }

    package mutating func string(_ value: String) {
        var copy = value
        copy.withUTF8 { string(UnsafeRawBufferPointer($0)) }
    }

    package mutating func string(_ value: UnsafeRawBufferPointer) {
        JSONStringText.append(value, to: &bytes)
    }
}

/// A forward reader over trusted WKB (the store's own), either byte order.
package struct WKBCursor {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    private var little = true
    /// The ordinates of the current geometry's vertices.
    private var layout = VertexLayout.xy

    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Byte order, vertex layout and 2D type code of the next geometry.
    package mutating func header() -> UInt32? {
        guard offset + 5 <= bytes.count, bytes[offset] <= 1 else { return nil }
        little = bytes[offset] == 1
        offset += 1
        guard let code = uint32(), code < 4000 else { return nil }
        layout = VertexLayout(wkbType: code)
        return code % 1000
    }

    package mutating func count() -> Int? {
        guard let value = uint32(), Int(value) <= bytes.count - offset else { return nil }
        return Int(value)
    }

    /// A vertex's x, y and Z (nil without one; an M is read past).
    package mutating func point() -> (Double, Double, Double?)? {
        guard offset + 16 + 8 * layout.extra <= bytes.count else { return nil }
        let x = double(), y = double()
        let z = layout.hasZ ? double() : nil
        if layout.hasM { _ = double() }
        return (x, y, z)
    }

    private mutating func uint32() -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return little ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw)
    }

    private mutating func double() -> Double {
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return Double(bitPattern: little ? UInt64(littleEndian: raw) : UInt64(bigEndian: raw))
    }
}

extension FeatureResult {
    /// The result as a GeoJSON FeatureCollection.
    public func geoJSON() -> String {
        String(decoding: GeoJSONWriter.featureCollection(self), as: UTF8.self)
    }
}
