// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Reads ArcGIS feature-service query responses in Esri's protocol-buffer
/// format (`f=pbf`, `FeatureCollectionPBuffer` of FeatureCollection.proto)
/// straight into a batch, as `EsriJSONReader` reads `f=json`:
///
/// - `FeatureResult`: the fields fix the columns; each feature's attribute
///   `Value`s fill them in field order (or at the `index` a value names);
///   geometry is `lengths` (vertices per part) and zig-zag, delta-encoded
///   integer `coords` (deltas start again at each part), turned into world
///   coordinates by the `Transform` (PBFTransform.swift).
///   Rings become polygons by orientation, as in Esri JSON.
/// - `CountResult`, `ObjectIdsResult` and `ExtentCountResult`.
///
/// Fields it does not use are skipped by wire type. Anything malformed (cut
/// varints, lengths past the end, wrong wire types, coordinates that disagree
/// with the lengths, values for fields that do not exist) is an FC_E_PARSE
/// naming the byte offset. Z and M (`hasZ`, `hasM`) are kept, through the
/// transform's z and m scale and translation. As ArcGIS writes them (the
/// recordings in Fixtures/arcgis-zm), only x and y are deltas: each vertex's z
/// and m are absolute integers, and an m of 0 is a null measure. PBF cannot
/// tell a null M from an M equal to the M domain's minimum (the transform's M
/// translation, -100000 by default): both are 0 on the wire, and both read as
/// null. Esri JSON keeps them apart.
package enum EsriPBFReader {
    package static func read(
        _ bytes: UnsafeRawBufferPointer, fields: [FieldInfo], objectIdField: String?
    ) throws(FeatureCacheError) -> EsriQueryPage {
        var result = try queryResult(bytes, expecting: Results.features)
        var header = FeatureResultHeader()
        let start = result
        var featureCount = 0
        while let (number, type) = try result.nextField() {
            if number == 15 { featureCount += 1 }
            try header.read(number, type, &result)
        }
        let responseFields = header.fields ?? fields
        // Every feature gets a cell in every column: a response of a million
        // fields and a million empty features would ask for 10^12 of them.
        let (cells, overflow) = featureCount.multipliedReportingOverflow(by: max(1, responseFields.count))
        guard !overflow, cells <= max(Self.cellsAlwaysAllowed, 4 * bytes.count) else {
            throw result.error(
                "\(featureCount) features × \(responseFields.count) fields is more than \(bytes.count) bytes can hold", at: 0)
        }
        let objectIdField = header.objectIdField ?? objectIdField ?? responseFields.first { $0.type == .oid }?.name
        let builder = BatchBuilder(fields: responseFields, objectIdField: objectIdField)
        builder.reserveCapacity(featureCount)
        var features = FeatureDecoder(builder: builder, header: header)
        // Features after the header: a second pass, so the fields and the
        // transform are known whatever order the server wrote them in.
        result = start
        try result.forEach(field: 15) { (result, type) throws(FeatureCacheError) in
            try result.expect(.lengthDelimited, type, field: "a feature")
            var feature = try result.readMessage()
            try features.read(&feature)
        }
        return EsriQueryPage(
            batch: builder.finish(), exceededTransferLimit: header.exceededTransferLimit,
            spatialReference: header.spatialReference)
    }

    /// Attribute cells (features × fields) any response may have; beyond it, at
    /// most four per byte of the response.
    package static let cellsAlwaysAllowed = 1 << 22

    /// The `count` of a `returnCountOnly=true` answer.
    package static func readCount(_ bytes: UnsafeRawBufferPointer) throws(FeatureCacheError) -> Int {
        var result = try queryResult(bytes, expecting: Results.count)
        var count: UInt64 = 0
        try result.forEach(field: 1) { (result, type) throws(FeatureCacheError) in
            try result.expect(.varint, type, field: "the count")
            count = try result.readVarint()
        }
        guard count <= UInt64(Int.max) else { throw result.error("a count of \(count)") }
        return Int(count)
    }

    /// The ids of a `returnIdsOnly=true` answer.
    package static func readObjectIds(_ bytes: UnsafeRawBufferPointer) throws(FeatureCacheError) -> [Int64] {
        var result = try queryResult(bytes, expecting: Results.objectIds)
        var ids: [Int64] = []
        try result.forEach(field: 3) { (result, type) throws(FeatureCacheError) in
            try result.readRepeated(type, scalar: .varint, field: "an object id") { (run) throws(FeatureCacheError) in
                let id = try run.readVarint()
                guard id <= UInt64(Int64.max) else { throw run.error("object id \(id) is out of range") }
                ids.append(Int64(id))
            }
        }
        return ids
    }

    /// The extent of a `returnExtentOnly=true` answer; nil when empty.
    package static func readExtent(_ bytes: UnsafeRawBufferPointer) throws(FeatureCacheError) -> Envelope? {
        var result = try queryResult(bytes, expecting: Results.extent)
        var extent: Envelope? = nil
        try result.forEach(field: 1) { (result, type) throws(FeatureCacheError) in
            try result.expect(.lengthDelimited, type, field: "the extent")
            var message = try result.readMessage()
            extent = try readEnvelope(&message)
        }
        guard let extent, extent.xmin <= extent.xmax, extent.ymin <= extent.ymax else { return nil }  // NaN corners: empty
        return extent
    }

    // MARK: - Messages

    /// `QueryResult`'s members (a oneof).
    private enum Results {
        static let features = (1, "features"), count = (2, "a count"), objectIds = (3, "object ids"), extent = (4, "an extent")
    }

    /// The `QueryResult` member the caller expects, as a reader of its own.
    private static func queryResult(
        _ bytes: UnsafeRawBufferPointer, expecting wanted: (Int, String)
    ) throws(FeatureCacheError) -> ProtobufReader {
        var message = ProtobufReader(bytes)
        var found: ProtobufReader? = nil
        var other: Int? = nil
        while let (number, type) = try message.nextField() {
            guard number == 2 else {
                try message.skip(type)  // version, and whatever a later version adds
                continue
            }
            try message.expect(.lengthDelimited, type, field: "the query result")
            var result = try message.readMessage()
            while let (member, memberType) = try result.nextField() {
                if member == wanted.0 {
                    try result.expect(.lengthDelimited, memberType, field: "the query result's \(wanted.1)")
                    found = try result.readMessage()
                } else {
                    if (1...4).contains(member) { other = member }
                    try result.skip(memberType)
                }
            }
        }
        guard let found else {
            let names = [1: "features", 2: "a count", 3: "object ids", 4: "an extent"]
            let got = other.flatMap { names[$0] }.map { "it holds \($0)" } ?? "it holds no query result"
            throw message.error("expected \(wanted.1) in the response, but \(got)", at: 0)
        }
        return found
    }

    fileprivate static func readSpatialReference(_ message: inout ProtobufReader) throws(FeatureCacheError) -> SpatialReference? {
        var wkid: UInt64 = 0, latest: UInt64 = 0, wkt: String? = nil
        while let (number, type) = try message.nextField() {
            switch number {
            case 1: try message.expect(.varint, type, field: "wkid"); wkid = try message.readVarint()
            case 2: try message.expect(.varint, type, field: "latestWkid"); latest = try message.readVarint()
            case 5: try message.expect(.lengthDelimited, type, field: "wkt"); wkt = try message.readString()
            default: try message.skip(type)
            }
        }
        if wkid == 0, latest == 0, wkt?.isEmpty ?? true { return nil }
        return SpatialReference(
            wkid: Int32(clamping: wkid), latestWkid: Int32(clamping: latest), wkt: wkt.flatMap { $0.isEmpty ? nil : $0 })
    }

    private static func readEnvelope(_ message: inout ProtobufReader) throws(FeatureCacheError) -> Envelope {
        var corners = [Double](repeating: .nan, count: 4)
        var spatialReference: SpatialReference? = nil
        while let (number, type) = try message.nextField() {
            switch number {
            case 1...4:
                try message.expect(.fixed64, type, field: "an extent corner")
                corners[number - 1] = try message.readDouble()
            case 5:
                try message.expect(.lengthDelimited, type, field: "the extent's spatial reference")
                var reference = try message.readMessage()
                spatialReference = try readSpatialReference(&reference)
            default: try message.skip(type)
            }
        }
        return Envelope(xmin: corners[0], ymin: corners[1], xmax: corners[2], ymax: corners[3], spatialReference: spatialReference)
    }
}

