// SPDX-License-Identifier: Apache-2.0
import FCSupport
import Synchronization

/// What a GeoJSON FeatureCollection page holds besides its features (the members
/// ArcGIS and OGC API - Features add for paging).
package struct GeoJSONPage {
    package var batch: FeatureBatch
    /// ArcGIS `f=geojson`: `properties.exceededTransferLimit` (or top level).
    package var exceededTransferLimit = false
    /// OGC API - Features: `numberMatched`, `numberReturned`, the `rel=next` link.
    package var numberMatched: Int64?
    package var numberReturned: Int64?
    package var nextLink: String?
}

/// Maps GeoJSON feature ids to object ids: integers as they are, strings to a
/// number made from the string itself (a 64-bit FNV-1a hash in [2^62, 2^63),
/// far above the integer ids services send), so the same string gets the same
/// object id in every run — a persisted cache refetched later keeps one row
/// per feature. Two strings that hash alike (about one pair in 10^7 among a
/// million ids) are told apart by the map: the later one takes the next free
/// number, in this run.
public final class FeatureIdentity: Sendable {
    private struct State {
        var ids: [String: Int64] = [:]
        var texts: [Int64: String] = [:]
        /// Features without an id: numbers of their own, in [2^52, 2^62).
        var next: Int64 = 1 << 52
    }
    private let state = Locked(State())
    /// Ids of the WFS form `typename.N` are N (as `gml:id`s are in GML).
    private let numericSuffixes: Bool
    /// The `typename.` of the first such id read (`suffixPrefix`); the flag
    /// spares the lock on every later one.
    private let prefix = Locked<String?>(nil)
    private let prefixKnown = Atomic<Bool>(false)

    /// - Parameter numericSuffixes: read `prefix.N` ids as N — a WFS's GeoJSON
    ///   writes the `gml:id` of its GML (`"id": "trees.17"`), so that both
    ///   formats give a feature the same object id.
    public init(numericSuffixes: Bool = false) {
        self.numericSuffixes = numericSuffixes
    }

    /// A string id that is a plain decimal number below 2^52 (MapServer writes
    /// `"id": "17"`) is that number, so both spellings of an id agree.
    package func objectId(for text: String) -> Int64 {
        if let number = Self.plainNumber(text) { return number }
        if numericSuffixes, let dot = text.utf8.lastIndex(of: UInt8(ascii: ".")),
            let number = Self.plainNumber(String(text[text.utf8.index(after: dot)...]))
        {
            if !prefixKnown.load(ordering: .acquiring) {
                prefix.withLock { $0 = $0 ?? String(text[...dot]) }
                prefixKnown.store(true, ordering: .releasing)
            }
            return number
        }
        return state.withLock { state in
            if let existing = state.ids[text] { return existing }
            var id = Self.hashedId(text)
            while let taken = state.texts[id], taken != text { id = id == Int64.max ? 1 << 62 : id + 1 }
            state.ids[text] = id
            state.texts[id] = text
            return id
        }
    }

    /// The object id a string id starts from: its FNV-1a hash, in [2^62, 2^63).
    package static func hashedId(_ text: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: (1 << 62) | (hash & ((1 << 62) - 1)))
    }

    /// What the first `typename.N` id read as N began with ("trees."): the
    /// part a WFS's `gml:id`s add to the object ids; nil until one was read.
    package var suffixPrefix: String? {
        prefixKnown.load(ordering: .acquiring) ? prefix.withLock { $0 } : nil
    }

    /// The id as the service wrote it, for asking the service for that feature.
    package func serviceId(for objectId: Int64) -> String? {
        if objectId >= 0, objectId < 1 << 52 { return String(objectId) }
        return state.withLock { $0.texts[objectId] }
    }

    private static func plainNumber(_ text: String) -> Int64? {
        let utf8 = text.utf8
        guard let first = utf8.first, utf8.count <= 16, first != UInt8(ascii: "0") || utf8.count == 1,
            utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int64(text), value < 1 << 52
        else { return nil }
        return value
    }

    /// An object id for a feature without one: never shared, so never merged.
    package func anonymousId() -> Int64 {
        state.withLock { state in
            state.next += 1
            return state.next
        }
    }
}

