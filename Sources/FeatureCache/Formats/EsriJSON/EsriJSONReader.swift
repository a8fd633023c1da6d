// SPDX-License-Identifier: Apache-2.0
/// Reads ArcGIS REST query responses straight into a batch: `fields` fix the
/// columns, `features[].attributes` fill them, `geometry` (`{x,y}`, `{points}`,
/// `{paths}`, `{rings}`) becomes WKB, with rings grouped into polygons by
/// orientation (clockwise outer, counter-clockwise holes).
package enum EsriJSONReader {
    /// - Parameters:
    ///   - fields: the schema to use when the response lists none before its features.
    ///   - objectIdField: the field holding object ids when the response does not say.
    package static func read(_ bytes: UnsafeRawBufferPointer, fields: [FieldInfo], objectIdField: String?) throws(FeatureCacheError) -> ArcGISQueryPage {
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
                try readFeatures(&scanner, into: batch, hasZ: declaredZ, hasM: declaredM)
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
        return ArcGISQueryPage(batch: batch, exceededTransferLimit: exceededTransferLimit,
                            spatialReference: spatialReference, isServiceError: isServiceError)
    }

    /// `{"objectIdFieldName":…, "objectIds":[…]}` of a `returnIdsOnly=true` query.
    static func readObjectIds(_ bytes: UnsafeRawBufferPointer) throws(FeatureCacheError) -> (ids: [Int64], isServiceError: Bool) {
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
                if scanner.keyEquals("name") { name = try scanner.readStringOrNull() }
                else if scanner.keyEquals("alias") { alias = try scanner.readStringOrNull() }
                else if scanner.keyEquals("type") { type = FieldType(esriName: try scanner.readStringOrNull() ?? "") }
                else if scanner.keyEquals("length") { length = Int32(clamping: try scanner.readNull() ? 0 : try scanner.readInt64()) }
                else if scanner.keyEquals("nullable") { nullable = try scanner.readNull() ? true : try scanner.readBool() }
                else { try scanner.skipValue() }
            }
            guard let name, !name.isEmpty else { throw scanner.error("a field has no name") }
            fields.append(FieldInfo(name: name, alias: alias, type: type, nullable: nullable && type != .oid, length: length))
        }
        return fields
    }

    /// - Parameters: hasZ, hasM: as the response declares them; nil = not said,
    ///   and then a third ordinate is read as a Z (as GDAL reads it).
    private static func readFeatures(_ scanner: inout JSONScanner, into builder: BatchBuilder,
                                     hasZ: Bool?, hasM: Bool?) throws(FeatureCacheError) {
        var scratch = CoordinateScratch(declared: VertexLayout(hasZ: hasZ ?? false, hasM: hasM ?? false),
                                        inferZ: hasZ == nil && hasM == nil)
        scratch.nullOrdinatesAfterXY = true  // [x, y, z, null]: a Z+M vertex without a measure
        try scanner.beginArray()
        while try scanner.nextElement() {
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
        }
    }

    /// An Esri geometry object: `{x,y[,z,m]}`, `{points}`, `{paths}` or `{rings}`
    /// (`hasZ`, `hasM` and `spatialReference` members tolerated), or null.
    private static func readGeometry(_ scanner: inout JSONScanner, into geometry: inout GeometryColumnBuilder,
                                     scratch: inout CoordinateScratch) throws(FeatureCacheError) {
        if try scanner.readNull() { return geometry.appendNull() }
        var x = Double.nan, y = Double.nan
        var z: Double? = nil, m: Double? = nil
        var type: WKBType? = nil
        try scanner.beginObject()
        while try scanner.nextKey() {
            if scanner.keyEquals("x") { x = try coordinate(&scanner); type = .point }
            else if scanner.keyEquals("y") { y = try coordinate(&scanner) }
            else if scanner.keyEquals("z") { z = try coordinate(&scanner) }
            else if scanner.keyEquals("m") { m = try coordinate(&scanner) }
            else if scanner.keyEquals("points") { try scratch.read(from: &scanner); type = .multiPoint }
            else if scanner.keyEquals("paths") { try scratch.read(from: &scanner); type = .multiLineString }
            else if scanner.keyEquals("rings") { try scratch.read(from: &scanner); type = .polygon }
            else if scanner.keyEquals("curvePaths") || scanner.keyEquals("curveRings") {
                throw scanner.error("true curves are not supported (query with returnTrueCurves=false)")
            } else { try scanner.skipValue() }
        }
        switch type {
        case .point? where !x.isNaN && !y.isNaN && (z != nil || m != nil):
            // {x, y, z, m}: the ordinates the layout keeps.
            scratch.reset()
            scratch.appendVertex(x, y, z: z, m: m)
            scratch.depth = 1
            do {
                try geometry.append(.point, scratch)
            } catch {
                throw scanner.error(error.message)
            }
        case .point?: try geometry.appendPoint(x, y)
        case let kind?:
            // An empty array is one level shallower than its type: treat as no geometry.
            if scratch.pointCount == 0 { return geometry.appendNull() }
            do {
                if kind == .multiPoint, scratch.depth == 2 { return try geometry.append(.multiPoint, scratch) }
                try geometry.append(kind, scratch, ringsByOrientation: kind == .polygon)
            } catch {
                throw scanner.error(error.message)  // where in the document
            }
        case nil: geometry.appendNull()  // {} is ArcGIS's empty geometry
        }
    }

    /// A point's x or y: a number, or null, "NaN" or a bare NaN for an empty
    /// point. ArcGIS Server before 10.1 writes an empty point as
    /// `{"x": NaN, "y": NaN}`, a NaN token that is not JSON (GDAL reads it too);
    /// it is accepted here and nowhere else: in a path, a ring or an attribute it
    /// stays an error.
    @inline(__always)
    private static func coordinate(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> Double {
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

    static func readSpatialReference(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> SpatialReference? {
        if try scanner.readNull() { return nil }
        var wkid: Int32 = 0, latest: Int32 = 0, wkt: String? = nil
        try scanner.beginObject()
        while try scanner.nextKey() {
            if scanner.keyEquals("wkid") { wkid = Int32(clamping: try scanner.readNull() ? 0 : try scanner.readInt64()) }
            else if scanner.keyEquals("latestWkid") { latest = Int32(clamping: try scanner.readNull() ? 0 : try scanner.readInt64()) }
            else if scanner.keyEquals("wkt") { wkt = try scanner.readStringOrNull() }
            else { try scanner.skipValue() }
        }
        return wkid == 0 && latest == 0 && wkt == nil ? nil : SpatialReference(wkid: wkid, latestWkid: latest, wkt: wkt)
    }
}