/// `FeatureResult` apart from its features.
private struct FeatureResultHeader {
    var objectIdField: String?
    /// proto3 leaves out a field at its default: no geometryType is 0, points.
    var geometryType: UInt64 = 0
    var spatialReference: SpatialReference?
    var exceededTransferLimit = false
    var hasZ = false
    var hasM = false
    var transform: PBFTransform?
    var fields: [FieldInfo]?

    mutating func read(_ number: Int, _ type: ProtobufReader.WireType, _ message: inout ProtobufReader) throws(FeatureCacheError) {
        switch number {
        case 1:
            try message.expect(.lengthDelimited, type, field: "objectIdFieldName")
            let name = try message.readString()
            objectIdField = name.isEmpty ? nil : name
        case 7: try message.expect(.varint, type, field: "geometryType"); geometryType = try message.readVarint()
        case 8:
            try message.expect(.lengthDelimited, type, field: "spatialReference")
            var reference = try message.readMessage()
            spatialReference = try EsriPBFReader.readSpatialReference(&reference)
        case 9: try message.expect(.varint, type, field: "exceededTransferLimit"); exceededTransferLimit = try message.readBool()
        case 10: try message.expect(.varint, type, field: "hasZ"); hasZ = try message.readBool()
        case 11: try message.expect(.varint, type, field: "hasM"); hasM = try message.readBool()
        case 12:
            try message.expect(.lengthDelimited, type, field: "transform")
            var transform = try message.readMessage()
            self.transform = try PBFTransform(&transform)
        case 13:
            try message.expect(.lengthDelimited, type, field: "a field")
            var field = try message.readMessage()
            // Appended in place: a response may list many fields (a copy per field would be quadratic).
            fields = fields ?? []
            fields!.append(try Self.readField(&field))
        default: try message.skip(type)  // features (the second pass), values, unique id, server gens…
        }
    }

