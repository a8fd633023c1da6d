// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Reads ArcGIS REST query responses straight into a batch: `fields` fix the
/// columns, `features[].attributes` fill them, `geometry` (`{x,y}`, `{points}`,
/// `{paths}`, `{rings}`) becomes WKB, with rings grouped into polygons by
/// orientation (clockwise outer, counter-clockwise holes).
package enum EsriJSONReader {
    /// - Parameters:
    ///   - fields: the schema to use when the response lists none before its features.
    ///   - objectIdField: the field holding object ids when the response does not say.
    ///   - learnsTemplates: read features that repeat an earlier one's layout
    ///     with its `FeatureTemplate` (false: member by member, as tests compare).
    package static func read(
        _ bytes: UnsafeRawBufferPointer, fields: [FieldInfo], objectIdField: String?,
        learnsTemplates: Bool = true
    ) throws(FeatureCacheError) -> EsriQueryPage {
        var scanner = JSONScanner(bytes)
        var objectIdField = objectIdField
        var responseFields: [FieldInfo]? = nil
        var builder: BatchBuilder? = nil
        var exceededTransferLimit = false
        var spatialReference: SpatialReference? = nil
        var isServiceError = false
        // hasZ / hasM as the response declares them (ArcGIS writes them before
        // the features); nil until it does.
        var declaredZ: Bool? = nil, declaredM: Bool? = nil
        try scanner.beginObject()
        while try scanner.nextKey() {
            if scanner.keyEquals("features") {
                let batch = builder ?? BatchBuilder(fields: responseFields ?? fields, objectIdField: objectIdField)
                builder = batch
                try readFeatures(&scanner, into: batch, hasZ: declaredZ, hasM: declaredM, learnsTemplates: learnsTemplates)
            } else if scanner.keyEquals("hasZ") {
                declaredZ = try scanner.readNull() ? nil : try scanner.readBool()
            } else if scanner.keyEquals("hasM") {
                declaredM = try scanner.readNull() ? nil : try scanner.readBool()
            } else if scanner.keyEquals("fields") {
                responseFields = try readFields(&scanner)
            } else if scanner.keyEquals("objectIdFieldName") {
                objectIdField = try scanner.readStringOrNull() ?? objectIdField
            } else if scanner.keyEquals("exceededTransferLimit") {
                exceededTransferLimit = try scanner.readNull() ? false : try scanner.readBool()
            } else if scanner.keyEquals("spatialReference") {
                spatialReference = try readSpatialReference(&scanner)
            } else if scanner.keyEquals("error") {
                isServiceError = true
                try scanner.skipValue()
            } else {
                try scanner.skipValue()
            }
        }
        try scanner.finish()
        // An error body has no features: an empty batch of the schema stands in.
        guard builder != nil || isServiceError else { throw scanner.error("not a query response: no 'features' member") }
        let batch = (builder ?? BatchBuilder(fields: fields, objectIdField: objectIdField)).finish()
        return EsriQueryPage(
            batch: batch, exceededTransferLimit: exceededTransferLimit,
            spatialReference: spatialReference, isServiceError: isServiceError)
    }

    /// `{"objectIdFieldName":…, "objectIds":[…]}` of a `returnIdsOnly=true` query.
    package static func readObjectIds(_ bytes: UnsafeRawBufferPointer) throws(FeatureCacheError) -> (ids: [Int64], isServiceError: Bool) {
        var scanner = JSONScanner(bytes)
        var ids: [Int64]? = nil
        var isServiceError = false
        try scanner.beginObject()
        while try scanner.nextKey() {
            if scanner.keyEquals("objectIds") {
                var list: [Int64] = []
                if try !scanner.readNull() {
                    try scanner.beginArray()
                    while try scanner.nextElement() { list.append(try scanner.readInt64()) }
                }
                ids = list
            } else {
                if scanner.keyEquals("error") { isServiceError = true }
                try scanner.skipValue()
            }
        }
        try scanner.finish()
        guard ids != nil || isServiceError else { throw scanner.error("not an object id response: no 'objectIds' member") }
        return (ids ?? [], isServiceError)
    }

    // MARK: - Parts

    private static func readFields(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> [FieldInfo] {
        var fields: [FieldInfo] = []
        try scanner.beginArray()
        while try scanner.nextElement() {
            var name: String? = nil, alias: String? = nil, type = FieldType.unknown, length: Int32 = 0
            var nullable = true
            try scanner.beginObject()
            while try scanner.nextKey() {
                if scanner.keyEquals("name") {
                    name = try scanner.readStringOrNull()
                } else if scanner.keyEquals("alias") {
                    alias = try scanner.readStringOrNull()
                } else if scanner.keyEquals("type") {
                    type = FieldType(esriName: try scanner.readStringOrNull() ?? "")
                } else if scanner.keyEquals("length") {
                    length = Int32(clamping: try scanner.readNull() ? 0 : try scanner.readInt64())
                } else if scanner.keyEquals("nullable") {
                    nullable = try scanner.readNull() ? true : try scanner.readBool()
                } else {
                    try scanner.skipValue()
                }
            }
            guard let name, !name.isEmpty else { throw scanner.error("a field has no name") }
            fields.append(FieldInfo(name: name, alias: alias, type: type, nullable: nullable && type != .oid, length: length))
        }
        return fields
    }

    /// - Parameters: hasZ, hasM: as the response declares them; nil = not said,
    ///   and then a third ordinate is read as a Z (as GDAL reads it).
    private static func readFeatures(
        _ scanner: inout JSONScanner, into builder: BatchBuilder,
        hasZ: Bool?, hasM: Bool?, learnsTemplates: Bool
    ) throws(FeatureCacheError) {
        var scratch = CoordinateScratch(
            declared: VertexLayout(hasZ: hasZ ?? false, hasM: hasM ?? false),
            inferZ: hasZ == nil && hasM == nil)
        scratch.nullOrdinatesAfterXY = true  // [x, y, z, null]: a Z+M vertex without a measure
        var templates = FeatureTemplates(enabled: learnsTemplates)
        try scanner.beginArray()
        while try scanner.nextElement() {
            _ = scanner.peek()
            let matched = try readWithTemplate(&scanner, templates.all, into: builder, scratch: &scratch)
            templates.count(matched: matched)
            guard !matched else { continue }
            let start = scanner.offset
            var sawGeometry = false
            try scanner.beginObject()
            while try scanner.nextKey() {
                if scanner.keyEquals("attributes") {
                    try builder.readValues(&scanner, inferring: false)
                } else if scanner.keyEquals("geometry") {
                    sawGeometry = true
                    try readGeometry(&scanner, into: &builder.geometry, scratch: &scratch)
                } else {
                    try scanner.skipValue()
                }
            }
            if !sawGeometry { builder.geometry.appendNull() }
            builder.endRow()
            if templates.wantsToLearn, scratch.geometryFlags == .xy {
                // (A geometry whose own flags gave its layout is read member by member.)
                templates.add(FeatureTemplate.learnEsriJSON(from: scanner, range: start..<scanner.offset, builder: builder))
            }
        }
    }

    /// Reads the feature with the first template it matches; false when none does.
    private static func readWithTemplate(
        _ scanner: inout JSONScanner, _ templates: [FeatureTemplate], into builder: BatchBuilder,
        scratch: inout CoordinateScratch
    ) throws(FeatureCacheError) -> Bool {
        scratch.geometryFlags = .xy  // templates hold no geometry with flags of its own
        for template in templates {
            var point = PointOrdinates()
            let matched = try template.read(&scanner, into: builder) { (slot, scanner) throws(FeatureCacheError) in
                switch slot {
                case let .ordinate(index): point.set(index, try coordinate(&scanner))
                case .coordinates: try scratch.read(from: &scanner)
                case .geometryEnd: try appendGeometry(template.geometryType, point, &scratch, into: &builder.geometry, scanner)
                default: break  // no other slot in Esri JSON templates
                }
            }
            guard matched else { continue }
            builder.endRow(everyColumnFilled: template.propertyCount == builder.columns.count)
            return true
        }
        return false
    }

    /// An Esri point's members as read: x and y NaN until given, z and m nil.
    package struct PointOrdinates {
        package var x = Double.nan, y = Double.nan
        package var z: Double? = nil, m: Double? = nil

        /// Sets x, y, z or m by its index 0…3.
        package mutating func set(_ index: Int, _ value: Double) {
            switch index {
            case 0: x = value
            case 1: y = value
            case 2: z = value
            default: m = value
            }
        }
    }

    /// An Esri geometry object: `{x,y[,z,m]}`, `{points}`, `{paths}` or `{rings}`
    /// (`hasZ`, `hasM` and `spatialReference` members tolerated), or null.
    private static func readGeometry(
        _ scanner: inout JSONScanner, into geometry: inout GeometryColumnBuilder,
        scratch: inout CoordinateScratch
    ) throws(FeatureCacheError) {
        if try scanner.readNull() { return geometry.appendNull() }
        var point = PointOrdinates()
        var type: WKBType? = nil
        scratch.geometryFlags = .xy
        try scanner.beginObject()
        while try scanner.nextKey() {
            if scratch.inferZ, let flag = geometryFlag(scanner) {
                // Only where the response declared no layout: its own wins.
                // Anything but a boolean says nothing, as GDAL reads it.
                guard scanner.peekKind() == .bool else { try scanner.skipValue(); continue }
                let value = try scanner.readBool()
                if flag == .z { scratch.geometryFlags.hasZ = value } else { scratch.geometryFlags.hasM = value }
            } else if let kind = geometryMember(scanner) {
                switch kind {
                case let .ordinate(index):
                    point.set(index, try coordinate(&scanner))
                    if index == 0 { type = .point }
                case let .coordinates(kind):
                    try scratch.read(from: &scanner)
                    type = kind
                }
            } else if scanner.keyEquals("curvePaths") || scanner.keyEquals("curveRings") {
                throw scanner.error("true curves are not supported (query with returnTrueCurves=false)")
            } else {
                try scanner.skipValue()
            }
        }
        try appendGeometry(type, point, &scratch, into: &geometry, scanner)
    }

    package enum GeometryFlag { case z, m }

    /// `hasZ` or `hasM` in a geometry object; nil for any other key.
    package static func geometryFlag(_ scanner: JSONScanner) -> GeometryFlag? {
        scanner.keyEquals("hasZ") ? .z : scanner.keyEquals("hasM") ? .m : nil
    }

    /// What a member of an Esri geometry object holds, by its key.
    package enum GeometryMember {
        /// x, y, z or m (0…3).
        case ordinate(Int)
        /// `points`, `paths` or `rings`: coordinate arrays of this type.
        case coordinates(WKBType)
    }

    /// The geometry member the scanner's current key names; nil for any other key.
    package static func geometryMember(_ scanner: JSONScanner) -> GeometryMember? {
        if scanner.keyEquals("x") { return .ordinate(0) }
        if scanner.keyEquals("y") { return .ordinate(1) }
        if scanner.keyEquals("z") { return .ordinate(2) }
        if scanner.keyEquals("m") { return .ordinate(3) }
        if scanner.keyEquals("points") { return .coordinates(.multiPoint) }
        if scanner.keyEquals("paths") { return .coordinates(.multiLineString) }
        if scanner.keyEquals("rings") { return .coordinates(.polygon) }
        return nil
    }

    /// The geometry a closed geometry object read as: a point from its
    /// ordinates, the scratch as `type`, or none (`{}` is ArcGIS's empty geometry).
    private static func appendGeometry(
        _ type: WKBType?, _ point: PointOrdinates, _ scratch: inout CoordinateScratch,
        into geometry: inout GeometryColumnBuilder, _ scanner: JSONScanner
    ) throws(FeatureCacheError) {
        switch type {
        case .point? where !point.x.isNaN && !point.y.isNaN && (point.z != nil || point.m != nil):
            // {x, y, z, m}: the ordinates the layout keeps.
            scratch.reset()
            scratch.appendVertex(point.x, point.y, z: point.z, m: point.m)
            scratch.depth = 1
            do {
                try geometry.append(.point, scratch)
            } catch {
                throw scanner.error(error.message)
            }
        case .point?: try geometry.appendPoint(point.x, point.y)
        case let kind?:
            // An empty array is one level shallower than its type: treat as no geometry.
            if scratch.pointCount == 0 { return geometry.appendNull() }
            do {
                if kind == .multiPoint, scratch.depth == 2 { return try geometry.append(.multiPoint, scratch) }
                try geometry.append(kind, scratch, ringsByOrientation: kind == .polygon)
            } catch {
                throw scanner.error(error.message)  // where in the document
            }
        case nil: geometry.appendNull()
        }
    }

    /// A point's x or y: a number, or null, "NaN" or a bare NaN for an empty
    /// point. ArcGIS Server before 10.1 writes an empty point as
    /// `{"x": NaN, "y": NaN}`, a NaN token that is not JSON (GDAL reads it too);
    /// it is accepted here and nowhere else: in a path, a ring or an attribute it
    /// stays an error.
    @inline(__always)
    package static func coordinate(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> Double {
        switch scanner.peekKind() {
        case .null?: _ = try scanner.readNull(); return .nan
        case .string?:
            let text = try scanner.readString()
            guard text == "NaN" else { throw scanner.error("a coordinate must be a number, not \"\(text)\"") }
            return .nan
        default:
            if scanner.peek() == UInt8(ascii: "N"), scanner.readBareNaN() { return .nan }
            return try scanner.readDouble()
        }
    }

    package static func readSpatialReference(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> SpatialReference? {
        if try scanner.readNull() { return nil }
        var wkid: Int32 = 0, latest: Int32 = 0, wkt: String? = nil
        try scanner.beginObject()
        while try scanner.nextKey() {
            if scanner.keyEquals("wkid") {
                wkid = Int32(clamping: try scanner.readNull() ? 0 : try scanner.readInt64())
            } else if scanner.keyEquals("latestWkid") {
                latest = Int32(clamping: try scanner.readNull() ? 0 : try scanner.readInt64())
            } else if scanner.keyEquals("wkt") {
                wkt = try scanner.readStringOrNull()
            } else {
                try scanner.skipValue()
            }
        }
        return wkid == 0 && latest == 0 && wkt == nil ? nil : SpatialReference(wkid: wkid, latestWkid: latest, wkt: wkt)
    }
}
