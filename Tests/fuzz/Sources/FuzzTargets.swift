// SPDX-License-Identifier: Apache-2.0
import FeatureCache

/// What each fuzz target feeds the library: every reader a server's bytes
/// reach (with and without a schema; PBF answers of every kind), the whole read → store → index → query →
/// GeoJSON path, the WFS documents loading reads, whole documents of features
/// (GeoJSON or Esri JSON, as the bytes say), JSON values and the metadata
/// documents made of them, where clauses
/// (parse, evaluate, translate) as callers write them, and the WKT a layer gives
/// for its spatial reference (through PROJ), and what editing reads: a
/// caller's WKB, and the services' answers to edits (ArcGIS applyEdits, WFS-T),
/// and a persisted cache's files as a disk may hold them (`cachefile`), and the
/// response headers the transport reads (freshness, Retry-After, redirects: `http`).
enum FuzzTarget: String, CaseIterable {
    case esrijson, geojson, gml, pbf, pipeline, wfs, document, json, `where`, crs, edits, cachefile, http

    func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .esrijson:
            // As for GeoJSON: templates give what member by member gives.
            for (fields, objectIdField) in [(Schema.fields, "OBJECTID"), ([], nil)] {
                let templated = Result { () throws(FeatureCacheError) in
                    try EsriJSONReader.read(bytes, fields: fields, objectIdField: objectIdField)
                }
                let direct = Result { () throws(FeatureCacheError) in
                    try EsriJSONReader.read(bytes, fields: fields, objectIdField: objectIdField, learnsTemplates: false)
                }
                switch (templated, direct) {
                case let (.success(a), .success(b)) where sameBatch(a.batch, b.batch): break
                case let (.failure(a), .failure(b)) where a.message == b.message: break
                default: fatalError("Esri JSON read with templates differs from member by member: \(templated) / \(direct)")
                }
            }
        case .geojson:
            // Features read through a template of an earlier one's bytes must
            // give what reading member by member gives, or the same error.
            for fields in [[], Schema.fields] {
                let templated = Result { () throws(FeatureCacheError) in
                    try GeoJSONReader.read(bytes, fields: fields, identity: FeatureIdentity())
                }
                let direct = Result { () throws(FeatureCacheError) in
                    try GeoJSONReader.read(bytes, fields: fields, identity: FeatureIdentity(), learnsTemplates: false)
                }
                switch (templated, direct) {
                case let (.success(a), .success(b)) where sameBatch(a.batch, b.batch): break
                case let (.failure(a), .failure(b)) where a.message == b.message: break
                default: fatalError("GeoJSON read with templates differs from member by member: \(templated) / \(direct)")
                }
            }
        case .gml:
            for swap in [false, true] {
                _ = try? GMLReader.read(bytes, fields: Schema.fields, geometryProperty: "geom", identity: FeatureIdentity(), swapAxes: swap)
            }
            let whole = try? GMLReader.read(bytes, fields: [], geometryProperty: nil, identity: FeatureIdentity(), swapAxes: false)
            // Read as it arrives, in chunks of 1 to 16 bytes: a page when the
            // whole document gives one, and the same page.
            let chunked = try? streamed(bytes, chunk: 1 + (bytes.first.map(Int.init) ?? 0) % 16)
            if let whole, let chunked, !samePage(whole, chunked) {
                fatalError("GML read in chunks differs from the whole document")
            }
        case .crs:
            // A layer's WKT: described, related to WGS84 both ways, a point and a box projected.
            let layer = SpatialReference(wkid: 0, wkt: String(decoding: bytes, as: UTF8.self))
            _ = try? Projection.describe(layer)
            if let transform = try? Projection.transform(from: layer, to: .wgs84) {
                _ = transform(500_000, 5_000_000)
                _ = try? Envelope(xmin: 0, ymin: 0, xmax: 1000, ymax: 1000, spatialReference: layer).projected(to: SpatialReference.wgs84)
            }
            _ = try? Projection.transform(from: .wgs84, to: layer)?(7.1, 50.7)
        case .pbf:
            _ = try? EsriPBFReader.read(bytes, fields: Schema.fields, objectIdField: "OBJECTID")
            _ = try? EsriPBFReader.read(bytes, fields: [], objectIdField: nil)
            _ = try? EsriPBFReader.readCount(bytes)
            _ = try? EsriPBFReader.readObjectIds(bytes)
            _ = try? EsriPBFReader.readExtent(bytes)
        case .edits:
            fuzzEdits(bytes)
        case .cachefile:
            fuzzCacheFile(bytes)
        case .http:
            fuzzHTTPHeaders(bytes)
        case .pipeline:
            pipeline(bytes)
        case .wfs:
            let array = Array(bytes)
            _ = try? WFSCapabilities.parse(array)
            _ = try? WFSSchema.parse(array, typeName: "ms:t")
        case .document:
            // The format decided from the members, a FeatureSet without fields
            // typed from its values, the metadata summed up from the rows.
            _ = try? FeatureDocumentReader.read(Array(bytes), name: "fuzz", url: "fuzz", identity: FeatureIdentity())
        case .json:
            fuzzMetadataDocument(bytes)
        case .where:
            whereClause(String(decoding: bytes, as: UTF8.self))
        }
    }

    private func streamed(_ bytes: UnsafeRawBufferPointer, chunk: Int) throws(FeatureCacheError) -> GMLPage {
        let stream = try GMLReader.Stream(fields: [], geometryProperty: nil, identity: FeatureIdentity(), swapAxes: false)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try stream.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
        return try stream.finish()
    }

    private func samePage(_ a: GMLPage, _ b: GMLPage) -> Bool {
        guard a.batch.count == b.batch.count else { return false }
        return (0..<a.batch.count).allSatisfy { row in
            a.batch.objectId(row) == b.batch.objectId(row) && a.batch.geometry.wkb(row).elementsEqual(b.batch.geometry.wkb(row))
        }
    }

    /// Whether two batches hold the same rows: ids, geometry, fields and every cell.
    private func sameBatch(_ a: FeatureBatch, _ b: FeatureBatch) -> Bool {
        guard a.count == b.count, a.fields == b.fields else { return false }
        for row in 0..<a.count where a.objectId(row) != b.objectId(row) || !a.geometry.wkb(row).elementsEqual(b.geometry.wkb(row)) {
            return false
        }
        for (x, y) in zip(a.columns, b.columns) {
            guard x.kind == y.kind else { return false }
            for row in 0..<a.count {
                guard x.isNull(row) == y.isNull(row) else { return false }
                if x.isNull(row) { continue }
                switch x.kind {
                case .string: guard x.stringBytes(row).elementsEqual(y.stringBytes(row)) else { return false }
                case .double: guard x.double(row).bitPattern == y.double(row).bitPattern else { return false }
                case .int64, .boolean: guard x.int64(row) == y.int64(row) else { return false }
                }
            }
        }
        return true
    }

    /// Reads a page (Esri JSON or GeoJSON, as the bytes say), caches it, and
    /// answers a box query and a where query from the cache as GeoJSON.
    private func pipeline(_ bytes: UnsafeRawBufferPointer) {
        let batch: FeatureBatch
        if let page = try? EsriJSONReader.read(bytes, fields: Schema.fields, objectIdField: "OBJECTID") {
            batch = page.batch
        } else if let page = try? GeoJSONReader.read(bytes, fields: Schema.fields, identity: FeatureIdentity()) {
            batch = page.batch
        } else {
            return
        }
        let store = FeatureStore()
        store.apply([batch, batch], clearingFirst: false)
        var box = QueryParameters()
        box.geometry = .envelope(Envelope(xmin: -10, ymin: -10, xmax: 10, ymax: 10))
        box.spatialRelationship = .intersects
        var filtered = QueryParameters()
        filtered.whereClause = "Name LIKE 'a%' OR Value > 2"
        filtered.orderBy = "Value DESC"
        filtered.resultOffset = 1
        filtered.maxFeatures = Int(Int64.max)
        for query in [box, filtered] {
            guard let local = try? LocalQuery(query, definitionExpression: "", fields: batch.fields, tableWkid: 4326),
                let result = try? local.run(store.queryableSnapshot(), spatialReference: nil)
            else { continue }
            _ = result.geoJSON()
        }
    }

    /// Parses a clause, evaluates it over the fixed rows, translates it for servers.
    private func whereClause(_ text: String) {
        guard let expression = try? WhereParser.parse(text) else { return }
        _ = try? WhereEvaluator(expression, now: 0).select(Schema.rows)
        _ = CQL2Text.translate(expression)
        _ = CQL2JSON.translate(expression)
        _ = FESFilter.translate(expression, version: .fes20)
        _ = FESFilter.translate(expression, version: .filter11)
        _ = FESFilter.translate(expression, version: .filter10)
        _ = WherePushdown(expression) { CQL2Text.translate($0) != nil }
    }
}

