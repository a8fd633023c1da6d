// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Issue 19: the protocol-buffer reader against three real ArcGIS `f=pbf`
/// responses and an independent decoding of each (Fixtures/arcgis-pbf/SOURCE.md),
/// and against malformed input: every cut, flipped wire types, huge lengths.
@Suite struct EsriPBFReaderTests {
    static let responses = ["pbf-points", "pbf-multilinestring", "pbf-quantization"]

    private func read(_ bytes: [UInt8]) throws(FeatureCacheError) -> EsriQueryPage {
        try bytes.withBytes { (buffer) throws(FeatureCacheError) in try EsriPBFReader.read(buffer, fields: [], objectIdField: nil) }
    }

    /// The parts of a GeoJSON geometry, flattened as `Shape` flattens WKB.
    private func parts(_ geometry: JSONValue) -> [[Double]] {
        func flat(_ points: JSONValue) -> [Double] { points.array!.flatMap { $0.array!.prefix(2).map { $0.double! } } }
        let coordinates = geometry["coordinates"]!
        switch geometry["type"]!.string! {
        case "Point": return [coordinates.array!.prefix(2).map { $0.double! }]
        case "MultiPoint", "LineString": return [flat(coordinates)]
        case "MultiLineString", "Polygon": return coordinates.array!.map(flat)
        case "MultiPolygon": return coordinates.array!.flatMap { $0.array!.map(flat) }
        default: Issue.record("unexpected \(geometry["type"]!)"); return []
        }
    }

    /// The transform's resolution: how far a decoded coordinate may be from the
    /// independent decoding (which rounds differently).
    private func tolerance(_ name: String) -> Double { name == "pbf-quantization" ? 1e-3 : 1e-6 }

