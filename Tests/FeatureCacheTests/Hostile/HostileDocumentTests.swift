// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Documents built to cost a reader time or stack (issue 13, D9 and the
/// recursion bounds): refused fast, with an error that names the limit.
@Suite struct HostileDocumentTests {
    private func gml(_ attributes: Int) -> [UInt8] {
        var bytes = Array("<wfs:FeatureCollection \(GMLReaderTests.wfs20)><wfs:member><ms:t gml:id=\"t.1\"".utf8)
        bytes.reserveCapacity(bytes.count + attributes * 12 + 100)
        for index in 0..<attributes {
            bytes += [0x20, UInt8(ascii: "a")]
            bytes += Array(String(index).utf8)
            bytes += Array("=\"1\"".utf8)
        }
        bytes += Array("><ms:name>x</ms:name></ms:t></wfs:member></wfs:FeatureCollection>".utf8)
        return bytes
    }

    private func read(_ bytes: [UInt8]) throws(FeatureCacheError) -> GMLPage {
        try bytes.withBytes { (raw) throws(FeatureCacheError) in
            try GMLReader.read(raw, fields: GMLReaderTests.fields, geometryProperty: "geom", identity: FeatureIdentity(), swapAxes: false)
        }
    }

    @Test func anElementWithTooManyAttributesIsRefusedBeforeParsing() throws {
        // libxml2 compares attributes pairwise: 200,000 of them took minutes.
        #expect {
            _ = try read(gml(200_000))
        } throws: { error in
            let error = error as! FeatureCacheError
            return error.code == .parse && error.message.contains("more than 1024 attributes")
        }
        // Many attributes that real documents could have still parse.
        #expect(try read(gml(1000)).batch.count == 1)
        // Quoted values, comments and CDATA do not count.
        let quoted =
            "<a b=\"" + String(repeating: "x=1 ", count: 5000) + "\"><!-- " + String(repeating: "c=d ", count: 5000)
            + " --><![CDATA[" + String(repeating: "e=f ", count: 5000) + "]]></a>"
        #expect(throws: Never.self) { _ = try XMLElement.parse(Array(quoted.utf8)) }
    }

    @Test func deepJSONIsRefusedAtItsLimit() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect {
            _ = try JSONValue.parse(Array(deep.utf8))
        } throws: { ($0 as! FeatureCacheError).message.contains("nesting deeper than") }
        let geometry =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":"#
            + String(repeating: "[", count: 50_000) + "0,0" + String(repeating: "]", count: 50_000) + "}}]}"
        #expect(throws: FeatureCacheError.self) {
            _ = try Array(geometry.utf8).withBytes { (raw) throws(FeatureCacheError) in
                try GeoJSONReader.read(raw, identity: FeatureIdentity())
            }
        }
    }

    @Test func deepXMLIsRefusedAtItsLimit() {
        let deep = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        #expect {
            _ = try XMLElement.parse(Array(deep.utf8))
        } throws: { ($0 as! FeatureCacheError).message.contains("nested deeper than") }
    }
}