/// The schema and rows the targets use.
/// A caller's WKB read for an edit must write back as the same geometry; an
/// answer to edits (ArcGIS applyEdits JSON, a WFS TransactionResponse) gives one
/// outcome per edit it carried, whatever it holds.
private func fuzzEdits(_ bytes: UnsafeRawBufferPointer) {
    if let geometry = try? VertexGeometry(wkb: bytes) {
        let bits = { (paths: [[Double]]) in paths.map { $0.map(\.bitPattern) } }  // NaN M values compare too
        guard let again = try? VertexGeometry(wkb: geometry.wkb), again.type == geometry.type, again.layout == geometry.layout,
            bits(again.paths) == bits(geometry.paths), again.polygonStarts == geometry.polygonStarts
        else { fatalError("WKB read for an edit does not write back as the same geometry") }
    }
    let kinds: [EditKind] = [.add, .update, .delete]
    var metadata = TableMetadata(name: "t")
    metadata.fields = Schema.fields
    metadata.objectIdField = "OBJECTID"
    metadata.globalIdField = "GlobalID"
    let edits = kinds.enumerated().map { index, kind in
        var edit = LocalEdit(objectId: kind == .add ? -1 : Int64(index + 1), kind: kind)
        edit.globalId = kind == .add ? "{6B1D2C3E-0000-4000-8000-00000000000\(index)}" : nil
        edit.current = try? EditedRow.make(
            values: metadata.fields.map { _ in .null }, geometry: nil, box: nil, objectId: edit.objectId, metadata: metadata)
        return edit
    }
    if let json = try? JSONValue.parse(Array(bytes)) {
        for useGlobalIds in [false, true] {
            let outcomes = ArcGISEditAnswer.outcomes(
                of: json, adds: [edits[0]], updates: [edits[1]], deletes: [edits[2]], useGlobalIds: useGlobalIds, rolledBack: false,
                metadata: metadata)
            guard outcomes.count == 3 else { fatalError("an applyEdits answer gave \(outcomes.count) outcomes for 3 edits") }
        }
    }
    var schema = WFSSchema()
    schema.targetNamespace = "http://example.org"
    for version in [WFSVersion.v100, .v200] {
        let transaction = WFSTransaction(tableVersion: version, typeName: "ft:t", schema: schema, metadata: metadata)
        if let outcomes = try? transaction.outcomes(of: edits, answer: Array(bytes), status: 200, identity: FeatureIdentity()),
            outcomes.count != edits.count
        {
            fatalError("a Transaction answer gave \(outcomes.count) outcomes for \(edits.count) edits")
        }
    }
}

