// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// GeoJSON features read through a template of an earlier feature's bytes
/// (`FeatureTemplate`) give exactly the batch that reading member by member
/// gives: every cell, type, geometry and id, whatever mix of layouts a
/// document holds, and the same error for a bad value.
@Suite struct FeatureTemplateTests {
    private func read(_ json: String, templates: Bool) throws(FeatureCacheError) -> FeatureBatch {
        try Array(json.utf8).withBytes { (bytes) throws(FeatureCacheError) in
            try GeoJSONReader.read(bytes, identity: FeatureIdentity(), learnsTemplates: templates).batch
        }
    }

    private func expectSame(_ a: FeatureBatch, _ b: FeatureBatch, _ label: String) {
        #expect(a.count == b.count, "\(label)")
        #expect(a.fields == b.fields, "\(label)")
        guard a.count == b.count, a.fields == b.fields else { return }
        for row in 0..<a.count {
            #expect(a.objectId(row) == b.objectId(row), "\(label) row \(row)")
            #expect(Array(a.geometry.wkb(row)) == Array(b.geometry.wkb(row)), "\(label) row \(row)")
        }
        for (x, y) in zip(a.columns, b.columns) {
            #expect(x.kind == y.kind, "\(label) \(x.field.name)")
            guard x.kind == y.kind else { continue }
            for row in 0..<a.count {
                #expect(x.isNull(row) == y.isNull(row), "\(label) \(x.field.name) row \(row)")
                guard !x.isNull(row) else { continue }
                switch x.kind {
                case .string: #expect(x.string(row) == y.string(row), "\(label) \(x.field.name) row \(row)")
                case .double: #expect(x.double(row).bitPattern == y.double(row).bitPattern, "\(label) \(x.field.name) row \(row)")
                case .int64, .boolean: #expect(x.int64(row) == y.int64(row), "\(label) \(x.field.name) row \(row)")
                }
            }
        }
    }

    /// Documents of runs of features that share a layout, the layout changing
    /// between runs: key orders, foreign members, ids as numbers, strings or
    /// none, 2D and 3D points, polygons and multipolygons, null and missing
    /// geometry, properties that come and go, values of other types than
    /// their column's so far, nested values, escapes, and the spacing.
    @Test(arguments: 0..<40)
    func templatesReadWhatMemberByMemberReads(seed: UInt64) throws {
        var maker = DocumentMaker(random: SeededRandom(seed: seed))
        let json = maker.document()
        let direct = try read(json, templates: false)
        let templated = try read(json, templates: true)
        expectSame(templated, direct, "seed \(seed)")
    }

    /// Every feature laid out unlike the one before: templates stop paying,
    /// are dropped and come back; the batch is the same.
    @Test(arguments: 0..<5)
    func everyFeatureLaidOutAnew(seed: UInt64) throws {
        var maker = DocumentMaker(random: SeededRandom(seed: seed), runs: 1...1)
        let json = maker.document()
        expectSame(try read(json, templates: true), try read(json, templates: false), "seed \(seed)")
    }

    /// The same for Esri JSON: attributes the schema lacks, points with and
    /// without z and m (NaN written bare or as text for an empty one), rings,
    /// paths and points, `{}`, null and missing geometry, members the reader
    /// skips; a value a declared column cannot take fails alike both ways.
    @Test(arguments: 0..<40)
    func esriJSONTemplatesReadWhatMemberByMemberReads(seed: UInt64) {
        var maker = EsriDocumentMaker(random: SeededRandom(seed: seed))
        let json = Array(maker.document().utf8)
        let results = [true, false].map { templates in
            Result { () throws(FeatureCacheError) in
                try json.withBytes { (bytes) throws(FeatureCacheError) in
                    try EsriJSONReader.read(bytes, fields: [], objectIdField: nil, learnsTemplates: templates).batch
                }
            }
        }
        switch (results[0], results[1]) {
        case let (.success(templated), .success(direct)): expectSame(templated, direct, "seed \(seed)")
        case let (.failure(a), .failure(b)): #expect(a.message == b.message, "seed \(seed)")
        default: Issue.record("seed \(seed): \(results)")
        }
        // Most documents read; those that fail are the ones given a bad date.
        #expect((try? results[1].get()) != nil || maker.badFeature != nil, "seed \(seed): \(results[1])")
    }

