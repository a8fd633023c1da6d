// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Reads a whole document of features — a GeoJSON FeatureCollection (RFC 7946)
/// or an Esri JSON FeatureSet (what ArcGIS `query` answers and open-data
/// portals publish) — into one batch and the metadata a table needs, deciding
/// the format from the document's own members, never from the URL or a
/// content type.
package enum FeatureDocumentReader {
    enum Format: Equatable {
        case geoJSON
        case esriJSON
    }

    /// What the top level of a document says before its features are read.
    struct Outline {
        var format: Format?
        /// `type` (GeoJSON: "FeatureCollection").
        var type: String?
        var holdsFeatures = false
        /// Esri JSON: `fields` given, `objectIdFieldName`, `geometryType`, `hasZ`, `hasM`.
        var declaresFields = false
        /// The field `fields` types `esriFieldTypeOID`.
        var objectIdFieldOfFields: String?
        var objectIdFieldName: String?
        var esriGeometryType: String?
        var hasZ = false, hasM = false
        /// GeoJSON 2008's `crs` member (`{"type":"name","properties":{"name":…}}`),
        /// which GDAL and QGIS still write beside RFC 7946's WGS84.
        var namedCRS: String?
    }

    /// The top-level members, each value skipped unless it is one of those read.
    static func outline(_ bytes: UnsafeRawBufferPointer) throws(FeatureCacheError) -> Outline {
        var scanner = JSONScanner(bytes)
        var outline = Outline()
        var sawEsriMember = false
        var firstFeatureHasAttributes: Bool?
        try scanner.beginObject()
        while try scanner.nextKey() {
            if scanner.keyEquals("type") {
                outline.type = try scanner.readStringOrNull()
            } else if scanner.keyEquals("features") {
                outline.holdsFeatures = true
                firstFeatureHasAttributes = try firstFeatureHoldsAttributes(&scanner)
            } else if scanner.keyEquals("objectIdFieldName") {
                sawEsriMember = true
                outline.objectIdFieldName = try scanner.readStringOrNull()
            } else if scanner.keyEquals("geometryType") {
                sawEsriMember = true
                outline.esriGeometryType = try scanner.readStringOrNull()
            } else if scanner.keyEquals("hasZ") {
                outline.hasZ = try scanner.readNull() ? false : try scanner.readBool()
            } else if scanner.keyEquals("hasM") {
                outline.hasM = try scanner.readNull() ? false : try scanner.readBool()
            } else if scanner.keyEquals("crs") {
                outline.namedCRS = try readNamedCRS(&scanner)
            } else {
                if scanner.keyEquals("fields") {
                    outline.declaresFields = scanner.peek() == UInt8(ascii: "[")
                    sawEsriMember = true
                    if outline.declaresFields {
                        outline.objectIdFieldOfFields = try readObjectIdField(&scanner)
                        continue
                    }
                } else if scanner.keyEquals("spatialReference") {
                    sawEsriMember = true
                }
                try scanner.skipValue()
            }
        }
        try scanner.finish()
        if outline.type == "FeatureCollection" {
            outline.format = .geoJSON
        } else if outline.holdsFeatures, outline.type == nil {
            outline.format = sawEsriMember || firstFeatureHasAttributes == true ? .esriJSON : .geoJSON
        }
        return outline
    }

    /// Skips the `features` array, telling whether its first feature has
    /// `attributes` (Esri JSON) rather than `properties` (GeoJSON); nil when empty.
    private static func firstFeatureHoldsAttributes(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> Bool? {
        guard scanner.peek() == UInt8(ascii: "[") else {
            try scanner.skipValue()
            return nil
        }
        try scanner.beginArray()
        var answer: Bool? = nil
        while try scanner.nextElement() {
            if answer == nil, scanner.peek() == UInt8(ascii: "{") {
                answer = false
                try scanner.beginObject()
                while try scanner.nextKey() {
                    if scanner.keyEquals("attributes") { answer = true }
                    try scanner.skipValue()
                }
            } else {
                try scanner.skipValue()
            }
        }
        return answer
    }

    /// Reads the `fields` array, returning the name of the `esriFieldTypeOID` one.
    private static func readObjectIdField(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> String? {
        var found: String? = nil
        try scanner.beginArray()
        while try scanner.nextElement() {
            guard scanner.peek() == UInt8(ascii: "{") else {
                try scanner.skipValue()
                continue
            }
            var name: String? = nil, isObjectId = false
            try scanner.beginObject()
            while try scanner.nextKey() {
                if scanner.keyEquals("name"), scanner.peek() == UInt8(ascii: "\"") {
                    name = try scanner.readString()
                } else if scanner.keyEquals("type"), scanner.peek() == UInt8(ascii: "\"") {
                    isObjectId = try scanner.readString() == "esriFieldTypeOID"
                } else {
                    try scanner.skipValue()
                }
            }
            if isObjectId, found == nil { found = name }
        }
        return found
    }

    /// `crs.properties.name`, or nil.
    private static func readNamedCRS(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> String? {
        guard scanner.peek() == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return nil
        }
        var name: String? = nil
        try scanner.beginObject()
        while try scanner.nextKey() {
            guard scanner.keyEquals("properties"), scanner.peek() == UInt8(ascii: "{") else {
                try scanner.skipValue()
                continue
            }
            try scanner.beginObject()
            while try scanner.nextKey() {
                if scanner.keyEquals("name"), scanner.peek() == UInt8(ascii: "\"") {
                    name = try scanner.readString()
                } else {
                    try scanner.skipValue()
                }
            }
        }
        return name
    }

    /// The document's features as one batch, and what a table learns of them.
    /// - Parameters:
    ///   - name: the table's name (the document's file name).
    ///   - url: the document's address, redacted, for messages.
    package static func read(
        _ body: [UInt8], name: String, url: String,
        identity: FeatureIdentity
    ) throws(FeatureCacheError) -> (batch: FeatureBatch, metadata: TableMetadata) {
        try body.withBytes { (bytes) throws(FeatureCacheError) in
            let outline = try Self.outline(bytes)
            var metadata = TableMetadata(name: name)
            let batch: FeatureBatch
            switch outline.format {
            case .geoJSON:
                let page = try GeoJSONReader.read(bytes, identity: identity)
                // One page of a paged answer (OGC API items, ArcGIS f=geojson): a
                // table of it would silently lack the features of the other pages.
                let matched = page.numberMatched.map { $0 > Int64(page.batch.count) } ?? false
                if page.nextLink != nil || matched || page.exceededTransferLimit {
                    let evidence =
                        page.nextLink != nil
                        ? "a 'next' link"
                        : matched
                            ? "numberMatched \(page.numberMatched!) > \(page.batch.count) features"
                            : "exceededTransferLimit"
                    throw FeatureCacheError(
                        .limit,
                        "\(url) is one page of a larger answer (\(evidence)): open the collection or layer itself, which pages through every feature"
                    )
                }
                batch = page.batch
                metadata.spatialReference = SpatialReference(wkid: try wkid(ofNamedCRS: outline.namedCRS, url: url))
            case .esriJSON:
                // A FeatureSet without `fields` (pages some tools save) is typed from its values.
                let fields = outline.declaresFields ? [] : try EsriAttributeTypes.infer(bytes, objectIdField: outline.objectIdFieldName)
                let objectIdField = outline.objectIdFieldName ?? outline.objectIdFieldOfFields ?? fields.first { $0.type == .oid }?.name
                let page = try EsriJSONReader.read(bytes, fields: fields, objectIdField: objectIdField)
                if page.isServiceError { throw FeatureCacheError(.service, "\(url) is an ArcGIS error body, not a document of features") }
                if page.exceededTransferLimit {
                    // A query answer the server cut short: a table of it would silently lack features.
                    throw FeatureCacheError(
                        .limit,
                        "\(url) is one page of a larger ArcGIS query (exceededTransferLimit): open the layer itself, which pages through every feature"
                    )
                }
                metadata.objectIdField = objectIdField
                // Without an object-id field the features are numbered in document order.
                batch = metadata.objectIdField == nil ? page.batch.numberingRows() : page.batch
                metadata.spatialReference = page.spatialReference
            case nil:
                let found = outline.type.map { "a GeoJSON \($0)" } ?? "JSON without 'features'"
                throw FeatureCacheError.parse(
                    "\(url) is not a document of features (a GeoJSON FeatureCollection or an Esri JSON FeatureSet): it is \(found)")
            }
            metadata.fields = batch.fields
            let summary = GeometrySummary(batch.geometry)
            metadata.geometryType = outline.esriGeometryType.map { GeometryType(esriName: $0) } ?? summary.type
            metadata.hasZ = outline.hasZ || summary.hasZ
            metadata.hasM = outline.hasM || summary.hasM
            if let box = summary.box {
                metadata.extent = Envelope(
                    xmin: box.xmin, ymin: box.ymin, xmax: box.xmax, ymax: box.ymax,
                    spatialReference: metadata.spatialReference)
            }
            // One request brings every feature: no page size to respect.
            metadata.maxRecordCount = max(1, batch.count)
            metadata.maxRecordCountDeclared = false
            return (batch, metadata)
        }
    }

    /// RFC 7946 GeoJSON is WGS84 longitude, latitude; a GeoJSON 2008 `crs`
    /// naming another EPSG system is honoured (as GDAL does), one naming
    /// anything else fails rather than place features wrongly.
    static func wkid(ofNamedCRS name: String?, url: String) throws(FeatureCacheError) -> Int32 {
        guard let name else { return 4326 }
        let lower = name.lowercased()
        if lower.hasSuffix("crs84") || lower.hasSuffix("crs:84") { return 4326 }
        // urn:ogc:def:crs:EPSG::3857, EPSG:3857, http://www.opengis.net/def/crs/EPSG/0/3857
        if lower.contains("epsg"), let digits = lower.split(whereSeparator: { !$0.isNumber }).last,
            let code = Int32(digits), code > 0, !(lower.hasSuffix("/0") || lower.hasSuffix(":0"))
        {
            return code
        }
        throw FeatureCacheError(.unsupported, "\(url) names its coordinate system '\(name)', which is not an EPSG code the library can use")
    }
}

extension FeatureBatch {
    /// The batch with its rows' object ids 1, 2, 3… (for features that carry none).
    func numberingRows() -> FeatureBatch {
        FeatureBatch(
            columns: columns, geometry: geometry, count: count, objectIdColumn: nil,
            objectIds: ColumnBuffer(count: count) { for row in $0.indices { $0[row] = Int64(row) + 1 } },
            geometryTolerance: geometryTolerance,
            isInSpatialOrder: isInSpatialOrder)
    }
}