enum Schema {
    static let fields = [
        FieldInfo(name: "OBJECTID", type: .oid), FieldInfo(name: "Name", type: .string),
        FieldInfo(name: "Value", type: .double), FieldInfo(name: "Count", type: .integer),
        FieldInfo(name: "Day", type: .date),
    ]

    static let rows: FeatureBatch = {
        let json = """
            {"features":[{"attributes":{"OBJECTID":1,"Name":"ash","Value":1.5,"Count":3,"Day":86400000},"geometry":{"x":1,"y":2}},
            {"attributes":{"OBJECTID":2,"Name":null,"Value":-2,"Count":null,"Day":null},"geometry":{"x":-3,"y":4}},
            {"attributes":{"OBJECTID":3,"Name":"Élan","Value":1e300,"Count":-7,"Day":0},"geometry":null}]}
            """
        return try! Array(json.utf8).withUnsafeBytes { bytes in
            try EsriJSONReader.read(bytes, fields: fields, objectIdField: "OBJECTID").batch
        }
    }()
}

/// A features file's content (past its header, whose checksum a fuzzer cannot
/// forge), an edit journal's and a populate journal's records: read, they fail or give a cache that
/// stores, queries and writes back to the same content.
func fuzzCacheFile(_ bytes: UnsafeRawBufferPointer) {
    _ = try? CacheFiles.check(Array(bytes), kind: .features, path: "fuzz")
    // As a table reads it: the batches borrow their buffers from the bytes.
    let image = FrozenBytes(Array(bytes))
    // Both layouts the reader knows: this format's, and format 1's metadata.
    let decoded = Result { () throws(FeatureCacheError) in
        try PersistedCache.decode(image[0..<image.count], path: "fuzz", within: image)
    }
    _ = try? PersistedCache.decode(image[0..<image.count], version: 1, path: "fuzz", within: image)
    if case let .success(snapshot) = decoded {
        let store = FeatureStore()
        store.restore(snapshot.entries)
        var box = BoundingBox()
        box.add(-1e300, -1e300)
        box.add(1e300, 1e300)
        let snapshotOfStore = store.queryableSnapshot()
        _ = snapshotOfStore.index.search(box)
        let again = PersistedCache.encode(snapshot)
        let reread = again.withUnsafeBytes { try? PersistedCache.decode($0, path: "fuzz") }
        guard let reread, reread.entries.count == snapshot.entries.count else { fatalError("a features file read back differs") }
    }
    var reader = BinaryReader(bytes, what: "fuzz")
    _ = try? LocalEdit.read(from: &reader)
    _ = EditJournal.replayed(bytes, path: "fuzz")
    _ = PopulateJournal.pages(in: Array(bytes), as: EsriQueryPage.self)
    _ = PopulateJournal.pages(in: Array(bytes), as: GeoJSONPage.self)
}