    /// A schema that lists a name twice (servers do): which copy a value goes
    /// to depends on the row, so such features are read member by member.
    @Test func aFieldListedTwiceIsReadAsMemberByMember() throws {
        let fields =
            #"[{"name": "OBJECTID", "type": "esriFieldTypeOID"}, {"name": "Kind", "type": "esriFieldTypeString"}, "#
            + #"{"name": "DBH", "type": "esriFieldTypeSmallInteger"}, {"name": "Species", "type": "esriFieldTypeString"}, "#
            + #"{"name": "DBH", "type": "esriFieldTypeDouble"}]"#
        let features = (1...6).map {
            #"{"attributes": {"OBJECTID": \#($0), "Species": "oak", "DBH": \#(Double($0) + 0.5)}, "geometry": {"x": 1, "y": 2}}"#
        }
        let json = Array((#"{"fields": "# + fields + #", "features": ["# + features.joined(separator: ", ") + "]}").utf8)
        let batches = try [true, false].map { templates in
            try json.withBytes { (bytes) throws(FeatureCacheError) in
                try EsriJSONReader.read(bytes, fields: [], objectIdField: "OBJECTID", learnsTemplates: templates).batch
            }
        }
        expectSame(batches[0], batches[1], "DBH twice")
        #expect(batches[0].columns[4].double(5) == 6.5 && batches[0].columns[2].isNull(5))
    }

    /// A feature that matches the template's runs but holds a bad value fails
    /// as it does member by member: the same message, naming the same byte
    /// (a geometry that cannot be stored fails before the properties after it).
    @Test(arguments: [
        #""coordinates": [1, 2]}, "properties": {"A": 1x}}"#,
        #""coordinates": [1, 1e999]}, "properties": {"A": 1}}"#,
        #""coordinates": [1, 1e999]}, "properties": {"A": 1x}}"#,
        #""coordinates":  z1, 2]}, "properties": {"A": 1}}"#,
        #""coordinates": [[1, 2]]}, "properties": {"A": 1}}"#,
        #""coordinates": [1, 2]}, "properties": {"A": "unterminated}}"#,
    ])
    func aBadValueInATemplatedFeatureFailsTheSameWay(tail: String) {
        var features = (1...5).map {
            #"{"type": "Feature", "id": \#($0), "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"A": \#($0)}}"#
        }
        features.append(#"{"type": "Feature", "id": 6, "geometry": {"type": "Point", "# + tail)
        let json = #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ", ") + "]}"
        var messages: [String] = []
        for templates in [false, true] {
            do {
                _ = try read(json, templates: templates)
                Issue.record("no error")
            } catch {
                messages.append(error.message)
            }
        }
        #expect(messages.count == 2 && messages[0] == messages[1])
    }

    /// Values nested in a templated feature's properties meet the same nesting
    /// limit as member by member.
    @Test func nestingIsLimitedTheSameWay() {
        let feature = #"{"type": "Feature", "id": 1, "geometry": null, "properties": {"A": VALUE}}"#
        for depth in [252, 253] {
            let value = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let json =
                #"{"type": "FeatureCollection", "features": ["# + feature.replacing("VALUE", with: "1")
                + ", " + feature.replacing("VALUE", with: value) + "]}"
            let results = [false, true].map { templates in
                Result { () throws(FeatureCacheError) in try read(json, templates: templates).count }
            }
            switch (results[0], results[1]) {
            case let (.success(a), .success(b)): #expect(a == b)
            case let (.failure(a), .failure(b)): #expect(a.message == b.message)
            default: Issue.record("depth \(depth): \(results)")
            }
        }
    }
}

/// Random GeoJSON documents whose features come in runs of one layout.
private struct DocumentMaker {
    var random: SeededRandom
    /// How many features in a row share a layout.
    var runs = 1...30

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func number() -> String {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return String(Int.random(in: -1000...1000, using: &random))
        case 1: return String(Double(Int.random(in: -100_000...100_000, using: &random)) / 64)
        case 2: return "1.5e3"
        default: return String(Int64.random(in: 1_000_000_000_000...1_900_000_000_000, using: &random))
        }
    }

    private mutating func string() -> String {
        ["\"oak\"", "\"Fraxinus latifolia\"", "\"caf\\u00e9\"", "\"say \\\"hi\\\"\"", "\"\"", "\"x\\ny\""].randomElement(using: &random)!
    }

    /// A value, mostly of the property's usual kind.
    private mutating func value(usual kind: Int) -> String {
        let kind = chance(85) ? kind : Int.random(in: 0..<6, using: &random)
        switch kind {
        case 0: return number()
        case 1: return string()
        case 2: return chance(50) ? "true" : "false"
        case 3: return "null"
        case 4: return #"{"a": [1, {"b": null}]}"#
        default: return "[1, \"two\"]"
        }
    }

    private mutating func coordinate() -> String { String(Double(Int.random(in: -18_000...18_000, using: &random)) / 100) }

    private mutating func ring() -> String {
        let x = coordinate(), y = coordinate()
        return "[[\(x), \(y)], [\(x), \(coordinate())], [\(coordinate()), \(coordinate())], [\(x), \(y)]]"
    }

    private mutating func geometry(_ kind: Int, _ space: String) -> String? {
        switch kind {
        case 0: return "{\"type\":\(space)\"Point\",\(space)\"coordinates\":\(space)[\(coordinate()),\(space)\(coordinate())]}"
        case 1:
            return
                "{\"type\":\(space)\"Point\",\(space)\"coordinates\":\(space)[\(coordinate()),\(space)\(coordinate()),\(space)\(coordinate())]}"
        case 2: return "{\"coordinates\":\(space)[\(ring())],\(space)\"type\":\(space)\"Polygon\"}"
        case 3: return "{\"type\":\(space)\"MultiPolygon\",\(space)\"coordinates\":\(space)[[\(ring())],\(space)[\(ring())]]}"
        case 4: return "null"
        default: return nil  // no geometry member
        }
    }

    /// One layout: which members in which order, which properties, the spacing.
    private struct Layout {
        var memberOrder: [String]
        var properties: [(name: String, kind: Int)]
        var geometry: Int
        var id: Int
        var space: String
    }

    private mutating func layout() -> Layout {
        let names = ["OBJECTID", "Species", "DBH", "Planted", "Ty\\u0070e", "Notes", "Flag"]
        var properties: [(String, Int)] = []
        for (index, name) in names.enumerated() where chance(70) { properties.append((name, [0, 1, 0, 0, 1, 1, 2][index])) }
        if chance(30) { properties.shuffle(using: &random) }
        var members = ["type", "id", "geometry", "properties"]
        if chance(40) { members.shuffle(using: &random) }
        if chance(20) { members.insert("bbox", at: Int.random(in: 0...members.count, using: &random)) }
        return Layout(
            memberOrder: members, properties: properties, geometry: Int.random(in: 0..<6, using: &random),
            id: Int.random(in: 0..<3, using: &random), space: chance(50) ? " " : "")
    }

    private mutating func feature(_ layout: Layout, number: Int) -> String {
        let s = layout.space
        var members: [String] = []
        for member in layout.memberOrder {
            switch member {
            case "type": members.append("\"type\":\(s)\"Feature\"")
            case "id":
                switch layout.id {
                case 0: members.append("\"id\":\(s)\(number)")
                case 1: members.append("\"id\":\(s)\"trees.\(number)\"")
                default: break
                }
            case "geometry":
                if let geometry = geometry(layout.geometry, s) { members.append("\"geometry\":\(s)\(geometry)") }
            case "bbox": members.append("\"bbox\":\(s)[0,\(s)0,\(s)1,\(s)1]")
            default:
                let properties = layout.properties.map { "\"\($0.name)\":\(s)\(value(usual: $0.kind))" }
                members.append("\"properties\":\(s){" + properties.joined(separator: ",\(s)") + "}")
            }
        }
        return "{" + members.joined(separator: ",\(s)") + "}"
    }

    mutating func document() -> String {
        var features: [String] = []
        while features.count < 300 {
            let layout = layout()
            for _ in 0..<Int.random(in: runs, using: &random) { features.append(feature(layout, number: features.count + 1)) }
        }
        return "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}"
    }
}

/// Random Esri JSON query responses whose features come in runs of one layout.
private struct EsriDocumentMaker {
    var random: SeededRandom

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func coordinate() -> String { String(Double(Int.random(in: -18_000...18_000, using: &random)) / 100) }

    private mutating func ring() -> String {
        let x = coordinate(), y = coordinate()
        return "[[\(x), \(y)], [\(coordinate()), \(y)], [\(coordinate()), \(coordinate())], [\(x), \(y)]]"
    }

    /// A feature (one document in five has one) whose date is text no column of dates can take.
    var badFeature: Int? = nil

    /// An attribute's value for its field; now and then null.
    private mutating func value(_ field: Int, id: Int) -> String {
        if field > 0, chance(10) { return "null" }
        if field == 3, id == badFeature { return "\"not a date\"" }
        switch field {
        case 0: return String(id)
        case 1: return ["\"oak\"", "\"caf\\u00e9\"", "\"a \\\"b\\\"\"", "\"\""].randomElement(using: &random)!
        case 2: return chance(20) ? "\"12.5\"" : String(Double(Int.random(in: 0...4000, using: &random)) / 8)
        case 3: return String(Int64.random(in: 1_000_000_000_000...1_900_000_000_000, using: &random))
        case 4: return String(Int.random(in: 1...5, using: &random))
        default: return #"{"nested": [1, 2]}"#  // an attribute the schema lacks
        }
    }

    private struct Layout {
        var attributes: [Int]
        var geometry: Int
        var geometryFirst: Bool
        var extraMember: Bool
        var space: String
    }

    private mutating func layout() -> Layout {
        var attributes = (0..<6).filter { $0 == 0 || chance(75) }
        if chance(30) { attributes.shuffle(using: &random) }
        return Layout(
            attributes: attributes, geometry: Int.random(in: 0..<10, using: &random), geometryFirst: chance(30),
            extraMember: chance(15), space: chance(50) ? " " : "")
    }

    private mutating func geometry(_ kind: Int, _ s: String) -> String? {
        switch kind {
        case 0: return "{\"x\":\(s)\(coordinate()),\(s)\"y\":\(s)\(coordinate())}"
        case 1: return "{\"x\":\(s)\(coordinate()),\(s)\"y\":\(s)\(coordinate()),\(s)\"z\":\(s)\(coordinate())}"
        case 2: return chance(50) ? "{\"x\":\(s)NaN,\(s)\"y\":\(s)NaN}" : "{\"x\":\(s)\"NaN\",\(s)\"y\":\(s)null}"
        case 3: return "{\"rings\":\(s)[\(ring()),\(s)\(ring())]}"
        case 4: return "{\"paths\":\(s)[[[\(coordinate()),\(s)\(coordinate())],\(s)[\(coordinate()),\(s)\(coordinate())]]]}"
        case 5: return "{\"points\":\(s)[[\(coordinate()),\(s)\(coordinate())]]}"
        case 6: return "{\"y\":\(s)\(coordinate()),\(s)\"x\":\(s)\(coordinate()),\(s)\"spatialReference\":\(s){\"wkid\":\(s)4326}}"
        case 7: return "{}"
        case 8: return "null"
        default: return nil
        }
    }

    private mutating func feature(_ layout: Layout, id: Int) -> String {
        let s = layout.space
        let names = ["OBJECTID", "Species", "DBH", "Planted", "Condition", "Unlisted"]
        var attributes: [String] = []
        for field in layout.attributes { attributes.append("\"\(names[field])\":\(s)\(value(field, id: id))") }
        var members = ["\"attributes\":\(s){" + attributes.joined(separator: ",\(s)") + "}"]
        if let geometry = geometry(layout.geometry, s) {
            members.insert("\"geometry\":\(s)\(geometry)", at: layout.geometryFirst ? 0 : 1)
        }
        if layout.extraMember { members.append("\"centroid\":\(s){\"x\":\(s)1,\(s)\"y\":\(s)2}") }
        return "{" + members.joined(separator: ",\(s)") + "}"
    }

    mutating func document() -> String {
        var features: [String] = []
        if chance(20) { badFeature = Int.random(in: 1...300, using: &random) }
        while features.count < 300 {
            let layout = layout()
            for _ in 0..<Int.random(in: 1...30, using: &random) { features.append(feature(layout, id: features.count + 1)) }
        }
        let fields =
            #"[{"name": "OBJECTID", "type": "esriFieldTypeOID"}, {"name": "Species", "type": "esriFieldTypeString"}, "#
            + #"{"name": "DBH", "type": "esriFieldTypeDouble"}, {"name": "Planted", "type": "esriFieldTypeDate"}, "#
            + #"{"name": "Condition", "type": "esriFieldTypeSmallInteger"}]"#
        return #"{"objectIdFieldName": "OBJECTID", "fields": "# + fields + #", "features": ["# + "\n" + features.joined(separator: ",\n")
            + "\n]}"
    }
}
