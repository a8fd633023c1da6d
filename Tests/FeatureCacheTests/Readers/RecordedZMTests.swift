// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Issue 31: the PBF reader against real ArcGIS answers with Z, M and ZM
/// (Fixtures/arcgis-zm, each `.pbf` with its `.json` twin from the same
/// layer), for the fast inner loop; python/tests/test_arcgis_zm.py checks the
/// same end to end (with decimal rounding). Every vertex's x and y are within
/// half a step of the server's 1e-4 grid of the twin's, and z and m equal the
/// twin's on that grid, except the one thing PBF cannot say: an M at the M
/// domain's minimum (-100000) is written like a null M, and reads as null.
@Suite struct RecordedZMTests {
    static let names = [
        "point-z", "point-m", "point-zm", "polyline-z", "polyline-m", "polyline-zm",
        "polygon-z", "polygon-m", "polygon-zm",
    ].map { "arcgis-rest-js-" + $0 }

    /// Every vertex of an ISO WKB geometry, in order, as [x, y, z, m] (nil
    /// for an ordinate the type lacks, NaN for a null one).
    private func vertices(_ wkb: UnsafeRawBufferPointer) -> [[Double?]] {
        var offset = 0, out: [[Double?]] = []
        func uint32() -> Int {
            defer { offset += 4 }; return Int(UInt32(littleEndian: wkb.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        func double() -> Double {
            defer { offset += 8 };
            return Double(bitPattern: UInt64(littleEndian: wkb.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }
        func geometry() {
            offset += 1  // byte order: the library writes little-endian
            let code = uint32()
            let hasZ = (code / 1000) % 2 == 1, hasM = code / 1000 >= 2
            func vertex() { out.append([double(), double(), hasZ ? double() : nil, hasM ? double() : nil]) }
            switch code % 1000 {
            case 1: vertex()
            case 2: for _ in 0..<uint32() { vertex() }
            case 3: for _ in 0..<uint32() { for _ in 0..<uint32() { vertex() } }
            default: for _ in 0..<uint32() { geometry() }
            }
        }
        geometry()
        return out
    }

    /// The twin's vertices in the same form: x, y (and z, m) of `{x, y, z, m}`
    /// points, or of `[x, y, z?, m?]` positions in the layout the answer declares.
    private func vertices(_ geometry: JSONValue, hasZ: Bool, hasM: Bool) -> [[Double?]] {
        func value(_ json: JSONValue?) -> Double? { json.map { $0.isNull ? .nan : $0.double! } }
        if let x = geometry["x"] {
            return [[x.double!, geometry["y"]!.double!, hasZ ? value(geometry["z"]) : nil, hasM ? value(geometry["m"]) : nil]]
        }
        let parts = (geometry["rings"] ?? geometry["paths"] ?? geometry["points"].map { .array([$0]) })!.array!
        return parts.flatMap { part in
            part.array!.map { position in
                let p = position.array!
                return [p[0].double!, p[1].double!, hasZ ? value(p[2]) : nil, hasM ? value(p[hasZ ? 3 : 2]) : nil]
            }
        }
    }

    /// A JSON ordinate on the 1e-4 grid the PBF answer was written on.
    private func onGrid(_ value: Double?) -> Double? {
        value.map { $0.isNaN ? $0 : ($0 * 10_000).rounded() / 10_000 }
    }

    @Test(arguments: names)
    func recordedPBFReadsAsItsJSONTwin(name: String) throws {
        let twin = try JSONValue.parse(try Fixtures.bytes("arcgis-zm/\(name).json"))
        let hasZ = twin["hasZ"]?.bool ?? false, hasM = twin["hasM"]?.bool ?? false
        let batch = try Fixtures.bytes("arcgis-zm/\(name).pbf").withBytes { (bytes) throws(FeatureCacheError) in
            try EsriPBFReader.read(bytes, fields: [], objectIdField: nil)
        }.batch
        let features = twin["features"]!.array!
        #expect(batch.count == features.count && batch.count >= 3)
        var ambiguous = 0
        for (row, feature) in features.enumerated() {
            #expect(batch.objectId(row) == feature["attributes"]!["OBJECTID"]!.int!)
            // Rings may be regrouped into polygons: compared as sorted vertex lists.
            func key(_ v: [Double?]) -> [Double] { v.map { $0 ?? -.infinity } }
            let got = vertices(batch.geometry.wkb(row)).sorted { key($0).lexicographicallyPrecedes(key($1)) }
            let want = vertices(feature["geometry"]!, hasZ: hasZ, hasM: hasM).map { [$0[0], $0[1], onGrid($0[2]), onGrid($0[3])] }
                .sorted { key($0).lexicographicallyPrecedes(key($1)) }
            #expect(got.count == want.count, "\(name) row \(row)")
            for (g, w) in zip(got, want) {
                #expect(abs(g[0]! - w[0]!) <= 0.5e-4 + 1e-9 && abs(g[1]! - w[1]!) <= 0.5e-4 + 1e-9, "\(name) row \(row): \(g) vs \(w)")
                #expect(g[2] == w[2], "\(name) row \(row): z \(String(describing: g[2])) vs \(String(describing: w[2]))")
                if w[3] == -100_000, g[3]?.isNaN == true {
                    ambiguous += 1  // PBF's null M and the domain's minimum are one integer
                } else {
                    #expect(
                        g[3] == w[3] || (g[3]?.isNaN == true && w[3]?.isNaN == true),
                        "\(name) row \(row): m \(String(describing: g[3])) vs \(String(describing: w[3]))")
                }
            }
        }
        #expect(ambiguous == (name == "arcgis-rest-js-point-m" ? 1 : 0))
    }
}
