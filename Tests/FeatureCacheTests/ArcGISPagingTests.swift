// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// A server written as a function of the request: the paging cases real servers
/// produce that the emulator does not (ignored record counts, short pages,
/// capped object-id answers, empty pages that claim more).
/// With `delay`, each answer waits (cancellably) as long as it says, and the
/// most requests waiting at once are recorded.
final class FunctionTransport: Transport {
    let respond: @Sendable (RequestURL) -> HTTPResponse
    let delay: (@Sendable (RequestURL) -> Duration)?
    let log = Locked<[RequestURL]>([])
    private let inFlight = Locked((now: 0, most: 0))

    init(delay: (@Sendable (RequestURL) -> Duration)? = nil, _ respond: @escaping @Sendable (RequestURL) -> HTTPResponse) {
        self.respond = respond
        self.delay = delay
    }

    func send(_ request: HTTPRequest) async throws(FeatureCacheError) -> HTTPResponse {
        var url = try RequestURL(parsing: request.url)
        if let body = request.body { url.parameters += RequestURL.decodeQuery(String(decoding: body, as: UTF8.self)) }
        log.withLock { $0.append(url) }
        if let delay {
            inFlight.withLock {
                $0.now += 1; $0.most = max($0.most, $0.now)
            }
            defer { inFlight.withLock { $0.now -= 1 } }
            do { try await Task.sleep(for: delay(url)) } catch { throw .cancelled }
        }
        return respond(url)
    }

    /// The most requests answered at once, and those being answered now (with a delay).
    var mostInFlight: Int { inFlight.withLock { $0.most } }
    var inFlightNow: Int { inFlight.withLock { $0.now } }

    /// Feature queries (pages), not counts.
    var queries: [RequestURL] { log.withLock { $0 }.filter { $0.base.hasSuffix("/query") && $0.value(of: "returnCountOnly") == nil } }
    var counts: Int { log.withLock { $0 }.filter { $0.value(of: "returnCountOnly") == "true" }.count }
}

func layer(pagination: Bool, maxRecordCount: Int = 100) -> String {
    """
    {"name":"T","type":"Feature Layer","geometryType":"esriGeometryPoint","objectIdField":"OBJECTID",
     "extent":{"xmin":0,"ymin":0,"xmax":1,"ymax":1,"spatialReference":{"wkid":4326}},
     "fields":[{"name":"OBJECTID","type":"esriFieldTypeOID"},{"name":"Name","type":"esriFieldTypeString"}],
     "maxRecordCount":\(maxRecordCount),"advancedQueryCapabilities":{"supportsPagination":\(pagination)}}
    """
}