    /// Field types by their number in FeatureCollection.proto's `FieldType`.
    private static let fieldTypes: [FieldType] = [
        .smallInteger, .integer, .single, .double, .string, .date, .oid, .geometry, .blob, .raster,
        .guid, .globalID, .xml, .bigInteger, .dateOnly, .timeOnly, .timestampOffset,
    ]

    private static func readField(_ message: inout ProtobufReader) throws(FeatureCacheError) -> FieldInfo {
        let start = message.offset
        var name = "", alias: String? = nil, type = fieldTypes[0]  // proto3: an absent type is 0
        while let (number, wire) = try message.nextField() {
            switch number {
            case 1: try message.expect(.lengthDelimited, wire, field: "a field's name"); name = try message.readString()
            case 2:
                try message.expect(.varint, wire, field: "a field's type")
                let code = try message.readVarint()
                type = code < UInt64(fieldTypes.count) ? fieldTypes[Int(code)] : .unknown
            case 3: try message.expect(.lengthDelimited, wire, field: "a field's alias"); alias = try message.readString()
            default: try message.skip(wire)
            }
        }
        guard !name.isEmpty else { throw message.error("a field has no name", at: start) }
        return FieldInfo(name: name, alias: alias.flatMap { $0.isEmpty ? nil : $0 }, type: type, nullable: type != .oid)
    }
}

/// Reads `Feature` messages into the builder's rows.
private struct FeatureDecoder {
    let builder: BatchBuilder
    let columns: [Unmanaged<ColumnBuilder>]
    let header: FeatureResultHeader
    /// Ordinates per vertex: x, y, then z and m when the result has them.
    let stride: Int
    /// The header's transform, unwrapped once: read in place for every
    /// coordinate (a copy per geometry showed in profiles).
    let transform: PBFTransform
    let hasTransform: Bool
    var scratch: CoordinateScratch
    /// One geometry's vertices per part, and its coordinate deltas.
    var lengths: [Int] = []
    var deltas: [Int64] = []

    init(builder: BatchBuilder, header: FeatureResultHeader) {
        self.builder = builder
        columns = builder.columns.map(Unmanaged.passUnretained)
        self.header = header
        stride = 2 + (header.hasZ ? 1 : 0) + (header.hasM ? 1 : 0)
        hasTransform = header.transform != nil
        transform = header.transform ?? PBFTransform()
        scratch = CoordinateScratch(declared: VertexLayout(hasZ: header.hasZ, hasM: header.hasM))
    }

    mutating func read(_ feature: inout ProtobufReader) throws(FeatureCacheError) {
        var position = 0
        var sawGeometry = false
        // if/else rather than a switch: a jump table mispredicts on the
        // alternating field numbers; these branches are learned.
        while let (number, type) = try feature.nextField() {
            if number == 1 {
                try feature.expect(.lengthDelimited, type, field: "an attribute")
                var value = try feature.readMessage()
                try readValue(&value, position: position)
                position += 1
            } else if number == 2 {
                try feature.expect(.lengthDelimited, type, field: "a geometry")
                var geometry = try feature.readMessage()
                try readGeometry(&geometry)
                sawGeometry = true
            } else if number == 3 {
                throw feature.error("compressed shape buffers are not supported (query without them)")
            } else if number == 7 {
                throw feature.error("true curves are not supported (query with returnTrueCurves=false)")
            } else {
                try feature.skip(type)  // centroid, aggregate geometries, envelope
            }
        }
        if !sawGeometry { builder.geometry.appendNull() }
        // As many values as columns, none twice (readValue checks): every column has its value.
        builder.endRow(everyColumnFilled: position == columns.count)
    }