/// Reads GeoJSON (RFC 7946) FeatureCollections into a batch: every geometry type
/// as WKB, `properties` of any JSON type as columns (declared by a schema, or
/// inferred from the values: numbers, text, booleans, nested values as JSON
/// text), `id` as the object id. Foreign members are skipped.
package enum GeoJSONReader {
    /// RFC 7946's geometry types, and their WKB types in the same order.
    package static let geometryTypeNames: [StaticString] = [
        "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon",
        "MultiPolygon", "GeometryCollection",
    ]
    package static let geometryTypes: [WKBType] = [
        .point, .multiPoint, .lineString, .multiLineString, .polygon, .multiPolygon,
        .geometryCollection,
    ]

    /// - Parameters:
    ///   - fields: a known schema (ArcGIS layer fields, OGC queryables); properties
    ///     it does not list get inferred columns. Empty = infer everything.
    ///   - objectIdField: a property that holds object ids, used when a feature has no `id`.
    ///   - learnsTemplates: read features that repeat an earlier one's layout
    ///     with its `FeatureTemplate` (false: member by member, as tests compare).
    package static func read(
        _ bytes: UnsafeRawBufferPointer, fields: [FieldInfo] = [], objectIdField: String? = nil,
        identity: FeatureIdentity, learnsTemplates: Bool = true
    ) throws(FeatureCacheError) -> GeoJSONPage {
        var scanner = JSONScanner(bytes)
        let builder = fields.isEmpty ? BatchBuilder() : BatchBuilder(fields: fields, objectIdField: objectIdField)
        var exceededTransferLimit = false
        var numberMatched: Int64? = nil, numberReturned: Int64? = nil
        var nextLink: String? = nil
        var type: String? = nil
        var sawFeatures = false
        try scanner.beginObject()
        while try scanner.nextKey() {
            if scanner.keyEquals("type") {
                type = try scanner.readString()
            } else if scanner.keyEquals("features") {
                sawFeatures = true
                var reader = FeatureReader(builder: builder, identity: identity, learnsTemplates: learnsTemplates)
                try scanner.beginArray()
                while try scanner.nextElement() { try reader.readFeature(&scanner) }
            } else if scanner.keyEquals("numberMatched") {
                numberMatched = try scanner.readNull() ? nil : try scanner.readInt64()
            } else if scanner.keyEquals("numberReturned") {
                numberReturned = try scanner.readNull() ? nil : try scanner.readInt64()
            } else if scanner.keyEquals("links") {
                nextLink = try readNextLink(&scanner) ?? nextLink
            } else if scanner.keyEquals("exceededTransferLimit") {
                exceededTransferLimit = try scanner.readBool()
            } else if scanner.keyEquals("properties") {
                exceededTransferLimit = try readCollectionProperties(&scanner) || exceededTransferLimit
            } else {
                try scanner.skipValue()
            }
        }
        try scanner.finish()
        guard type == "FeatureCollection" || (type == nil && sawFeatures) else {
            throw FeatureCacheError.parse("GeoJSON: expected a FeatureCollection, got \(type.map { "a \($0)" } ?? "no 'type'")")
        }
        guard sawFeatures else { throw FeatureCacheError.parse("GeoJSON: the FeatureCollection has no 'features' array") }
        return GeoJSONPage(
            batch: builder.finish(), exceededTransferLimit: exceededTransferLimit,
            numberMatched: numberMatched, numberReturned: numberReturned, nextLink: nextLink)
    }

    /// The href of the `rel: "next"` entry of a `links` array.
    private static func readNextLink(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> String? {
        var next: String? = nil
        if try scanner.readNull() { return nil }
        try scanner.beginArray()
        while try scanner.nextElement() {
            var rel: String? = nil, href: String? = nil
            try scanner.beginObject()
            while try scanner.nextKey() {
                if scanner.keyEquals("rel") {
                    rel = try scanner.readStringOrNull()
                } else if scanner.keyEquals("href") {
                    href = try scanner.readStringOrNull()
                } else {
                    try scanner.skipValue()
                }
            }
            if rel == "next", let href { next = href }
        }
        return next
    }

    private static func readCollectionProperties(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> Bool {
        var exceeded = false
        if try scanner.readNull() { return false }
        try scanner.beginObject()
        while try scanner.nextKey() {
            if scanner.keyEquals("exceededTransferLimit") { exceeded = try scanner.readBool() } else { try scanner.skipValue() }
        }
        return exceeded
    }
}

/// Reads one Feature object at a time into the batch: with the template of
/// earlier features it matches, else member by member.
private struct FeatureReader {
    let builder: BatchBuilder
    let identity: FeatureIdentity
    /// A third ordinate is the height (RFC 7946); a fourth is left out.
    var scratch = CoordinateScratch(inferZ: true)
    var templates: FeatureTemplates

    init(builder: BatchBuilder, identity: FeatureIdentity, learnsTemplates: Bool) {
        self.builder = builder
        self.identity = identity
        templates = FeatureTemplates(enabled: learnsTemplates)
    }

    mutating func readFeature(_ scanner: inout JSONScanner) throws(FeatureCacheError) {
        _ = scanner.peek()
        let matched = try readWithTemplate(&scanner)
        templates.count(matched: matched)
        guard !matched else { return }
        let start = scanner.offset
        try readMemberByMember(&scanner)
        if templates.wantsToLearn {
            templates.add(FeatureTemplate.learnGeoJSON(from: scanner, range: start..<scanner.offset, builder: builder))
        }
    }

    /// Reads the feature with the first template it matches; false when none does.
    private mutating func readWithTemplate(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> Bool {
        let candidates = templates.all
        for template in candidates {
            var objectId: Int64? = nil
            let matched = try template.read(&scanner, into: builder) { (slot, scanner) throws(FeatureCacheError) in
                switch slot {
                case .id: objectId = try readId(&scanner)
                case .coordinates: try scratch.read(from: &scanner)
                case .geometryEnd: try append(template.geometryType!, into: &builder.geometry, scanner)
                default: break  // no other slot in GeoJSON templates
                }
            }
            guard matched else { continue }
            endRow(objectId: objectId, everyColumnFilled: template.propertyCount == builder.columns.count)
            return true
        }
        return false
    }

    /// The object id of an `id` member's value.
    private func readId(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> Int64? {
        switch scanner.peekKind() {
        case .string?: return identity.objectId(for: try scanner.readString())
        case .null?: _ = try scanner.readNull(); return nil
        default: return try scanner.readInt64()
        }
    }

    private func endRow(objectId: Int64?, everyColumnFilled: Bool) {
        if builder.hasObjectIdColumn {
            builder.endRow(everyColumnFilled: everyColumnFilled)
        } else {
            builder.endRow(objectId: objectId ?? identity.anonymousId(), everyColumnFilled: everyColumnFilled)
        }
    }

    /// Reads the feature member by member.
    private mutating func readMemberByMember(_ scanner: inout JSONScanner) throws(FeatureCacheError) {
        var objectId: Int64? = nil
        var sawGeometry = false
        var isFeature = false
        var typeAt: Int? = nil  // where a "type" that is not "Feature" starts
        try scanner.beginObject()
        while try scanner.nextKey() {
            if scanner.keyEquals("type") {
                let start = scanner.offset
                isFeature = try scanner.readString(matching: ["Feature"]) != nil
                typeAt = isFeature ? nil : start
            } else if scanner.keyEquals("id") {
                objectId = try readId(&scanner)
            } else if scanner.keyEquals("geometry") {
                sawGeometry = true
                try readGeometry(&scanner)
            } else if scanner.keyEquals("properties") {
                try builder.readValues(&scanner, inferring: true)
            } else {
                try scanner.skipValue()
            }
        }
        guard isFeature else {
            let type = typeAt.flatMap { scanner.string(at: $0) }
            throw scanner.error("a member of 'features' must have \"type\": \"Feature\" (got \(type.map { "\"\($0)\"" } ?? "none"))")
        }
        if !sawGeometry { builder.geometry.appendNull() }
        endRow(objectId: objectId, everyColumnFilled: false)
    }

    private mutating func readGeometry(_ scanner: inout JSONScanner) throws(FeatureCacheError) {
        if try scanner.readNull() { return builder.geometry.appendNull() }
        if let wkb = try readGeometryObject(&scanner, into: &builder.geometry) {
            builder.geometry.appendWKB(wkb.bytes, wkb.box)
        }
    }

    /// Reads a geometry object into `target` (one row). A GeometryCollection is
    /// returned as WKB instead, for the caller to append.
    private mutating func readGeometryObject(
        _ scanner: inout JSONScanner, into target: inout GeometryColumnBuilder
    ) throws(FeatureCacheError) -> (bytes: [UInt8], box: BoundingBox)? {
        var typeIndex: Int? = nil
        var typeAt: Int? = nil
        var hasCoordinates = false
        var members: [(bytes: [UInt8], box: BoundingBox)]? = nil
        try scanner.beginObject()
        while try scanner.nextKey() {
            if scanner.keyEquals("type") {
                typeAt = scanner.offset
                typeIndex = try scanner.readString(matching: GeoJSONReader.geometryTypeNames)
            } else if scanner.keyEquals("coordinates") {
                hasCoordinates = true
                try scratch.read(from: &scanner)
            } else if scanner.keyEquals("geometries") {
                members = try readMembers(&scanner)
            } else {
                try scanner.skipValue()
            }
        }
        guard let typeIndex else {
            let name = typeAt.flatMap { scanner.string(at: $0) }
            throw scanner.error("unknown geometry type \(name.map { "\"\($0)\"" } ?? "(no 'type')")")
        }
        let type = GeoJSONReader.geometryTypes[typeIndex]
        if type == .geometryCollection {
            var writer = WKBWriter()
            var box = BoundingBox()
            writer.header(.geometryCollection)
            writer.uint32(UInt32(members?.count ?? 0))
            for member in members ?? [] {
                writer.bytes += member.bytes
                if !member.box.isEmpty { box.add(member.box.xmin, member.box.ymin); box.add(member.box.xmax, member.box.ymax) }
            }
            return (writer.bytes, box)
        }
        guard hasCoordinates else { throw scanner.error("a \(GeoJSONReader.geometryTypeNames[typeIndex]) has no 'coordinates'") }
        try append(type, into: &target, scanner)
        return nil
    }

    /// The scratch's coordinates as a `type` geometry, into `target`.
    private func append(_ type: WKBType, into target: inout GeometryColumnBuilder, _ scanner: JSONScanner) throws(FeatureCacheError) {
        do {
            try target.append(type, scratch)
        } catch {
            throw scanner.error(error.message)  // where in the document
        }
    }

    private mutating func readMembers(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> [(bytes: [UInt8], box: BoundingBox)] {
        var members: [(bytes: [UInt8], box: BoundingBox)] = []
        try scanner.beginArray()
        while try scanner.nextElement() {
            var single = GeometryColumnBuilder()
            if let nested = try readGeometryObject(&scanner, into: &single) {
                members.append(nested)
            } else {
                let column = single.finish()
                var bounds = BoundingBox()
                column.addBox(of: 0, to: &bounds)
                members.append((Array(column.wkb(0)), bounds))
            }
        }
        return members
    }
}