func page(_ ids: some Sequence<Int>, exceeded: Bool) -> HTTPResponse {
    let features = ids.map { #"{"attributes":{"OBJECTID":\#($0),"Name":"n\#($0)"},"geometry":{"x":\#($0),"y":0}}"# }
    return .json(
        #"{"objectIdFieldName":"OBJECTID","features":[\#(features.joined(separator: ","))]\#(exceeded ? #","exceededTransferLimit":true"# : "")}"#
    )
}

/// A server of `total` features that answers each page with `served(offset, asked)` ids.
private func offsetServer(total: Int, pagination: Bool = true, served: @escaping @Sendable (Int, Int) -> Int) -> FunctionTransport {
    FunctionTransport { url in
        guard url.base.hasSuffix("/query") else { return .json(layer(pagination: pagination)) }
        if url.value(of: "returnCountOnly") == "true" { return .json(#"{"count":\#(total)}"#) }
        let offset = Int(url.value(of: "resultOffset") ?? "0")!
        let asked = Int(url.value(of: "resultRecordCount") ?? "100")!
        let end = min(total, offset + served(offset, asked))
        return page((offset + 1)..<(end + 1), exceeded: end < total)
    }
}

private func populate(_ transport: FunctionTransport, _ configure: (inout QueryParameters) -> Void = { _ in }) async throws -> FeatureResult
{
    let table = try FeatureTable.arcgis(url: layerURL, context: ClientContext(transport: transport))
    var query = QueryParameters()
    configure(&query)
    return try await table.populate(query, clearCache: true)
}

private func ids(_ result: FeatureResult) throws -> [Int64] {
    try (0..<result.count).map { try result.objectId($0) }
}

@Suite struct ArcGISPagingTests {
    @Test func shortPagesDoNotEndPagingWhileTheServerSaysMore() async throws {
        let transport = offsetServer(total: 250) { _, _ in 60 }
        let result = try await populate(transport)
        #expect(try ids(result) == Array(1...250))
        // Pages in steps of what the server sends, told by its count: none wasted
        // (pages sent side by side arrive in any order).
        #expect(transport.queries.compactMap { $0.value(of: "resultOffset").flatMap { Int($0) } }.sorted() == [0, 60, 120, 180, 240])
        #expect(transport.counts == 1)
        #expect(!result.limitExceeded)
    }

    @Test func aServerThatIgnoresTheRecordCountIsCutAtMaxFeatures() async throws {
        let transport = offsetServer(total: 1000) { _, _ in 100 }
        let result = try await populate(transport) { $0.maxFeatures = 150 }
        #expect(try ids(result) == Array(1...150))
        #expect(result.limitExceeded)
        #expect(transport.queries.map { $0.value(of: "resultRecordCount") } == ["100", "50"])
    }

    @Test func anEmptyPageThatClaimsMoreIsAnErrorNotALoop() async throws {
        let transport = offsetServer(total: 1000) { offset, _ in offset >= 200 ? 0 : 100 }
        await #expect {
            _ = try await populate(transport)
        } throws: { error in
            (error as? FeatureCacheError)?.code == .service && "\(error)".contains("returned none at offset 200")
        }
        // Pages sent ahead (the count says 1,000) are cancelled or dropped: at
        // most the connection cap's worth beyond the empty one.
        let offsets = transport.queries.compactMap { $0.value(of: "resultOffset").flatMap { Int($0) } }
        #expect(Set(offsets).isSuperset(of: [0, 100, 200]))
        #expect(offsets.count <= 3 + ClientSettings().maxConnectionsPerHost)
    }

    @Test func capsOnObjectIdAnswersAreAskedAgainForWhatIsMissing() async throws {
        let transport = FunctionTransport { url in
            guard url.base.hasSuffix("/query") else { return .json(layer(pagination: false)) }
            if url.value(of: "returnIdsOnly") == "true" {
                return .json(
                    #"{"objectIdFieldName":"OBJECTID","objectIds":[\#((1...250).reversed().map(String.init).joined(separator: ","))]}"#)
            }
            let asked = url.value(of: "objectIds")!.split(separator: ",").map { Int($0)! }
            return page(asked.prefix(80), exceeded: asked.count > 80)  // a server capped at 80
        }
        let result = try await populate(transport)
        #expect(try ids(result).sorted() == Array(1...250))
        #expect(result.count == 250)
        // ids sorted, batches of the page size (100), each re-asked until complete.
        let batches = transport.queries.compactMap { $0.value(of: "objectIds") }
        #expect(batches.first?.hasPrefix("1,2,3,") == true)
        #expect(batches.count == 5)  // 100 → 80 + 20, 100 → 80 + 20, 50
        #expect(transport.queries.allSatisfy { $0.value(of: "resultOffset") == nil })
    }

    @Test func maxFeaturesAndOffsetApplyToTheIdList() async throws {
        let transport = FunctionTransport { url in
            guard url.base.hasSuffix("/query") else { return .json(layer(pagination: false)) }
            if url.value(of: "returnIdsOnly") == "true" {
                return .json(#"{"objectIds":[\#((1...500).map(String.init).joined(separator: ","))]}"#)
            }
            return page(url.value(of: "objectIds")!.split(separator: ",").map { Int($0)! }, exceeded: false)
        }
        let result = try await populate(transport) {
            $0.maxFeatures = 120; $0.resultOffset = 10
        }
        #expect(try ids(result) == Array(11...130))
        #expect(result.limitExceeded)
    }

    @Test func requestsFollowTheRESTAPI() async throws {
        let transport = offsetServer(total: 5) { _, asked in asked }
        _ = try await populate(transport) { query in
            query.whereClause = "Name = 'a&b' OR Name LIKE '%=%'"
            query.geometry = .envelope(Envelope(xmin: 1, ymin: 2, xmax: 3.5, ymax: 4, spatialReference: .wgs84))
            query.spatialRelationship = .within
            query.outFields = ["Name"]
            query.returnGeometry = true
        }
        let url = try #require(transport.queries.first)
        #expect(url.value(of: "where") == "Name = 'a&b' OR Name LIKE '%=%'")
        #expect(url.string.contains("where=Name%20%3D%20%27a%26b%27"))
        #expect(url.value(of: "geometry") == "1,2,3.5,4")
        #expect(url.value(of: "geometryType") == "esriGeometryEnvelope")
        #expect(url.value(of: "inSR") == "4326")
        #expect(url.value(of: "spatialRel") == "esriSpatialRelWithin")
        #expect(url.value(of: "outFields") == "OBJECTID,Name")
        #expect(url.value(of: "outSR") == "4326")
        #expect(url.value(of: "orderByFields") == "OBJECTID ASC")
        #expect(url.value(of: "f") == "json")
    }

    @Test func polygonQueryGeometriesAreSentClockwise() throws {
        let counterClockwise: [Geometry.XY] = [.init(0, 0), .init(1, 0), .init(1, 1), .init(0, 1), .init(0, 0)]
        let hole: [Geometry.XY] = [.init(0.2, 0.2), .init(0.2, 0.4), .init(0.4, 0.4), .init(0.2, 0.2)]
        let encoded = try ArcGISGeometryJSON.parameters(.geometry(.polygon([counterClockwise, hole]), wkid: 4326))
        #expect(encoded.type == "esriGeometryPolygon")
        #expect(encoded.geometry == "{\"rings\":[[[0,0],[0,1],[1,1],[1,0],[0,0]],[[0.2,0.2],[0.4,0.4],[0.2,0.4],[0.2,0.2]]]}")
        #expect(throws: FeatureCacheError.self) { _ = try ArcGISGeometryJSON.parameters(.geometry(.collection([]), wkid: 0)) }
    }

    @Test func aFailedPopulateLeavesTheCacheAsItWas() async throws {
        let failing = Locked(false)
        let transport = FunctionTransport { url in
            guard url.base.hasSuffix("/query") else { return .json(layer(pagination: true)) }
            let offset = Int(url.value(of: "resultOffset") ?? "0")!
            if failing.withLock({ $0 }), offset >= 200 { return .json(#"{"error":{"code":500,"message":"boom"}}"#) }
            return page((offset + 1)...(offset + 100), exceeded: offset + 100 < 300)
        }
        let table = try FeatureTable.arcgis(url: layerURL, context: ClientContext(transport: transport))
        _ = try await table.populate(QueryParameters(), clearCache: true)
        #expect(table.cachedFeatureCount == 300)
        failing.withLock { $0 = true }
        for clear in [true, false] {
            await #expect(throws: FeatureCacheError.self) { _ = try await table.populate(QueryParameters(), clearCache: clear) }
            #expect(table.cachedFeatureCount == 300)
        }
    }
}
