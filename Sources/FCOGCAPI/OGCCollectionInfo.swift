// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// What `/collections/{id}` and its queryables say about a collection.
package struct OGCCollectionInfo: Sendable {
    var metadata: TableMetadata
    /// The CRS URIs the items can be asked in (`crs`); CRS84 when not listed.
    var crs: [String]
    var storageCrs: String?
    /// Where the collection's features are, as its `items` link advertises
    /// them in GeoJSON (`…/items` when it has none).
    var itemsURL: RequestURL

    /// - Parameters:
    ///   - url: the collection's URL, which relative links resolve against.
    ///   - limit: the OpenAPI `limit` maximum, when known.
    package static func parse(_ json: JSONValue, id: String, url: RequestURL, limit: Int?) throws(FeatureCacheError) -> OGCCollectionInfo {
        guard json.isObject else { throw FeatureCacheError.parse("collection '\(id)': not a JSON object") }
        var metadata = TableMetadata(name: json["title"]?.string ?? id)
        metadata.description = json["description"]?.string ?? ""
        metadata.spatialReference = SpatialReference(wkid: 4326)
        metadata.extent = extent(json["extent"]?["spatial"])
        metadata.maxRecordCount = limit ?? 1000
        metadata.maxRecordCountDeclared = limit != nil
        // Part 1's itemType: "feature" (the default) or "record" (no geometry).
        metadata.sourceFacts[OGCCollectionSource.itemTypeFact] = json["itemType"]?.string ?? "feature"
        let crs = (json["crs"]?.array ?? []).compactMap(\.string)
        let items = OGCLinks(json["links"], base: url).features("items")?.url ?? url.appendingPath("items")
        return OGCCollectionInfo(
            metadata: metadata, crs: crs.isEmpty ? [CRSURI.crs84] : crs,
            storageCrs: json["storageCrs"]?.string, itemsURL: items)
    }

    /// The first spatial extent, in lon/lat (CRS84, or EPSG:4326 with its axes swapped back).
    private static func extent(_ spatial: JSONValue?) -> Envelope? {
        guard let box = spatial?["bbox"]?.array?.first?.array?.compactMap(\.double), box.count == 4 || box.count == 6 else { return nil }
        let crs = spatial?["crs"]?.string ?? CRSURI.crs84
        let half = box.count / 2
        var (xmin, ymin, xmax, ymax) = (box[0], box[1], box[half], box[half + 1])
        if CRSURI.isLatLon4326(crs) { (xmin, ymin, xmax, ymax) = (ymin, xmin, ymax, xmax) }
        guard let wkid = CRSURI.wkid(of: crs) else { return nil }
        let envelope = Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, spatialReference: SpatialReference(wkid: wkid))
        return envelope.isValid ? envelope : nil
    }

    /// Fields and geometry type from a queryables (or schema) document: JSON
    /// Schema `properties`. The property with `x-ogc-role: id` is the feature id,
    /// not a property. Returns false when the document declares no properties.
    package mutating func applyQueryables(_ json: JSONValue) -> Bool {
        guard let properties = json["properties"]?.members, !properties.isEmpty else { return false }
        var fields: [FieldInfo] = []
        for (name, schema) in properties {
            let role = schema["x-ogc-role"]?.string
            if role == "id" { continue }
            if role == "primary-geometry" || schema["format"]?.string?.hasPrefix("geometry-") == true
                || schema["$ref"]?.string?.lowercased().contains("geojson") == true || name == "geometry"
            {
                metadata.geometryType = Self.geometryType(schema["format"]?.string ?? schema["$ref"]?.string ?? "")
                continue
            }
            var field = FieldInfo(name: name, alias: schema["title"]?.string ?? name, type: Self.fieldType(schema))
            field.widensToDouble = Self.isPlainNumber(schema)
            fields.append(field)
        }
        metadata.fields = fields
        return true
    }

    /// Fields from a page of items, for servers without queryables: typed by
    /// the values the page holds, as GDAL does — a number column written only
    /// as whole numbers is an integer (32-bit when every value fits), any
    /// fraction makes it a double. A later page may still hold a fraction: its
    /// values keep their own type, only the declared type is a guess.
    mutating func applySample(_ batch: FeatureBatch, fields: Bool) {
        // A schema's plain "number" is a double once the sample holds a fraction.
        for index in metadata.fields.indices where metadata.fields[index].widensToDouble {
            if let column = batch.columnIndex(named: metadata.fields[index].name), batch.columns[column].kind == .double {
                metadata.fields[index].type = .double
            }
        }
        if fields {
            metadata.fields = batch.columns.map { column in
                var field = column.field
                if column.kind == .int64 {
                    let fits = (0..<batch.count).allSatisfy {
                        column.isNull($0) || Int64(Int32(truncatingIfNeeded: column.int64($0))) == column.int64($0)
                    }
                    field.type = fits ? .integer : .bigInteger
                }
                return field
            }
        }
        // The first feature with a geometry says the type, as GDAL reads a sample.
        let first = (0..<batch.count).first { batch.geometry.wkb($0).count >= 5 }
        if let first { metadata.geometryType = GeometrySummary(batch.geometry, rows: first + 1).type }
    }

    /// JSON Schema's type, without "null".
    private static func schemaType(_ schema: JSONValue) -> String {
        schema["type"]?.string ?? schema["type"]?.array?.compactMap(\.string).first { $0 != "null" } ?? ""
    }

    /// A "number" with no format: integers are numbers too (tipg 1.6 describes
    /// PostgreSQL integer columns so), so it is no evidence of fractions; the
    /// values decide (`FieldInfo.widensToDouble`).
    private static func isPlainNumber(_ schema: JSONValue) -> Bool {
        schemaType(schema) == "number" && numericFormats[schema["format"]?.string?.lowercased() ?? ""] == nil
    }

    /// Formats that fix a number's type, whatever "integer" or "number" says.
    private static let numericFormats: [String: FieldType] = [
        "int8": .integer, "int16": .integer, "int32": .integer, "int64": .bigInteger, "float": .single, "double": .double,
    ]

    private static func fieldType(_ schema: JSONValue) -> FieldType {
        let type = schemaType(schema)
        if type == "integer" || type == "number", let fixed = numericFormats[schema["format"]?.string?.lowercased() ?? ""] {
            return fixed  // an explicit format wins over the type
        }
        switch type {
        case "integer": return .bigInteger
        case "number": return .bigInteger  // widened by the first fraction (isPlainNumber)
        case "boolean": return .boolean
        case "string":
            switch schema["format"]?.string {
            case "date": return .dateOnly
            case "date-time": return .timestampOffset
            case "uuid": return .guid
            default: return .string
            }
        default: return .string
        }
    }

    private static func geometryType(_ format: String) -> GeometryType {
        let lower = format.lowercased()
        if lower.contains("multipoint") { return .multipoint }
        if lower.contains("point") { return .point }
        if lower.contains("linestring") || lower.contains("curve") { return .polyline }
        if lower.contains("polygon") || lower.contains("surface") { return .polygon }
        return .unknown
    }
}
