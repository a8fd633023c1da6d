// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// What a WFS GetFeature response (GML) holds besides its features.
package struct GMLPage {
    package var batch: FeatureBatch
    /// 2.0 `numberMatched` (nil when "unknown" or absent).
    package var numberMatched: Int64?
    /// 2.0 `numberReturned`, 1.x `numberOfFeatures`.
    package var numberReturned: Int64?
    /// 2.0 `next`: the URL of the following page.
    package var next: String?
    /// The first `srsName` met on a geometry or envelope, for the axis-order decision.
    package var srsName: String?
    /// The first feature's `gml:id` before its numeric suffix (`trees.`), if it has one.
    package var idPrefix: String?
}

/// Reads a GML feature collection (GML 2, 3.1.1, 3.2; WFS 1.0/1.1/2.0 wrappers)
/// into a batch in one streaming pass — libxml2 SAX events straight into column
/// builders and WKB, no tree.
///
/// - Features are the children of `wfs:member`, `gml:featureMember` or
///   `gml:featureMembers`; `gml:id` (GML 2: `fid`) gives the object id, its
///   numeric suffix when it has one (`trees.17` → 17, as the GeoJSON output says).
/// - Properties fill the schema's columns (or inferred ones); `xsi:nil` and empty
///   elements are NULL (MapServer writes NULL numbers as empty elements).
/// - Geometry: Point, MultiPoint, LineString, Curve of LineStringSegments,
///   MultiCurve/MultiLineString, Polygon, Surface of PolygonPatches,
///   MultiSurface/MultiPolygon/CompositeSurface, rings as LinearRing or Ring;
///   coordinates as `pos`, `posList` or `coordinates` (with `cs`/`ts`), `coord`;
///   `srsDimension` (or 3.1.1 `dimension`, `count`) on any level; z is dropped.
///   A multi geometry of one member is stored as that member (Esri geometries
///   make no such distinction, and GeoJSON outputs of the same server do not).
/// - `swapAxes` stores (second, first): the caller decides the axis order.
/// Its stored properties are `@exclusivity(unchecked)`: it is mutated once or
/// more per value read, the dynamic exclusivity checks on those accesses cost
/// about 30 % of reading, and it is only ever used by the one thread reading.
package final class GMLReader: XMLEventSink {
    private let builder: BatchBuilder
    private let identity: FeatureIdentity
    private let swapAxes: Bool
    private let geometryProperty: [UInt8]?
    @exclusivity(unchecked) private var page = (
        matched: Int64?.none, returned: Int64?.none, next: String?.none, srs: String?.none, idPrefix: String?.none
    )

    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var sawRoot = false
    /// Depths of elements whose children are features (member containers).
    @exclusivity(unchecked) private var containerDepths: [Int] = []
    @exclusivity(unchecked) private var featureDepth = 0  // 0 = not in a feature
    @exclusivity(unchecked) private var objectId: Int64?
    @exclusivity(unchecked) private var skipDepth = 0  // > 0: inside a subtree being skipped
    // The current property (depth featureDepth + 1).
    @exclusivity(unchecked) private var column: Int?
    @exclusivity(unchecked) private var columnHint = 0
    @exclusivity(unchecked) private var isNil = false
    @exclusivity(unchecked) private var sawGeometryInProperty = false
    @exclusivity(unchecked) private var rowHasGeometry = false
    @exclusivity(unchecked) private var text: [UInt8] = []
    /// Without a schema: the name of a property not seen before.
    @exclusivity(unchecked) private var newColumnName: String?
    private let inferring: Bool
    // The geometry being read.
    @exclusivity(unchecked) private var geometryRoot = 0  // depth of the geometry's root element, 0 = none
    @exclusivity(unchecked) private var elements: [GeometryElement] = []
    @exclusivity(unchecked) private var dimensions: [Int] = []
    /// Coordinates of the geometry being read; a third ordinate (srsDimension 3) is the height.
    @exclusivity(unchecked) private var scratch = CoordinateScratch(inferZ: true)
    @exclusivity(unchecked) private var lists = (lines: 0, points: 0)
    @exclusivity(unchecked) private var ringDepth = 0, curveDepth = 0
    @exclusivity(unchecked) private var listStart = 0  // first point of the list being read
    @exclusivity(unchecked) private var coordinateText = false
    @exclusivity(unchecked) private var coordinateSeparators = (tuple: UInt8(ascii: " "), coordinate: UInt8(ascii: ","))
    @exclusivity(unchecked) private var pendingX: Double?

    private enum GeometryElement {
        case other, point, line, curve, segment, ring, polygon, positions, coordinates, x, y
    }

    private init(fields: [FieldInfo], geometryProperty: String?, identity: FeatureIdentity, swapAxes: Bool) {
        builder = fields.isEmpty ? BatchBuilder() : BatchBuilder(fields: fields, objectIdField: nil)
        self.identity = identity
        self.swapAxes = swapAxes
        self.geometryProperty = geometryProperty.map { Array($0.utf8) }
        inferring = fields.isEmpty
        text.reserveCapacity(4096)
    }

    /// - Parameters:
    ///   - fields: the schema (DescribeFeatureType); empty = infer columns from the values.
    ///   - geometryProperty: the geometry's property; nil = the first holding a geometry.
    package static func read(
        _ bytes: UnsafeRawBufferPointer, fields: [FieldInfo], geometryProperty: String?,
        identity: FeatureIdentity, swapAxes: Bool
    ) throws(FeatureCacheError) -> GMLPage {
        let stream = try Stream(fields: fields, geometryProperty: geometryProperty, identity: identity, swapAxes: swapAxes)
        try stream.feed(bytes)
        return try stream.finish()
    }

    /// A GML document read as it arrives: `feed` each chunk as it comes,
    /// `finish` for the page. The page is the same however the document is
    /// split, and no more than a chunk of it is held at a time.
    package final class Stream {
        private let reader: GMLReader
        private let parser: XMLPushParser

        package init(fields: [FieldInfo], geometryProperty: String?, identity: FeatureIdentity, swapAxes: Bool) throws(FeatureCacheError) {
            reader = GMLReader(fields: fields, geometryProperty: geometryProperty, identity: identity, swapAxes: swapAxes)
            parser = try XMLPushParser(into: reader, what: "GML")
        }

        package func feed(_ chunk: UnsafeRawBufferPointer) throws(FeatureCacheError) {
            try parser.feed(chunk)
        }

        package func finish() throws(FeatureCacheError) -> GMLPage {
            try parser.finish()
            guard reader.sawRoot else { throw FeatureCacheError.parse("GML: no feature collection") }
            return GMLPage(
                batch: reader.builder.finish(), numberMatched: reader.page.matched, numberReturned: reader.page.returned,
                next: reader.page.next, srsName: reader.page.srs, idPrefix: reader.page.idPrefix)
        }
    }

    // MARK: - Events

    package func start(_ tag: XMLStartTag) throws(FeatureCacheError) {
        depth += 1
        if skipDepth > 0 { return }
        if depth == 1 { return try startRoot(tag) }
        if featureDepth == 0 {
            if tag.named("member") || tag.named("featureMember") || tag.named("featureMembers") {
                containerDepths.append(depth)
            } else if containerDepths.last == depth - 1 {
                if tag.named("FeatureCollection") || tag.named("SimpleFeatureCollection") || tag.named("additionalObjects") {
                    return  // a nested collection (joins): its members hold the features
                }
                startFeature(tag)
            } else {
                skipDepth = depth  // boundedBy of the collection, anything else around the members
            }
            return
        }
        if depth == featureDepth + 1 { return startProperty(tag) }
        try startGeometryElement(tag)
    }

    package func end() throws(FeatureCacheError) {
        defer { depth -= 1 }
        if skipDepth > 0 {
            if depth == skipDepth { skipDepth = 0 }
            return
        }
        if featureDepth == 0 {
            if containerDepths.last == depth { containerDepths.removeLast() }
            return
        }
        if depth == featureDepth { return endFeature() }
        if depth == featureDepth + 1 { return try endProperty() }
        if geometryRoot > 0 { try endGeometryElement() }
    }

    package func text(_ bytes: UnsafeRawBufferPointer) {
        guard skipDepth == 0, featureDepth > 0 else { return }
        if geometryRoot > 0 {
            if coordinateText { text.append(contentsOf: bytes) }
        } else if depth == featureDepth + 1 {
            text.append(contentsOf: bytes)
        }
    }

    // MARK: - Collection and features

    private func startRoot(_ tag: XMLStartTag) throws(FeatureCacheError) {
        if tag.named("ExceptionReport") || tag.named("ServiceExceptionReport") {
            throw FeatureCacheError(.service, "the WFS answered with an exception report instead of features")
        }
        // MapServer's GML 3.1.1 under WFS 1.0 says <msFeatureCollection>.
        guard tag.named("FeatureCollection") || tag.name.hasSuffix("FeatureCollection") else {
            throw FeatureCacheError.parse("GML: expected a FeatureCollection, got <\(tag.name)>")
        }
        sawRoot = true
        if let matched = tag.attribute("numberMatched") { page.matched = ColumnBuilder.integer(matched) }
        if let returned = tag.attribute("numberReturned") ?? tag.attribute("numberOfFeatures") {
            page.returned = ColumnBuilder.integer(returned)
        }
        page.next = tag.attributeString("next").flatMap { $0.isEmpty ? nil : $0 }
    }

    private func startFeature(_ tag: XMLStartTag) {
        featureDepth = depth
        rowHasGeometry = false
        let id = tag.attribute("id") ?? tag.attribute("fid")
        objectId = id.map(objectId(_:))
    }

    /// `trees.17` → 17; other ids map through the table's identity.
    private func objectId(_ id: UnsafeRawBufferPointer) -> Int64 {
        var dot = id.count
        while dot > 0, id[dot - 1] != UInt8(ascii: ".") { dot -= 1 }
        let suffix = UnsafeRawBufferPointer(rebasing: id[dot...])
        if let number = ColumnBuilder.integer(suffix), number >= 0, number < 1 << 52, suffix.first != UInt8(ascii: "+"),
            suffix.count == 1 || suffix.first != UInt8(ascii: "0")
        {
            if page.idPrefix == nil { page.idPrefix = String(decoding: id[..<dot], as: UTF8.self) }
            return number
        }
        return identity.objectId(for: String(decoding: id, as: UTF8.self))
    }

    private func endFeature() {
        featureDepth = 0
        if !rowHasGeometry { builder.geometry.appendNull() }
        builder.endRow(objectId: objectId ?? identity.anonymousId())
    }

    // MARK: - Properties

    private func startProperty(_ tag: XMLStartTag) {
        column = nil
        newColumnName = nil
        isNil = false
        sawGeometryInProperty = false
        text.removeAll(keepingCapacity: true)
        if Self.isGML(tag) {
            // gml:boundedBy, gml:name, gml:description…: not attributes.
            skipDepth = depth
            return
        }
        if let nilValue = tag.attribute("nil"), nilValue.count == 4, nilValue[0] == UInt8(ascii: "t") { isNil = true }
        if let geometryProperty, XMLBytes.equal(tag.localName, geometryProperty) { return }
        column = builder.column(named: tag.localName, hint: columnHint, inferring: false)
        if let column { columnHint = column + 1 } else if inferring { newColumnName = tag.name }
    }

    private func endProperty() throws(FeatureCacheError) {
        defer { column = nil; sawGeometryInProperty = false }
        guard !sawGeometryInProperty else { return }
        if column == nil, let name = newColumnName {
            // Without a schema a property becomes a column when it holds a value, not a geometry.
            column = name.withCString {
                builder.column(named: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), hint: 0, inferring: true)
            }
        }
        guard let column else { return }
        let target = builder.columns[column]
        guard target.count == builder.count else { return }  // a repeated property: the first value stays
        if isNil { return target.appendNull() }
        try text.withBytes { (bytes) throws(FeatureCacheError) in
            if XMLBytes.trimmed(bytes).isEmpty { return target.appendNull() }
            do throws(FeatureCacheError) { try target.appendText(bytes) } catch { throw FeatureCacheError.parse("GML: \(error.message)") }
        }
    }

    private static func isGML(_ tag: XMLStartTag) -> Bool {
        guard let namespace = tag.namespace else { return false }
        // http://www.opengis.net/gml and http://www.opengis.net/gml/3.2
        let prefix: StaticString = "http://www.opengis.net/gml"
        let start = prefix.utf8Start
        for index in 0..<prefix.utf8CodeUnitCount where namespace[index] != start[index] { return false }
        let next = namespace[prefix.utf8CodeUnitCount]
        return next == 0 || next == UInt8(ascii: "/")
    }

    // MARK: - Geometry

    private func startGeometryElement(_ tag: XMLStartTag) throws(FeatureCacheError) {
        if geometryRoot == 0 {
            guard !rowHasGeometry, Self.isGML(tag) else { skipDepth = depth; return }
            geometryRoot = depth
            sawGeometryInProperty = true
            scratch.reset()
            lists = (0, 0)
            ringDepth = 0
            curveDepth = 0
            listStart = 0
            elements.removeAll(keepingCapacity: true)
            dimensions.removeAll(keepingCapacity: true)
        }
        if page.srs == nil, let srs = tag.attributeString("srsName") { page.srs = srs }
        var dimension = dimensions.last ?? 2
        if let given = tag.attribute("srsDimension") ?? tag.attribute("dimension"), let value = ColumnBuilder.integer(given), value >= 2,
            value <= 4
        {
            dimension = Int(value)
        }
        let element = Self.classify(tag)
        switch element {
        case .ring: ringDepth += 1; listStart = scratch.pointCount
        case .curve: curveDepth += 1; if ringDepth == 0 { listStart = scratch.pointCount }
        case .line, .point: if ringDepth == 0 && curveDepth == 0 { listStart = scratch.pointCount }
        case .positions, .coordinates, .x, .y:
            coordinateText = true
            text.removeAll(keepingCapacity: true)
            if element == .coordinates {
                coordinateSeparators = (
                    tag.attribute("ts").flatMap(\.first) ?? UInt8(ascii: " "),
                    tag.attribute("cs").flatMap(\.first) ?? UInt8(ascii: ",")
                )
                if let decimal = tag.attribute("decimal"), decimal.first != UInt8(ascii: ".") {
                    throw FeatureCacheError(
                        .unsupported,
                        "GML: coordinates with decimal separator '\(String(decoding: decimal, as: UTF8.self))' are not supported")
                }
            } else if element == .positions, let count = tag.attribute("count").flatMap(ColumnBuilder.integer), count > 0 {
                dimension = -Int(count)  // resolved from the number of values at the end
            }
        default: break
        }
        elements.append(element)
        dimensions.append(dimension)
    }

    private static func classify(_ tag: XMLStartTag) -> GeometryElement {
        if tag.named("pos") || tag.named("posList") { return .positions }
        if tag.named("coordinates") { return .coordinates }
        if tag.named("Point") { return .point }
        if tag.named("LineString") { return .line }
        if tag.named("LinearRing") || tag.named("Ring") { return .ring }
        if tag.named("Polygon") || tag.named("PolygonPatch") || tag.named("Rectangle") || tag.named("Triangle") { return .polygon }
        if tag.named("Curve") { return .curve }
        if tag.named("LineStringSegment") || tag.named("Arc") || tag.named("ArcString") || tag.named("GeodesicString") { return .segment }
        if tag.named("X") { return .x }
        if tag.named("Y") { return .y }
        return .other
    }

    private func endGeometryElement() throws(FeatureCacheError) {
        let element = elements.removeLast()
        let dimension = dimensions.removeLast()
        switch element {
        case .positions, .coordinates:
            coordinateText = false
            try readCoordinates(element == .coordinates, dimension: dimension)
        case .x, .y:
            coordinateText = false
            let value = text.withUnsafeBytes { ColumnBuilder.double(XMLBytes.trimmed($0)) }
            guard let value else { throw FeatureCacheError.parse("GML: <coord> holds a value that is not a number") }
            if element == .x { pendingX = value } else if let x = pendingX { addPoint(x, value, z: nil); pendingX = nil }
        case .ring:
            ringDepth -= 1
            if ringDepth == 0 { closeList() }
        case .curve:
            curveDepth -= 1
            if curveDepth == 0 && ringDepth == 0 { closeList(); lists.lines += 1 }
        case .line:
            if ringDepth == 0 && curveDepth == 0 { closeList(); lists.lines += 1 }
        case .point:
            if ringDepth == 0 && curveDepth == 0 { closeList(); lists.points += 1 }
        case .polygon:
            if scratch.listEnds.count > (scratch.groupEnds.last ?? 0) { scratch.groupEnds.append(scratch.listEnds.count) }
        case .segment, .other:
            break
        }
        if depth == geometryRoot { try finishGeometry() }
    }

    /// Parses the collected coordinate text into points.
    private func readCoordinates(_ isCoordinates: Bool, dimension: Int) throws(FeatureCacheError) {
        var tupleSize = dimension
        if isCoordinates {
            // `x,y x,y` (cs and ts): the first tuple tells the dimension; then
            // every separator is a space and the values one flat list.
            let (ts, cs) = coordinateSeparators
            var commas = 0
            var index = 0
            while index < text.count, XMLBytes.isSpace(text[index]) { index += 1 }
            while index < text.count, text[index] != ts, !(ts == 0x20 && XMLBytes.isSpace(text[index])) {
                if text[index] == cs { commas += 1 }
                index += 1
            }
            tupleSize = max(2, commas + 1)
            for position in text.indices where text[position] == cs || text[position] == ts { text[position] = 0x20 }
        }
        var values = 0
        try text.withBytes { (bytes) throws(FeatureCacheError) in
            var scanner = JSONScanner(bytes)
            // First pass only when the tuple size comes from `count`.
            if tupleSize < 0 {
                var counter = scanner
                while counter.peek() != nil {
                    guard (try? counter.readNumber()) != nil else { break }
                    values += 1
                }
                tupleSize = values % -tupleSize == 0 ? max(2, values / -tupleSize) : 2
            }
            var ordinate = 0
            var x = 0.0, y = 0.0
            while let next = scanner.peek() {
                let value: Double
                if next == UInt8(ascii: "+") {
                    throw FeatureCacheError.parse("GML: '+' before a coordinate is not supported")
                }
                do throws(FeatureCacheError) { value = try scanner.readNumber().double } catch {
                    throw FeatureCacheError.parse(
                        "GML: coordinates hold something that is not a number near '\(String(decoding: bytes[scanner.offset..<min(bytes.count, scanner.offset + 20)], as: UTF8.self))'"
                    )
                }
                // x y, or x y z with srsDimension 3 (a fourth value has no meaning in GML: left out).
                if ordinate == 0 {
                    x = value
                } else if ordinate == 1 {
                    y = value
                    if tupleSize == 2 { addPoint(x, y, z: nil) }
                } else if ordinate == 2 {
                    addPoint(x, y, z: value)
                }
                ordinate += 1
                if ordinate == tupleSize { ordinate = 0 }
            }
            if ordinate != 0 {
                throw FeatureCacheError.parse("GML: coordinate values do not divide into \(tupleSize)-dimensional positions")
            }
        }
    }

    @inline(__always)
    private func addPoint(_ x: Double, _ y: Double, z: Double?) {
        let (first, second) = swapAxes ? (y, x) : (x, y)
        // Segments of one curve share their end points: keep one copy.
        if curveDepth > 0 || ringDepth > 0, scratch.pointCount > listStart,
            scratch.xy[scratch.xy.count - 2] == first, scratch.xy[scratch.xy.count - 1] == second
        {
            return
        }
        if z == nil, scratch.layout == .xy {
            scratch.xy.append(first)
            scratch.xy.append(second)
        } else {
            scratch.appendVertex(first, second, z: z, m: nil)
        }
    }

    private func closeList() {
        if scratch.pointCount > (scratch.listEnds.last ?? 0) { scratch.listEnds.append(scratch.pointCount) }
        listStart = scratch.pointCount
    }

    private func finishGeometry() throws(FeatureCacheError) {
        geometryRoot = 0
        rowHasGeometry = true
        // Coordinates outside any list (a bare pos under an unknown element) close one.
        closeList()
        let polygons = scratch.groupEnds.count
        let type: WKBType
        if polygons > 0 {
            guard lists.lines == 0, lists.points == 0, scratch.groupEnds.last == scratch.listEnds.count else {
                throw FeatureCacheError(
                    .unsupported, "GML: a geometry mixing polygons with lines or points (MultiGeometry) is not supported")
            }
            type = polygons == 1 ? .polygon : .multiPolygon
            scratch.depth = polygons == 1 ? 3 : 4
        } else if lists.lines > 0 {
            guard lists.points == 0 else {
                throw FeatureCacheError(.unsupported, "GML: a geometry mixing lines and points (MultiGeometry) is not supported")
            }
            type = scratch.listEnds.count == 1 ? .lineString : .multiLineString
            scratch.depth = scratch.listEnds.count == 1 ? 2 : 3
        } else if scratch.pointCount > 0 {
            type = scratch.pointCount == 1 ? .point : .multiPoint
            scratch.depth = scratch.pointCount == 1 ? 1 : 2
        } else {
            return builder.geometry.appendNull()
        }
        try builder.geometry.append(type, scratch)
    }
}