    /// One `Value`, for the field at `position` unless it names its own `index`.
    // mutating, though it changes nothing in self: a non-mutating call from
    // `read` copied the whole decoder per value.
    private mutating func readValue(_ message: inout ProtobufReader, position: Int) throws(FeatureCacheError) {
        let start = message.offset
        var value = PBFValue.null
        var index: UInt64? = nil
        while let (number, type) = try message.nextField() {
            // Varint members first (integers are most values), then the rest;
            // if/else for the branch predictor, as in `read`.
            if type == .varint, number >= 4, number <= 11 {
                let raw = try message.readVarint()
                if number == 4 || number == 8 {
                    value = .integer(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))  // sint: zig-zag
                } else if number == 5 {
                    value = .integer(Int64(UInt32(truncatingIfNeeded: raw)))
                } else if number == 6 {
                    value = .integer(Int64(bitPattern: raw))
                } else if number == 7 {
                    value = raw <= UInt64(Int64.max) ? .integer(Int64(raw)) : .double(Double(raw))
                } else if number == 9 {
                    value = .boolean(raw != 0)
                } else if number == 10 {
                    value = .null
                } else {
                    index = raw
                }
            } else if number == 1 {
                try message.expect(.lengthDelimited, type, field: "a string value")
                value = .text(try message.readBytes())
            } else if number == 3 {
                try message.expect(.fixed64, type, field: "a double value")
                value = .double(try message.readDouble())
            } else if number == 2 {
                try message.expect(.fixed32, type, field: "a float value")
                value = .double(Double(try message.readFloat()))
            } else if (4...11).contains(number) {
                throw message.error("value field \(number) has wire type \(type.rawValue), expected 0")
            } else {
                try message.skip(type)
            }
        }
        let field = index ?? UInt64(position)
        guard field < UInt64(columns.count) else {
            throw message.error("feature \(builder.count + 1) has a value for field \(field + 1) of \(columns.count)", at: start)
        }
        // Unretained and borrowed: `builder` holds every column for the
        // decoder's life, and a retain and release per value showed in profiles.
        let rows = builder.count
        let problem = columns[Int(field)]._withUnsafeGuaranteedRef { column -> FeatureCacheError? in
            guard column.count == rows else { return .parse("feature \(rows + 1) has two values for '\(column.field.name)'") }
            do throws(FeatureCacheError) {
                switch value {
                case .null: column.appendNull()
                case let .integer(number): try column.appendInteger(number)
                case let .double(number): try column.appendDouble(number)
                case let .boolean(flag): try column.appendBoolean(flag)
                case let .text(bytes):
                    if column.kind == nil { column.settle(.string) }
                    if column.kind == .string {
                        column.appendTextBytes(bytes)
                    } else {
                        try column.appendTextToTypedColumn(String(decoding: bytes, as: UTF8.self))
                    }
                }
                return nil
            } catch {
                return error
            }
        }
        if let problem { throw message.error(problem.message, at: start) }
    }

    private mutating func readGeometry(_ message: inout ProtobufReader) throws(FeatureCacheError) {
        let start = message.offset
        if header.geometryType == 0, stride == 2, hasTransform {
            // A point (most layers): its two deltas read straight off the wire;
            // anything else (parts, more values, a malformation) takes the
            // general path below, which says what is wrong.
            var probe = message
            if let (x, y) = Self.pointDeltas(&probe) {
                do throws(FeatureCacheError) {
                    try builder.geometry.appendPoint(transform.x(x), transform.y(y))
                } catch {
                    throw message.error(error.message, at: start)
                }
                message = probe
                return
            }
        }
        // (removeAll on an empty array still costs a generic call per geometry)
        if !lengths.isEmpty { lengths.removeAll(keepingCapacity: true) }
        if !deltas.isEmpty { deltas.removeAll(keepingCapacity: true) }
        while let (number, type) = try message.nextField() {
            switch number {
            case 2:
                try message.readRepeated(type, scalar: .varint, field: "a part length") { (run) throws(FeatureCacheError) in
                    let length = try run.readVarint()
                    guard length <= UInt64(Int32.max) else { throw run.error("a part of \(length) vertices") }
                    lengths.append(Int(length))
                }
            case 3:
                try message.readRepeated(type, scalar: .varint, field: "a coordinate") { (run) throws(FeatureCacheError) in
                    deltas.append(try run.readSignedVarint())
                }
            default: try message.skip(type)  // the geometry type (the result's counts), vertex ids
            }
        }
        guard deltas.count % stride == 0 else {
            throw message.error("a geometry has \(deltas.count) coordinate values, not a multiple of \(stride) per vertex", at: start)
        }
        let vertices = deltas.count / stride
        guard vertices > 0 else { return builder.geometry.appendNull() }
        guard hasTransform else {
            throw message.error("a geometry, but the response has no transform to place its integer coordinates", at: start)
        }
        if lengths.isEmpty { lengths.append(vertices) }  // optional for points and multipoints
        try place(vertices, message, start: start)
        try append(message, start: start)
    }

    /// A point geometry's x and y deltas when the message is just that: packed
    /// coordinates holding two varints, besides fields the reader skips; nil
    /// for anything else.
    private static func pointDeltas(_ message: inout ProtobufReader) -> (Int64, Int64)? {
        var point: (Int64, Int64)? = nil
        do throws(FeatureCacheError) {
            while let (number, type) = try message.nextField() {
                if number == 3 {
                    guard point == nil, type == .lengthDelimited else { return nil }
                    var run = try message.readMessage()
                    let x = try run.readSignedVarint(), y = try run.readSignedVarint()
                    guard run.isAtEnd else { return nil }
                    point = (x, y)
                } else if number == 2 {
                    return nil  // part lengths
                } else {
                    try message.skip(type)
                }
            }
        } catch {
            return nil
        }
        return point
    }

    /// World coordinates into the scratch, part by part: each part's deltas
    /// start again from zero.
    private mutating func place(_ vertices: Int, _ message: ProtobufReader, start: Int) throws(FeatureCacheError) {
        scratch.reset()
        var vertex = 0
        for length in lengths where length > 0 {
            guard length <= vertices - vertex else { break }
            var x: Int64 = 0, y: Int64 = 0
            for index in vertex..<(vertex + length) {
                x &+= deltas[index * stride]
                y &+= deltas[index * stride + 1]
                guard stride > 2 else {
                    scratch.xy.append(transform.x(x))
                    scratch.xy.append(transform.y(y))
                    continue
                }
                // Z then M after x and y: absolute, not deltas (only x and y
                // are), each through its own scale and translation. An M of 0
                // is no measure: the recordings write a null M so, and an M
                // at the domain's minimum (the translation) the same way.
                var next = index * stride + 2
                var height: Double? = nil, measure: Double? = nil
                if header.hasZ {
                    height = transform.z(deltas[next])
                    next += 1
                }
                if header.hasM, deltas[next] != 0 {
                    measure = transform.m(deltas[next])
                }
                scratch.appendVertex(transform.x(x), transform.y(y), z: height, m: measure)
            }
            vertex += length
            scratch.listEnds.append(vertex)
        }
        guard vertex == vertices, lengths.allSatisfy({ $0 >= 0 }) else {
            let listed = lengths.reduce(0) { $0 &+ $1 }
            throw message.error("a geometry's parts hold \(listed) vertices but its coordinates \(vertices)", at: start)
        }
    }

    /// Appends the scratch as the result's geometry type.
    private mutating func append(_ message: ProtobufReader, start: Int) throws(FeatureCacheError) {
        let vertices = scratch.pointCount
        do throws(FeatureCacheError) {
            switch header.geometryType {
            case 0:
                guard vertices == 1 else { throw .parse("a point has \(vertices) vertices") }
                scratch.depth = 1
                try builder.geometry.append(.point, scratch)
            case 1:
                scratch.depth = 2
                scratch.listEnds = [vertices]
                try builder.geometry.append(.multiPoint, scratch)
            case 2:
                scratch.depth = 3
                scratch.groupEnds.append(scratch.listEnds.count)
                try builder.geometry.append(.multiLineString, scratch)
            case 3:
                scratch.depth = 3
                scratch.groupEnds.append(scratch.listEnds.count)
                try builder.geometry.append(.polygon, scratch, ringsByOrientation: true)
            default:
                throw .parse("geometry type \(header.geometryType) is not supported")
            }
        } catch {
            throw message.error(error.message, at: start)
        }
    }
}

/// One attribute as the wire carries it, before it meets its column.
private enum PBFValue {
    case null
    case integer(Int64)
    case double(Double)
    case boolean(Bool)
    case text(UnsafeRawBufferPointer)
}
