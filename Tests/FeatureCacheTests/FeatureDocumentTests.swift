// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Documents of features served whole (the fourth source): what decides the
/// format, the coordinate system and the ids; what fails; and a table opened from
/// the URL alone answering all three request modes from one download.
/// The code of the error `work` throws; nil when it throws none.
private func failure<T>(_ work: () throws -> T) -> FeatureCacheError.Code? {
    do {
        _ = try work()
        return nil
    } catch {
        return (error as? FeatureCacheError)?.code ?? .invalidState
    }
}

@Suite struct FeatureDocumentTests {
    private func read(_ text: String) throws(FeatureCacheError) -> (batch: FeatureBatch, metadata: TableMetadata) {
        try FeatureDocumentReader.read(Array(text.utf8), name: "doc", url: "http://docs.test/doc.json", identity: FeatureIdentity())
    }

    private static let points = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"n":1,"s":"x"}},
          {"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[3,4]},"properties":{"n":2.5,"s":null}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[5,6]},"properties":{"n":3,"s":"z"}}]}
        """

    @Test func aGeoJSONCollectionIsWGS84WithInferredFields() throws {
        let (batch, metadata) = try read(Self.points)
        #expect(batch.count == 3)
        #expect(metadata.spatialReference?.wkid == 4326)
        #expect(metadata.geometryType == .point)
        #expect(metadata.fields.map(\.name) == ["n", "s"])
        #expect(metadata.fields.first?.type == .double)  // 2.5 widened it
        #expect(metadata.extent.map { [$0.xmin, $0.ymin, $0.xmax, $0.ymax] } == [1, 2, 5, 6])
        #expect(Set((0..<3).map(batch.objectId)).count == 3)  // the id-less feature gets its own
    }

    @Test func aNamedCRSIsHonouredAndAnUnknownOneRefused() throws {
        let named = Self.points.replacingAll(
            #""features""#, with: #""crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3857"}},"features""#)
        #expect(try read(named).metadata.spatialReference?.wkid == 3857)
        let crs84 = Self.points.replacingAll(
            #""features""#, with: #""crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},"features""#)
        #expect(try read(crs84).metadata.spatialReference?.wkid == 4326)
        let local = Self.points.replacingAll(
            #""features""#, with: #""crs":{"type":"name","properties":{"name":"LOCAL_CS[\"site\"]"}},"features""#)
        #expect(failure { try read(local) } == .unsupported)
    }

    @Test func mixedGeometriesAreUnknownAndZIsSeen() throws {
        let (_, metadata) = try read(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2,3]},"properties":{}},
              {"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"properties":{}}]}
            """)
        #expect(metadata.geometryType == .unknown)
        #expect(metadata.hasZ)
    }

    @Test func anEsriFeatureSetKeepsItsFieldsReferenceAndIds() throws {
        let (batch, metadata) = try read(
            """
            {"objectIdFieldName":"FID","geometryType":"esriGeometryPoint","spatialReference":{"wkid":102100,"latestWkid":3857},
             "fields":[{"name":"FID","type":"esriFieldTypeOID"},{"name":"NAME","type":"esriFieldTypeString"}],
             "features":[{"attributes":{"FID":7,"NAME":"a"},"geometry":{"x":1,"y":2}},{"attributes":{"FID":9,"NAME":"b"},"geometry":{"x":3,"y":4}}]}
            """)
        #expect(metadata.objectIdField == "FID")
        #expect(metadata.spatialReference?.effectiveWkid == 3857)
        #expect((0..<2).map(batch.objectId) == [7, 9])
    }

    @Test func anEsriFeatureSetWithoutFieldsIsTypedFromItsValues() throws {
        let (batch, metadata) = try read(
            """
            {"geometryType":"esriGeometryPoint","spatialReference":{"wkid":4326},
             "features":[{"attributes":{"OBJECTID":3,"N":1,"BIG":5000000000,"F":1,"T":null},"geometry":{"x":1,"y":2}},
                         {"attributes":{"OBJECTID":4,"N":2,"BIG":1,"F":1.5,"T":"x"},"geometry":{"x":3,"y":4}}]}
            """)
        #expect(metadata.fields.map(\.type) == [.oid, .integer, .bigInteger, .double, .string])
        #expect(metadata.objectIdField == "OBJECTID")
        #expect((0..<2).map(batch.objectId) == [3, 4])
    }

    @Test func featuresWithoutIdsAreNumberedInDocumentOrder() throws {
        let (batch, metadata) = try read(
            """
            {"fields":[{"name":"NAME","type":"esriFieldTypeString"}],
             "features":[{"attributes":{"NAME":"a"}},{"attributes":{"NAME":"b"}},{"attributes":{"NAME":"c"}}]}
            """)
        #expect(metadata.objectIdField == nil)
        #expect((0..<3).map(batch.objectId) == [1, 2, 3])
    }

    @Test func onePageOfALargerAnswerIsRefused() throws {
        let cut = #"{"exceededTransferLimit":true,"fields":[],"features":[]}"#
        #expect(failure { try read(cut) } == .limit)
        let paged = #"{"type":"FeatureCollection","features":[],"links":[{"rel":"next","href":"http://x/items?offset=10"}]}"#
        #expect(failure { try read(paged) } == .limit)
        let counted = #"{"type":"FeatureCollection","numberMatched":5,"features":[]}"#
        #expect(failure { try read(counted) } == .limit)
    }

    @Test func whatIsNotADocumentFailsCleanly() throws {
        #expect(failure { try read(#"{"type":"Feature","geometry":null,"properties":{}}"#) } == .parse)
        #expect(failure { try read(#"{"currentVersion":11}"#) } == .parse)
        // Every truncation of a real document fails with an error, never a crash.
        let whole = Array(Self.points.utf8)
        for end in stride(from: 0, to: whole.count - 1, by: 7) {
            #expect(
                failure { try FeatureDocumentReader.read(Array(whole[..<end]), name: "t", url: "u", identity: FeatureIdentity()) } != nil)
        }
    }

    @Test func aRecordedQueryAnswerReadsAsADocument() throws {
        let bytes = try Fixtures.bytes("arcgis-rest/us-il-cook/page-partial.json")
        let (batch, metadata) = try FeatureDocumentReader.read(bytes, name: "page", url: "u", identity: FeatureIdentity())
        #expect(batch.count == 2)
        #expect(metadata.objectIdField == "OBJECTID")
        #expect(metadata.geometryType == .point)
    }

    // MARK: - A table from the URL alone

    private func documentServer(_ body: String) -> FunctionTransport {
        FunctionTransport { url in
            url.base == "http://docs.test/data/parks.geojson" ? .json(body) : .json("{}", status: 404)
        }
    }

    @Test func openedFromTheURLItAnswersEveryModeFromOneDownload() async throws {
        let transport = documentServer(Self.points)
        let context = ClientContext(transport: transport)
        let table = try await FeatureTable.open(url: "http://docs.test/data/parks.geojson", name: nil, context: context)
        #expect(table.serviceKind == .document)
        #expect(try table.metadata().name == "parks")
        #expect(table.options.isEmpty)
        #expect(transport.log.withLock { $0.count } == 1)

        try table.setRequestMode(.manualCache)
        var query = QueryParameters()
        query.whereClause = "n >= 2"
        #expect(try await table.populate(query, clearCache: true).count == 2)
        #expect(try await table.queryCount(QueryParameters()) == 2)  // the cache holds what was populated

        try table.setRequestMode(.onInteractionNoCache)
        var box = QueryParameters()
        box.geometry = .envelope(Envelope(xmin: 0, ymin: 0, xmax: 3.5, ymax: 4.5, spatialReference: .wgs84))
        box.outFields = ["s"]
        let answered = try await table.query(box)
        #expect(answered.count == 2)
        #expect(answered.fields.map(\.name) == ["s"])
        #expect(try await table.queryExtent(QueryParameters()).map { [$0.xmin, $0.xmax] } == [1, 5])

        try table.setRequestMode(.onInteractionCache)
        try await table.fetchArea(BoundingBox(0, 0, 10, 10), maxPages: nil).batches.forEach { #expect($0.count == 3) }
        #expect(transport.log.withLock { $0.count } == 1)
    }

    @Test func aNameOtherThanTheDocumentsIsTheCallersMistake() async throws {
        let context = ClientContext(transport: documentServer(Self.points))
        do {
            _ = try await FeatureTable.open(url: "http://docs.test/data/parks.geojson", name: "lakes", context: context)
            Issue.record("opened a document under another name")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("is the feature document layer 'parks', not 'lakes'"))
        }
    }

    @Test func twoCopiesTellWhatChangedBetweenThem() throws {
        let identity = FeatureIdentity()
        func copy(_ text: String) throws -> FeatureBatch {
            try FeatureDocumentReader.read(Array(text.utf8), name: "doc", url: "http://docs.test/doc.json", identity: identity).batch
        }
        let old = try copy(Self.points)
        let new = try copy(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":"c","geometry":{"type":"Point","coordinates":[7,8]},"properties":{"n":4,"s":"w"}},
              {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"n":1,"s":"x"}},
              {"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[3,4.5]},"properties":{"n":2.5,"s":null}}]}
            """)
        let changes = SourceChanges(from: old, to: new, generation: "g2")
        // a moved nowhere (reordered only: no change); b moved; c is new; the
        // feature without an id is gone (its number was its place in the old copy).
        let (a, b, c) = (identity.objectId(for: "a"), identity.objectId(for: "b"), identity.objectId(for: "c"))
        #expect(changes.generation == "g2" && !changes.notModified)
        #expect(Set(changes.upserted) == [b, c] && changes.deleted == [old.objectId(2)])
        #expect(!changes.upserted.contains(a))
        #expect(SourceChanges(from: new, to: new, generation: "g2").upserted.isEmpty)
    }

    @Test func aKeptAnswerRoundTripsAndACorruptOneIsSetAside() throws {
        let root = "/tmp/fc-kept-test-\(getpid())"
        defer { _ = system("rm -rf '\(root)'") }
        let cache = try PersistedCache(root: root, identity: "4|http://docs.test/doc.json|wkid=0|where=")
        #expect(cache.readKeptAnswer() == nil)
        let validator = AnswerValidator(url: "http://docs.test/doc.json?f=json", etag: "\"v1\"", lastModified: nil, accept: nil)
        try cache.keep(KeptAnswer(validator: validator, body: Array(Self.points.utf8)))
        let peeked = PersistedCache.peekKeptAnswer(root: root, identity: cache.identity)
        #expect(peeked?.validator == validator && peeked?.body == Array(Self.points.utf8))
        // One byte flipped: not read, set aside by the table that holds the folder.
        var bytes = try #require(try CacheFiles.readRaw(cache.answerPath))
        bytes[bytes.count - 5] ^= 0xFF
        try CacheFiles.replace(cache.answerPath, with: bytes)
        #expect(PersistedCache.peekKeptAnswer(root: root, identity: cache.identity) == nil)
        #expect(CacheFiles.hasFile(in: cache.folder, prefix: "answer.fcc"))
        #expect(cache.readKeptAnswer() == nil)
        #expect(CacheFiles.hasFile(in: cache.folder, prefix: "answer.fcc.corrupt-"))
    }
}
