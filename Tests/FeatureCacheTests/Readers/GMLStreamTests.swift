// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// GML read as it arrives (`GMLReader.Stream`): the same page however the
/// document is split, and every safety rule across chunk boundaries.
extension GMLReaderTests {
    /// 300 features of every geometry kind, text that needs decoding, and
    /// markup the attribute guard must skip: a comment and a CDATA section
    /// holding thousands of '='.
    var mixedDocument: [UInt8] {
        var members = "<!-- " + String(repeating: "a=\"1\" ", count: 2000) + "-->"
        for index in 0..<300 {
            let geometry: String
            switch index % 3 {
            case 0: geometry = "<gml:Point><gml:pos>\(index).25 -\(index).5</gml:pos></gml:Point>"
            case 1: geometry = "<gml:LineString><gml:posList>0 0 \(index) 1 2.5 \(index)</gml:posList></gml:LineString>"
            default:
                geometry =
                    "<gml:Polygon><gml:exterior><gml:LinearRing><gml:posList>0 0 10 0 10 10 0 10 0 0</gml:posList></gml:LinearRing></gml:exterior>"
                    + "<gml:interior><gml:LinearRing><gml:posList>2 2 3 2 3 3 2 2</gml:posList></gml:LinearRing></gml:interior></gml:Polygon>"
            }
            let name = index == 7 ? "<![CDATA[" + String(repeating: "b=2 ", count: 1500) + "]]>" : "caf&#233; &amp; \(index)"
            members += feature(
                geometry, id: "t.\(index + 1)",
                properties: "<ms:name>\(name)</ms:name><ms:value>\(Double(index) / 4)</ms:value><ms:count>\(index)</ms:count>")
        }
        return Array(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<wfs:FeatureCollection \(Self.wfs20) numberMatched=\"300\">\(members)</wfs:FeatureCollection>"
                .utf8)
    }

    /// Every row of a page as text: id, WKB and each column's value.
    func rows(_ page: GMLPage) -> [String] {
        (0..<page.batch.count).map { row in
            var text = "\(page.batch.objectId(row)) \(Array(page.batch.geometry.wkb(row)))"
            for column in page.batch.columns {
                if column.isNull(row) { text += " null"; continue }
                switch column.kind {
                case .string: text += " " + String(decoding: column.stringBytes(row), as: UTF8.self)
                case .double: text += " \(column.double(row))"
                default: text += " \(column.int64(row))"
                }
            }
            return text
        }
    }

    /// Feeds `bytes` in chunks of the given sizes (cycled) and finishes.
    func stream(_ bytes: [UInt8], chunks sizes: [Int]) throws(FeatureCacheError) -> GMLPage {
        let stream = try GMLReader.Stream(fields: Self.fields, geometryProperty: "geom", identity: FeatureIdentity(), swapAxes: false)
        var start = 0, turn = 0
        while start < bytes.count {
            let end = min(bytes.count, start + sizes[turn % sizes.count])
            try bytes.withBytes { (all) throws(FeatureCacheError) in try stream.feed(UnsafeRawBufferPointer(rebasing: all[start..<end])) }
            start = end
            turn += 1
        }
        return try stream.finish()
    }

    @Test func aDocumentSplitAnywhereReadsAsTheWholeDoes() throws {
        let document = mixedDocument
        let whole = try document.withBytes { (bytes) throws(FeatureCacheError) in
            try GMLReader.read(bytes, fields: Self.fields, geometryProperty: "geom", identity: FeatureIdentity(), swapAxes: false)
        }
        #expect(whole.batch.count == 300 && whole.numberMatched == 300)
        let expected = rows(whole)
        #expect(expected[1].contains("café & 1"))
        var generator = SystemRandomNumberGenerator()
        let random = (0..<64).map { _ in Int.random(in: 1...300, using: &generator) }
        for sizes in [[1], [2], [3], [7], [9], [64], [4096], random] {
            let page = try stream(document, chunks: sizes)
            #expect(rows(page) == expected, "chunks of \(sizes.prefix(4))")
            #expect(page.numberMatched == 300)
        }
    }

    /// libxml2's push parser holds at most 10 MB of unparsed input: a bigger
    /// document (a page of 60,000 features, 13 MB) is read whole, and so is a
    /// big chunk of one.
    @Test func aDocumentOverTenMegabytesReads() throws {
        var members = ""
        for index in 0..<60_000 {
            members += feature(
                "<gml:Point><gml:pos>\(index) \(index)</gml:pos></gml:Point>", id: "t.\(index + 1)",
                properties: "<ms:name>n\(index)</ms:name>")
        }
        let document = Array("<wfs:FeatureCollection \(Self.wfs20)>\(members)</wfs:FeatureCollection>".utf8)
        #expect(document.count > 10_000_000)
        let whole = try document.withBytes { (bytes) throws(FeatureCacheError) in
            try GMLReader.read(bytes, fields: Self.fields, geometryProperty: "geom", identity: FeatureIdentity(), swapAxes: false)
        }
        #expect(whole.batch.count == 60_000)
        #expect(try stream(document, chunks: [11_000_000]).batch.count == 60_000)
    }

    @Test func theSafetyRulesHoldAcrossChunks() throws {
        // Too many attributes on one element, a byte at a time: refused by the guard.
        var flood = "<wfs:FeatureCollection \(Self.wfs20)><wfs:member><ms:t gml:id=\"t.1\""
        for index in 0..<1025 { flood += " a\(index)=\"\(index)\"" }
        flood += "/></wfs:member></wfs:FeatureCollection>"
        #expect { _ = try stream(Array(flood.utf8), chunks: [1]) } throws: { error in
            (error as? FeatureCacheError)?.message.contains("more than 1024 attributes") == true
        }
        // Entity declarations, split in the middle of the declaration.
        let entities = #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]><r>&b;</r>"#
        #expect { _ = try stream(Array(entities.utf8), chunks: [5]) } throws: { error in
            (error as? FeatureCacheError)?.message.contains("declares entities") == true
        }
        // A document cut short: the chunks parse, the end does not.
        let document = mixedDocument
        #expect(throws: FeatureCacheError.self) { _ = try stream(Array(document.prefix(document.count / 2)), chunks: [4096]) }
        // Nothing at all, and a parse that has ended.
        let empty = try GMLReader.Stream(fields: Self.fields, geometryProperty: "geom", identity: FeatureIdentity(), swapAxes: false)
        #expect { _ = try empty.finish() } throws: { error in
            (error as? FeatureCacheError)?.message.contains("empty") == true
        }
        #expect(throws: FeatureCacheError.self) { _ = try empty.finish() }
    }
}