    @Test(arguments: responses)
    func realResponsesDecodeToTheirIndependentDecoding(name: String) throws {
        let page = try read(try Fixtures.bytes("arcgis-pbf/\(name).pbf"))
        let expected = try JSONValue.parse(try Fixtures.bytes("arcgis-pbf/\(name).decoded.json"))
        let features = expected["featureCollection"]!["features"]!.array!
        let batch = page.batch
        #expect(batch.count == features.count && batch.count > 0)
        #expect(page.exceededTransferLimit == (expected["exceededTransferLimit"]?.bool ?? false))
        for (row, feature) in features.enumerated() {
            #expect(batch.objectId(row) == feature["id"]!.int!, "\(name) row \(row)")
            for (key, value) in feature["properties"]!.members! {
                let column = try #require(batch.columnIndex(named: key), "\(name): no column \(key)")
                let stored = batch.columns[column]
                if value.isNull {
                    #expect(stored.isNull(row), "\(name) row \(row) \(key)")
                } else if let text = value.string {
                    #expect(stored.string(row) == text, "\(name) row \(row) \(key)")
                } else {
                    #expect(stored.kind != .string, "\(name) \(key) (\(stored.field.type)) holds text, decoded as \(value)")
                    if stored.kind != .string { #expect(stored.double(row) == value.double!, "\(name) row \(row) \(key)") }  // exactly
                }
            }
            let shape = try #require(Shape(wkb: batch.geometry.wkb(row)), "\(name) row \(row): no geometry")
            // Rings are grouped into polygons by orientation, so compared as a
            // set; a ring of fewer than four points (a sliver the quantization
            // collapsed) is no ring, and is left out of the stored polygon.
            let isArea = feature["geometry"]!["type"]!.string!.hasSuffix("Polygon")
            func comparable(_ parts: [[Double]]) -> [[Double]] {
                guard isArea else { return parts }
                return parts.filter { $0.count >= 8 }.sorted { ($0.count, $0[0], $0[1]) < ($1.count, $1[0], $1[1]) }
            }
            let got = comparable(shape.parts), want = comparable(parts(feature["geometry"]!))
            #expect(got.count == want.count, "\(name) row \(row)")
            for (got, wanted) in zip(got, want) {
                #expect(got.count == wanted.count, "\(name) row \(row)")
                for (a, b) in zip(got, wanted) where abs(a - b) > tolerance(name) {
                    Issue.record("\(name) row \(row): \(a) vs \(b)")
                    return
                }
            }
        }
    }

    @Test func theHeaderIsRead() throws {
        let points = try read(try Fixtures.bytes("arcgis-pbf/pbf-points.pbf"))
        #expect(points.spatialReference?.effectiveWkid == 3857)
        #expect(points.batch.fields.map(\.name).contains("LOCATION"))
        #expect(points.batch.fields.first { $0.name == "OBJECTID" }?.type == .oid)
    }

    /// Every cut of a real response fails with a parse error naming a byte
    /// offset, never a crash or a silently short page: the query result is one
    /// length-delimited field, so any cut leaves it running past the end.
    @Test(arguments: responses)
    func everyTruncationFailsCleanly(name: String) throws {
        let bytes = try Fixtures.bytes("arcgis-pbf/\(name).pbf")
        let step = max(1, bytes.count / 3000)  // every byte of the small ones, ~3,000 cuts of the large one
        for cut in stride(from: 0, to: bytes.count, by: step) {
            do {
                let page = try read(Array(bytes[..<cut]))
                Issue.record("\(name) cut at \(cut) read \(page.batch.count) features")
            } catch {
                #expect(error.code == .parse && error.message.contains("at byte"), "\(name) cut at \(cut): \(error)")
            }
        }
    }

    @Test(arguments: responses)
    func flippedWireTypesFailCleanly(name: String) throws {
        let bytes = try Fixtures.bytes("arcgis-pbf/\(name).pbf")
        var random = SeededRandom(seed: 19)
        for _ in 0..<400 {
            var copy = bytes
            let at = Int(random.next() % UInt64(copy.count))
            copy[at] ^= UInt8(1 + random.next() % 7)  // another wire type when it hits a tag
            do { _ = try read(copy) } catch { #expect(error.code == .parse, "\(error)") }
        }
    }

    @Test func hugeLengthsAndLongVarintsFailWithTheirOffset() {
        func fails(_ bytes: [UInt8], _ text: String) {
            do {
                _ = try read(bytes)
                Issue.record("read \(bytes)")
            } catch {
                #expect(error.code == .parse && error.message.contains(text), "\(error.message)")
            }
        }
        fails([0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F], "runs past the end")  // queryResult of 4 GiB
        fails([0x12] + [UInt8](repeating: 0xFF, count: 10) + [0x01], "overflows 64 bits")  // an 11-byte varint
        fails([0x12, 0x80], "cut off")
        fails([0x13], "groups")  // field 2, wire type 3
        fails([0x10, 0x01], "wire type 0, expected 2")  // queryResult as a varint
        fails([0x0A, 0x01, 0x31], "expected features")  // a version and nothing else
        fails([], "expected features")
    }

    @Test func valuesForFieldsThatDoNotExistAndCoordinatesThatDisagreeFail() {
        // featureResult { geometryType: point, transform {scale 1,1}, fields [OID], features [...] }
        func response(feature: [UInt8]) -> [UInt8] {
            let field = message(13, message(1, Array("OID".utf8)) + [0x10, 0x06])
            let transform = message(12, message(2, [0x09] + bytes(of: 1.0) + [0x11] + bytes(of: 1.0)))
            return message(2, message(1, [0x38, 0x00] + transform + field + message(15, feature)))
        }
        let value = message(1, [0x28, 0x07])  // uint 7
        let point = message(2, message(3, [0x02, 0x04]))  // coords (1, 2)
        #expect(throws: Never.self) { _ = try read(response(feature: value + point)) }
        let page = try? read(response(feature: value + point))
        #expect(page?.batch.objectId(0) == 7)
        let twoValues = value + message(1, [0x28, 0x08])
        #expect(throws: FeatureCacheError.self) { _ = try read(response(feature: twoValues + point)) }
        let threeOrdinates = message(2, message(3, [0x02, 0x04, 0x06]))
        #expect(throws: FeatureCacheError.self) { _ = try read(response(feature: value + threeOrdinates)) }
        let lengthsDisagree = message(2, message(2, [0x03]) + message(3, [0x02, 0x04]))
        #expect(throws: FeatureCacheError.self) { _ = try read(response(feature: value + lengthsDisagree)) }
    }

    /// Without quantization real servers send their spatial reference's grid
    /// (1e-4 m from the Web Mercator false origin; 1e-9 degrees from -400): the
    /// coordinates come out as the grid's decimals, as short as the JSON
    /// answer's digits, not translate + q × scale's -9420644.991799999.
    @Test(arguments: ["pbf-points": 4, "pbf-multilinestring": 9])
    func realGridsDecodeToTheirDecimals(name: String, decimals: Int) throws {
        let batch = try read(try Fixtures.bytes("arcgis-pbf/\(name).pbf")).batch
        var checked = 0
        for row in 0..<batch.count {
            for coordinate in try #require(Shape(wkb: batch.geometry.wkb(row))).parts.joined() {
                let text = "\(coordinate)"
                let fraction = text.split(separator: ".").dropFirst().first ?? ""
                #expect(fraction.count <= decimals && !text.contains("e"), "\(name) row \(row): \(text)")
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    /// Coordinates on a decimal grid decode to the double their digits parse to,
    /// bit for bit, for points (the reader's point path) and vertices of lines
    /// (the general path, with z), with either origin; a grid integer too large
    /// for the division's exact path, and a scale that is no power of ten, fall
    /// back to translate + q × scale.
    @Test func decimalGridsDecodeToTheDoublesTheirDigitsParseTo() throws {
        var random = SeededRandom(seed: 20)
        for upperLeft in [true, false] {
            // Degrees with 7 decimals, as the emulator's layers and many real ones.
            let values = (0..<400).map { _ in
                (Int64(random.next() % 3_600_000_000) - 1_800_000_000, Int64(random.next() % 1_800_000_000) - 900_000_000)
            }
            func decimal(_ n: Int64) -> Double {
                let digits = String(n.magnitude).leftPadded(to: 8)
                return Double((n < 0 ? "-" : "") + digits.dropLast(7) + "." + digits.suffix(7))!
            }
            // q on the 1e-9 grid from -400: x = -400 + q × 1e-9, y = -400 ∓ q × 1e-9.
            func qx(_ n: Int64) -> Int64 { n * 100 + 400_000_000_000 }
            func qy(_ n: Int64) -> Int64 { upperLeft ? -(n * 100 + 400_000_000_000) : n * 100 + 400_000_000_000 }
            let transform = message(
                12,
                (upperLeft ? [] : [0x08, 0x01])
                    + message(2, [0x09] + bytes(of: 1e-9) + [0x11] + bytes(of: 1e-9) + [0x21] + bytes(of: 1e-4))
                    + message(3, [0x09] + bytes(of: -400) + [0x11] + bytes(of: -400) + [0x21] + bytes(of: -100_000)))
            let field = message(13, message(1, Array("OID".utf8)) + [0x10, 0x06])
            var points: [UInt8] = [0x38, 0x00] + transform + field
            for (index, (x, y)) in values.enumerated() {
                points += delimited(
                    15,
                    message(1, [0x28] + varint(UInt64(index + 1)))
                        + delimited(2, delimited(3, zigzag(qx(x)) + zigzag(qy(y)))))
            }
            let pointBatch = try read(delimited(2, delimited(1, points))).batch
            for (row, (x, y)) in values.enumerated() {
                let part = try #require(Shape(wkb: pointBatch.geometry.wkb(row))).parts[0]
                #expect(
                    part[0].bitPattern == decimal(x).bitPattern && part[1].bitPattern == decimal(y).bitPattern,
                    "point \(row): \(part) vs \(decimal(x)), \(decimal(y))")
            }
            // One line through the same places, with heights of 4 decimals from
            // -100000: x and y as deltas, z absolute (as ArcGIS writes them).
            var coords: [UInt8] = []
            var previous: (Int64, Int64) = (0, 0)
            for (index, (x, y)) in values.enumerated() {
                let z = Int64(index) * 12_345 + 1_000_000_000  // 1e-4 steps from -100000
                coords += zigzag(qx(x) - previous.0) + zigzag(qy(y) - previous.1) + zigzag(z)
                previous = (qx(x), qy(y))
            }
            let line =
                [0x38, 0x02, 0x50, 0x01] + transform + field
                + delimited(15, message(1, [0x28, 0x01]) + delimited(2, delimited(2, varint(UInt64(values.count))) + delimited(3, coords)))
            let lineBatch = try read(delimited(2, delimited(1, line))).batch
            let wkb = Array(lineBatch.geometry.wkb(0))
            #expect(wkb.count == 9 + values.count * 24 && wkb[1] == 0xEA && wkb[2] == 0x03)  // ISO LineString Z (1002)
            for (index, (x, y)) in values.enumerated() {
                let vertex = (0..<3).map { axis in wkb.double(at: 9 + index * 24 + axis * 8) }
                let height = Double("\(Int64(index) * 12_345 / 10_000).\(String(Int64(index) * 12_345 % 10_000).leftPadded(to: 4))")!
                #expect(vertex.map(\.bitPattern) == [decimal(x), decimal(y), height].map(\.bitPattern), "vertex \(index): \(vertex)")
            }
        }
        // Off the exact path: a grid integer past 2^53, and a scale of 2^-10.
        func onePoint(scale: Double, translate: Double, q: Int64) throws -> [Double] {
            let transform = message(
                12,
                message(2, [0x09] + bytes(of: scale) + [0x11] + bytes(of: scale))
                    + message(3, [0x09] + bytes(of: translate) + [0x11] + bytes(of: translate)))
            let body =
                [0x38, 0x00] + transform + message(13, message(1, Array("OID".utf8)) + [0x10, 0x06])
                + delimited(15, message(1, [0x28, 0x01]) + delimited(2, delimited(3, zigzag(q) + zigzag(-q))))
            let batch = try read(delimited(2, delimited(1, body))).batch
            return try #require(Shape(wkb: batch.geometry.wkb(0)), "q \(q): \(Array(batch.geometry.wkb(0)))").parts[0]
        }
        let huge: Int64 = 1 << 60
        #expect(try onePoint(scale: 1e-9, translate: -400, q: huge) == [-400 + Double(huge) * 1e-9, -400 + Double(huge) * 1e-9])
        #expect(try onePoint(scale: 1e-9, translate: -400, q: .max) == [-400 + Double(Int64.max) * 1e-9, -400 + Double(Int64.max) * 1e-9])
        #expect(try onePoint(scale: 0x1p-10, translate: 0.1, q: 3) == [0.1 + 3 * 0x1p-10, 0.1 + 3 * 0x1p-10])
    }

    /// Values missing from a feature are NULL; an explicit null value, and
    /// values that name their field's `index` out of order, land in the right
    /// columns (the reader skips filling in NULLs only when every column has
    /// its value).
    @Test func missingNullAndIndexedValuesFillTheirColumns() throws {
        func field(_ name: String, _ type: UInt8) -> [UInt8] { message(13, message(1, Array(name.utf8)) + [0x10, type]) }
        let fields = field("OID", 6) + field("NAME", 4) + field("SIZE", 3)
        let transform = message(12, message(2, [0x09] + bytes(of: 1.0) + [0x11] + bytes(of: 1.0)))
        func id(_ value: UInt8) -> [UInt8] { message(1, [0x28, value]) }  // uint_value
        func text(_ value: String) -> [UInt8] { message(1, [0x0A, UInt8(value.utf8.count)] + Array(value.utf8)) }
        func size(_ value: Double, index: UInt8? = nil) -> [UInt8] {
            message(1, [0x19] + bytes(of: value) + (index.map { [0x58, $0] } ?? []))  // double_value, index
        }
        let point = message(2, message(3, [0x02, 0x04]))
        let features = [
            id(1) + text("oak") + size(2.5) + point,  // every column
            id(2) + point,  // NAME and SIZE missing
            size(7, index: 2) + message(1, [0x28, 3, 0x58, 0]) + point,  // SIZE then OID by index; NAME missing
            id(4) + message(1, [0x50, 0x01]) + size(9),  // an explicit null for NAME; no geometry
        ]
        let body = [0x38, 0x00] + transform + fields + features.flatMap { message(15, $0) }
        let batch = try read(delimited(2, delimited(1, body))).batch
        let name = batch.columns[batch.columnIndex(named: "NAME")!], sizes = batch.columns[batch.columnIndex(named: "SIZE")!]
        #expect((0..<4).map { batch.objectId($0) } == [1, 2, 3, 4])
        #expect(name.string(0) == "oak" && name.isNull(1) && name.isNull(2) && name.isNull(3))
        #expect(sizes.double(0) == 2.5 && sizes.isNull(1) && sizes.double(2) == 7 && !sizes.isNull(2) && sizes.double(3) == 9)
        #expect(batch.count == 4 && batch.geometry.wkb(3).isEmpty && !batch.geometry.wkb(2).isEmpty)
    }

    /// A hostile header: 100,000 fields (and no features) read field by field
    /// in place; a copy of the list per field made this quadratic.
    @Test func aResponseListingManyFieldsReads() throws {
        var fields: [UInt8] = []
        for index in 0..<100_000 {
            let name = Array("f\(index)".utf8)
            fields += [13 << 3 | 2, UInt8(4 + name.count), 0x0A, UInt8(name.count)] + name + [0x10, 0x04]
        }
        let page = try read(delimited(2, delimited(1, fields)))
        #expect(page.batch.fields.count == 100_000 && page.batch.count == 0)
        #expect(page.batch.fields.last?.name == "f99999" && page.batch.fields.last?.type == .string)
    }

    /// A length-delimited field of any length (varint length).
    private func delimited(_ field: UInt8, _ body: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        var n = body.count
        while n >= 0x80 { length.append(UInt8(n & 0x7F) | 0x80); n >>= 7 }
        length.append(UInt8(n))
        return [field << 3 | 2] + length + body
    }

    private func message(_ field: UInt8, _ body: [UInt8]) -> [UInt8] {
        precondition(body.count < 128)
        return [field << 3 | 2, UInt8(body.count)] + body
    }

    private func bytes(of value: Double) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init) }

    private func varint(_ value: UInt64) -> [UInt8] {
        var out: [UInt8] = [], rest = value
        while rest >= 0x80 { out.append(UInt8(rest & 0x7F) | 0x80); rest >>= 7 }
        return out + [UInt8(rest)]
    }

    private func zigzag(_ value: Int64) -> [UInt8] { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    /// Varints of every length from 1 to 10 bytes decode to what was encoded,
    /// read eight bytes at a time where eight remain and byte by byte near the
    /// end of the message.
    @Test func varintsOfEveryLengthRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        var values: [UInt64] = [0, 1, 127, 128, 16_383, 16_384, UInt64(Int64.max), UInt64.max]
        for bits in 1...64 { values.append(UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64(64 - bits)) }
        var encoded: [UInt8] = []
        for value in values {
            var rest = value
            while rest >= 0x80 { encoded.append(UInt8(rest & 0x7F) | 0x80); rest >>= 7 }
            encoded.append(UInt8(rest))
        }
        let decoded = try encoded.withUnsafeBytes { (raw) throws(FeatureCacheError) -> [UInt64] in
            var reader = ProtobufReader(raw)
            var out: [UInt64] = []
            while !reader.isAtEnd { out.append(try reader.readVarint()) }
            return out
        }
        #expect(decoded == values)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

private extension Array where Element == UInt8 {
    func double(at offset: Int) -> Double {
        Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(self[offset + $1]) << (8 * UInt64($1)) })
    }
}