/// Response headers as a server may send them (one "Name: value" a line; the
/// first line a status): how long the answer stays fresh, when to retry, where
/// a redirect leads, and every value as a URL. None may crash; freshness never
/// ends before the answer came; a redirect never leads from https to http, nor
/// takes the caller's credentials to another origin; a token is never shown.
func fuzzHTTPHeaders(_ bytes: UnsafeRawBufferPointer) {
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    var headers: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
    }
    let receivedAt: Int64 = 1_790_000_000_000
    if let until = HTTPFreshness.freshUntil(headers, receivedAt: receivedAt), until < receivedAt {
        fatalError("an answer fresh until \(until), before it came (\(receivedAt))")
    }
    for (_, value) in headers {
        if let wait = RetryPolicy.retryAfter(value, now: receivedAt), !(wait >= 0 && wait.isFinite) {
            fatalError("Retry-After \(value) read as a wait of \(wait) s")
        }
        _ = HTTPDate.deltaSeconds(value)
        _ = HTTPDate.epochMilliseconds(value)
        // Any value as a URL a server hands over (a Location, a next link):
        // parsed, resolved, written back and redacted for a message.
        let secret = "s3cret-fuzz"
        if !value.contains(secret), let url = try? RequestURL(parsing: value) {
            var again = url
            again.parameters.append((name: "token", value: secret))
            if RequestURL.redacted(again.string).contains(secret) { fatalError("a token shown in \(again.string)") }
        }
        _ = try? URLReference.resolve(value, against: "https://a.example/x/y?f=json")
        _ = Origin(value)
        _ = RequestURL.decodeQuery(value)
    }
    let status = lines.first.flatMap { Int($0.prefix(3)) } ?? 302
    for start in ["https://a.example/x/y?token=t", "http://a.example/x/y"] {
        var request = HTTPRequest(url: start)
        request.headers = [(name: "X-Esri-Authorization", value: "Bearer secret")]
        guard let next = try? Redirect.next(after: request, HTTPResponse(status: status, headers: headers, body: [])) else { continue }
        if start.hasPrefix("https:"), Origin(next.url)?.scheme == "http" { fatalError("a redirect from https to http: \(next.url)") }
        let trusted = Origin(next.url).map { $0.mayReceiveCredentials(meantFor: Origin(start)!) } ?? false
        if !trusted, next.headers.contains(where: { $0.value.contains("secret") }) {
            fatalError("credentials taken to another origin: \(next.url)")
        }
    }
}

/// A JSON document as a server's metadata: parsed, then read as each metadata
/// document it could be (an ArcGIS service or layer, an OGC API collection,
/// its links, an OpenAPI definition). Errors are expected; crashes are findings.
func fuzzMetadataDocument(_ bytes: UnsafeRawBufferPointer) {
    guard let json = try? JSONValue.parse(Array(bytes)) else { return }
    let url = "https://h.example/arcgis/rest/services/S/FeatureServer"
    _ = try? ArcGISService.parse(json, url: url)
    _ = try? ArcGISLayerInfo.parse(json, url: url + "/0")
    let base = try! RequestURL(parsing: "https://h.example/ogc/collections/c")
    if var collection = try? OGCCollectionInfo.parse(json, id: "c", url: base, limit: 1000) {
        _ = collection.applyQueryables(json)  // a collection and its queryables alike
    }
    _ = OGCRequester.exception(json)
    _ = ArcGISResponse.serviceError(json)
    let links = OGCLinks(json["links"], base: base)
    for rel in ["next", "items", "self", "data", "conformance", "service-desc"] {
        _ = links.link(rel, types: ["application/geo+json", "application/json"])
    }
    _ = OpenAPIItems(json)
}
