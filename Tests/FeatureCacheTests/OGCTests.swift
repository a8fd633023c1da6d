// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCOGCAPI
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// An OGC API - Features server by function: 100 points (id i at x = i/100,
/// y = 0.5), pages of `limit` by `offset`, and a misbehaviour to choose.
/// No queryables: the first items give the schema.
final class FakeOGCServer: Sendable {
    enum Fault: Sendable {
        case none, loopingNext, wrongNumberReturned, endsEarly, nextDropsBbox
        /// Pages without numberMatched; `resulttype=hits` answers it (pygeoapi).
        case countsOnlyByHits
        /// Pages without numberMatched; `resulttype=hits` is an unknown parameter.
        case noCounts
        /// Pages by `startIndex` (GeoServer) instead of `offset`.
        case startIndexPaging
    }
    let transport: FunctionTransport

    /// - Parameter delay: how long each answer waits (none by default).
    init(fault: Fault, delay: (@Sendable (RequestURL) -> Duration)? = nil) {
        transport = FunctionTransport(delay: delay) { url in
            let path = url.base.replacingAll("http://ogc.test/api", with: "")
            switch path {
            case "":
                return .json(
                    #"{"title":"Fake","links":[{"rel":"conformance","href":"http://ogc.test/api/conformance"},{"rel":"data","href":"http://ogc.test/api/collections"}]}"#
                )
            case "/conformance": return .json(#"{"conformsTo":["http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core"]}"#)
            case "/collections": return .json(#"{"collections":[{"id":"points","title":"Points"}],"links":[]}"#)
            case "/collections/points":
                return .json(#"{"id":"points","title":"Points","extent":{"spatial":{"bbox":[[0,0,1,1]]}},"links":[]}"#)
            case "/collections/points/items": break
            default: return .json(#"{"code":"NotFound","description":"no such thing"}"#, status: 404)
            }
            // The faults show on unfiltered requests (a bbox query behaves, for a cache to keep).
            let fault = url.value(of: "bbox") == nil || fault == .nextDropsBbox ? fault : .none
            let limit = Int(url.value(of: "limit") ?? "10")!
            let position = fault == .startIndexPaging ? "startIndex" : "offset"
            let offset = Int(url.value(of: position) ?? "0")!
            let box = url.value(of: "bbox").map { $0.split(separator: ",").map { Double($0)! } } ?? [-1, -1, 2, 2]
            let matching = (1...100).filter { Double($0) / 100 >= box[0] && Double($0) / 100 <= box[2] }
            let page = Array(matching.dropFirst(offset).prefix(limit))
            let features = page.map {
                #"{"type":"Feature","id":\#($0),"geometry":{"type":"Point","coordinates":[\#(Double($0) / 100),0.5]},"properties":{"n":\#($0)}}"#
            }
            var next = ""
            if offset + page.count < matching.count || fault == .loopingNext {
                var link = RequestURL(
                    base: url.base, parameters: [("limit", String(limit)), (position, String(fault == .loopingNext ? 0 : offset + limit))])
                if fault != .nextDropsBbox, let bbox = url.value(of: "bbox") { link.set("bbox", bbox) }
                next = #",{"rel":"next","href":"\#(link.string)"}"#
            }
            let returned = fault == .wrongNumberReturned ? page.count + 1 : page.count
            let matched = fault == .endsEarly ? matching.count + 50 : matching.count
            if fault == .endsEarly, offset + page.count >= matching.count { next = "" }
            if fault == .countsOnlyByHits, url.value(of: "resulttype") == "hits" {
                return .json(#"{"type":"FeatureCollection","numberMatched":\#(matched),"features":[],"links":[]}"#)
            }
            let counts = fault == .countsOnlyByHits || fault == .noCounts ? "" : #""numberMatched":\#(matched),"#
            return .json(
                #"{"type":"FeatureCollection",\#(counts)"numberReturned":\#(returned),"features":[\#(features.joined(separator: ","))],"links":[{"rel":"self","href":"x"}\#(next)]}"#
            )
        }
    }

    func table(pageSize: Int = 0) async throws -> FeatureTable {
        let table = try FeatureTable.ogc(
            apiURL: "http://ogc.test/api", collectionId: "points",
            context: ClientContext(transport: transport))
        try table.setRequestMode(.manualCache)
        if pageSize > 0 { try table.setPageSize(pageSize) }
        try await table.load()
        return table
    }
}

private func box(_ xmin: Double, _ xmax: Double) -> QueryParameters {
    var query = QueryParameters()
    query.geometry = .envelope(Envelope(xmin: xmin, ymin: 0, xmax: xmax, ymax: 1, spatialReference: SpatialReference(wkid: 4326)))
    return query
}

@Suite struct OGCPagingTests {
    @Test func pagesFollowNextLinksAndFilterLocally() async throws {
        let server = FakeOGCServer(fault: .none)
        let table = try await server.table(pageSize: 7)
        #expect(try table.metadata().fields.map(\.name) == ["n"])  // from the first items: no queryables
        #expect(try table.metadata().geometryType == .point)
        var query = box(0.105, 0.495)
        query.whereClause = "n <> 20"
        let result = try await table.populate(query, clearCache: true)
        #expect(result.count == 38)  // 11...49 without 20
        #expect(table.statisticsSnapshot.nextLinksRepaired == 0)
    }

    @Test func aNextLinkThatDropsTheBboxIsRepaired() async throws {
        let server = FakeOGCServer(fault: .nextDropsBbox)
        let table = try await server.table(pageSize: 5)
        let result = try await table.populate(box(0.105, 0.495), clearCache: true)
        #expect(result.count == 39)
        #expect(table.statisticsSnapshot.nextLinksRepaired == 1)
        #expect(table.statisticsSnapshot.featuresReceived == 39)  // never the whole collection
    }

    @Test func misbehavingPagesFailAndLeaveTheCacheAsItWas() async throws {
        for fault in [FakeOGCServer.Fault.loopingNext, .wrongNumberReturned, .endsEarly] {
            let server = FakeOGCServer(fault: fault)
            let table = try await server.table(pageSize: 10)
            let before = try await table.populate(box(0.0, 0.055), clearCache: true)
            #expect(before.count == 5)
            await #expect(throws: FeatureCacheError.self) { try await table.populate(QueryParameters(), clearCache: true) }
            #expect(table.cachedFeatureCount == 5, "\(fault)")
        }
    }

    @Test func maxFeaturesStopsPagingAndSaysMoreExist() async throws {
        let table = try await FakeOGCServer(fault: .none).table(pageSize: 8)
        var query = QueryParameters()
        query.maxFeatures = 20
        let result = try await table.populate(query, clearCache: true)
        #expect(result.count == 20 && result.limitExceeded)
        #expect(table.statisticsSnapshot.requests == 2 + 3)  // collection and a sample to load; 3 pages
    }
}

@Suite struct OGCPartsTests {
    @Test func crsIdentifiers() {
        #expect(CRSURI.wkid(of: "http://www.opengis.net/def/crs/OGC/1.3/CRS84") == 4326)
        #expect(CRSURI.wkid(of: "http://www.opengis.net/def/crs/EPSG/0/3857") == 3857)
        #expect(CRSURI.wkid(of: "urn:ogc:def:crs:EPSG::2913") == 2913)
        #expect(CRSURI.wkid(of: "<http://www.opengis.net/def/crs/EPSG/0/4326>") == 4326)
        #expect(CRSURI.isLatLon4326("http://www.opengis.net/def/crs/EPSG/0/4326"))
        #expect(!CRSURI.isLatLon4326(CRSURI.crs84))
        #expect(CRSURI.uri(for: 4326) == CRSURI.crs84)
    }

    @Test func linksResolveRelativeHrefs() throws {
        let base = try RequestURL(parsing: "http://h:1/a/b/items?f=json")
        #expect(try URLReference.resolve("http://x/y", against: base.string).string == "http://x/y")
        #expect(try URLReference.resolve("/c/d?offset=1", against: base.string).string == "http://h:1/c/d?offset=1")
        #expect(try URLReference.resolve("items?offset=1", against: base.string).string == "http://h:1/a/b/items?offset=1")
        #expect(try URLReference.resolve("//x:2/y", against: base.string).string == "http://x:2/y")
        for bad in ["ftp://h/x", "javascript:alert(1)", "file:///etc/passwd", "http://h/a b"] {
            #expect {
                _ = try URLReference.resolve(bad, against: base.string)
            } throws: { ($0 as! FeatureCacheError).code == .protocol }
        }
    }

    @Test func openAPIItemsLimitMaximumAndPropertyParameters() throws {
        let document = try JSONValue.parse(
            Array(
                #"""
                {"components":{"parameters":{"limit":{"name":"limit","in":"query","schema":{"maximum":500}},
                                             "bbox":{"name":"bbox","in":"query"}}},
                 "paths":{"/collections/a/items":{"get":{"parameters":[{"name":"limit","in":"query","schema":{"maximum":10000}},
                                                                       {"name":"Condition","in":"query"},{"name":"Species","in":"query"},
                                                                       {"name":"properties","in":"query"},{"name":"X-Key","in":"header"}]}},
                          "/api/v1/collections/b/items":{"get":{"parameters":[{"$ref":"#/components/parameters/limit"},
                                                                       {"$ref":"#/components/parameters/bbox"}]}}}}
                """#.utf8))
        let items = OpenAPIItems(document)
        #expect(items.limitMaximum == ["": 500, "a": 10000, "b": 500])
        // Standard parameters and headers are no properties; b lists none.
        #expect(items.propertyParameters == ["a": ["Condition", "Species"]])
    }

    /// A POST on items is create only when a GeoJSON feature goes in or 201
    /// comes out: a CQL2 search by POST (a JSON body, answering 200) is not.
    @Test func openAPIItemsPostIsCreateOnlyWhenItSaysSo() throws {
        let document = try JSONValue.parse(
            Array(
                #"""
                {"components":{"requestBodies":{"feature":{"content":{"application/geo+json":{"schema":{}}}}}},
                 "paths":{"/collections/search/items":{"post":{"requestBody":{"content":{"application/json":{"schema":{}}}},
                                                               "responses":{"200":{"description":"features"}}}},
                          "/collections/geojson/items":{"post":{"requestBody":{"content":{"application/geo+json":{"schema":{}}}},
                                                                "responses":{"200":{"description":"?"}}}},
                          "/collections/created/items":{"post":{"responses":{"201":{"description":"created"}}}},
                          "/collections/byref/items":{"post":{"requestBody":{"$ref":"#/components/requestBodies/feature"},
                                                              "responses":{"200":{"description":"?"}}}}}}
                """#.utf8))
        let items = OpenAPIItems(document)
        #expect(items.editMethods["search"] == nil)
        #expect(items.editMethods["geojson"] == ["post"])
        #expect(items.editMethods["created"] == ["post"])
        #expect(items.editMethods["byref"] == ["post"])
    }

    @Test func linksChooseTheMediaTypeAsked() throws {
        let base = try RequestURL(parsing: "http://h/c/trees")
        let links = OGCLinks(
            try JSONValue.parse(
                Array(
                    #"""
                    [{"rel":"items","type":"text/html","href":"items.html"},
                     {"rel":"items","type":"application/ld+json","href":"items?f=jsonld"},
                     {"rel":"items","type":"application/geo+json","href":"http://h/c/trees/items.json"},
                     {"rel":"http://www.opengis.net/def/rel/ogc/1.0/queryables","type":"application/schema+json","href":"q"},
                     {"rel":"service-desc","type":"application/vnd.oai.openapi+json;version=3.0","href":"/api"},
                     {"rel":"data","href":"/collections"}]
                    """#.utf8)), base: base)
        #expect(links.features("items")?.url.string == "http://h/c/trees/items.json")
        #expect(links.link("queryables", types: ["application/schema+json"])?.url.string == "http://h/c/q")
        let openAPI = try #require(links.link("service-desc", types: [], requireJSON: true))
        #expect(openAPI.url.string == "http://h/api")
        #expect(OGCRequester.acceptDocument(openAPI.type) == "application/vnd.oai.openapi+json;version=3.0, application/json;q=0.9")
        #expect(links.document("data")?.url.string == "http://h/collections")  // untyped: taken when nothing better
        #expect(OGCRequester.acceptDocument("") == "application/json")
        #expect(links.features("data") == nil)  // features need a JSON type
    }

    @Test func stringIdsThatAreNumbersKeepTheirValue() {
        let identity = FeatureIdentity()
        #expect(identity.objectId(for: "17") == 17)
        #expect(identity.objectId(for: "017") != 17)
        let text = identity.objectId(for: "tree.a")
        #expect(text == identity.objectId(for: "tree.a") && text > 1 << 52)
        #expect(identity.serviceId(for: text) == "tree.a")
        #expect(identity.serviceId(for: 17) == "17")
    }

    @Test func selectingRowsAndMovingCoordinates() throws {
        let json =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{"s":"a","d":1.5}},{"type":"Feature","id":2,"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]},"properties":{"s":null,"d":2.5}},{"type":"Feature","id":3,"geometry":null,"properties":{"s":"c"}}]}"#
        let batch = try Array(json.utf8).withUnsafeBytes { bytes in try GeoJSONReader.read(bytes, identity: FeatureIdentity()).batch }
        let picked = batch.selecting([1, 2])
        #expect(picked.count == 2 && picked.objectId(0) == 2 && picked.objectId(1) == 3)
        let s = picked.columnIndex(named: "s")!
        #expect(picked.columns[s].isNull(0) && picked.columns[s].string(1) == "c")
        let pickedBox = picked.geometry.box(0)
        #expect(pickedBox.xmin == 0 && pickedBox.ymax == 1 && picked.geometry.wkb(1).isEmpty)
        let moved = batch.mappingCoordinates(CoordinateTransform(formula: { x, y in (x * 10, y + 1) }, label: "scaled"))
        let point = moved.geometry.box(0), square = moved.geometry.box(1)
        #expect(point.xmin == 10 && point.ymin == 3)
        #expect(square.xmin == 0 && square.ymin == 1 && square.xmax == 10 && square.ymax == 2)
        let ring: [Geometry.XY] = [.init(0, 1), .init(10, 1), .init(10, 2), .init(0, 1)]
        let polygon = try WKBReader.parse(moved.geometry.wkb(1))
        #expect(polygon == Geometry.polygon([ring]))
    }
}

/// Issue 31: a site whose canonical URLs end with a slash (Django's
/// APPEND_SLASH) answers `/path` with a 301 to `/path/`. The landing page and
/// the collections are loaded there, and their relative links resolve against
/// where the redirects settled, not the URL asked for; the service keeps the
/// URL as given.
@Suite struct OGCTrailingSlashTests {
    @Test func relativeLinksResolveWhereRedirectsSettled() async throws {
        let transport = FunctionTransport { url in
            func moved(_ location: String) -> HTTPResponse { HTTPResponse(status: 301, headers: [("Location", location)], body: []) }
            switch url.base {
            case "http://ogc.test/site/api": return moved("/site/api/?f=json")
            case "http://ogc.test/site/api/":
                return .json(#"{"links":[{"rel":"conformance","href":"conformance"},{"rel":"data","href":"collections"}]}"#)
            case "http://ogc.test/site/api/conformance":
                return .json(#"{"conformsTo":["http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core"]}"#)
            case "http://ogc.test/site/api/collections": return moved("collections/")
            case "http://ogc.test/site/api/collections/" where url.value(of: "page") == "2":
                return .json(#"{"collections":[{"id":"lines"}],"links":[]}"#)
            case "http://ogc.test/site/api/collections/":
                return .json(#"{"collections":[{"id":"points"}],"links":[{"rel":"next","href":"?page=2"}]}"#)
            default: return .json(#"{"code":"NotFound"}"#, status: 404)
            }
        }
        let service = try OGCService(url: "http://ogc.test/site/api", context: ClientContext(transport: transport))
        try await service.load()
        #expect(try service.collections().map(\.id) == ["points", "lines"])
        #expect(service.url == "http://ogc.test/site/api")
    }
}
