// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// A layer of 10,000 points on a 100 × 100 lattice over [0,1]², 500 a page,
/// answering envelope queries, counts and pages, and failing on request.
final class LatticeServer: Sendable {
    let failures = Locked(0)
    let transport: FunctionTransport

    init() {
        let failures = self.failures
        transport = FunctionTransport { url in
            guard url.base.hasSuffix("/query") else {
                return .json(
                    #"""
                    {"name":"Lattice","type":"Feature Layer","geometryType":"esriGeometryPoint","objectIdField":"OBJECTID",
                     "extent":{"xmin":0,"ymin":0,"xmax":1,"ymax":1,"spatialReference":{"wkid":4326}},
                     "fields":[{"name":"OBJECTID","type":"esriFieldTypeOID"},{"name":"Row","type":"esriFieldTypeInteger"}],
                     "maxRecordCount":500,"advancedQueryCapabilities":{"supportsPagination":true}}
                    """#)
            }
            if failures.withLock({ count in
                defer { count = max(0, count - 1) }; return count > 0
            }) {
                return HTTPResponse(status: 500, headers: [], body: Array("down".utf8))
            }
            let box = (url.value(of: "geometry") ?? "-1,-1,2,2").split(separator: ",").map { Double($0)! }
            var ids: [Int] = []
            for id in 1...10_000 {
                let (x, y) = LatticeServer.point(id)
                if x >= box[0], x <= box[2], y >= box[1], y <= box[3] { ids.append(id) }
            }
            if url.value(of: "returnCountOnly") == "true" { return .json(#"{"count":\#(ids.count)}"#) }
            let offset = Int(url.value(of: "resultOffset") ?? "0")!
            let size = min(500, Int(url.value(of: "resultRecordCount") ?? "500")!)
            let page = ids.dropFirst(offset).prefix(size)
            let features = page.map { id in
                let (x, y) = LatticeServer.point(id)
                return #"{"attributes":{"OBJECTID":\#(id),"Row":\#((id - 1) / 100)},"geometry":{"x":\#(x),"y":\#(y)}}"#
            }
            let exceeded = offset + page.count < ids.count
            return .json(
                #"{"objectIdFieldName":"OBJECTID","spatialReference":{"wkid":4326},"features":[\#(features.joined(separator: ","))]\#(exceeded ? #","exceededTransferLimit":true"# : "")}"#
            )
        }
    }

    static func point(_ id: Int) -> (Double, Double) {
        (Double((id - 1) % 100) / 100 + 0.005, Double((id - 1) / 100) / 100 + 0.005)
    }

    /// How many lattice points lie in the box (the ground truth).
    static func count(_ xmin: Double, _ ymin: Double, _ xmax: Double, _ ymax: Double) -> Int {
        (1...10_000).filter {
            let (x, y) = point($0); return x >= xmin && x <= xmax && y >= ymin && y <= ymax
        }.count
    }

    var queries: Int { transport.queries.count }
}

@Suite struct RequestModeTests {
    let server = LatticeServer()
    let view = Envelope(xmin: 0.45, ymin: 0.45, xmax: 0.55, ymax: 0.55, spatialReference: .wgs84)

    func setUp(_ mode: FeatureRequestMode) async throws -> (FeatureTable, Map) {
        let table = try FeatureTable.arcgis(
            url: "https://example.com/arcgis/rest/services/L/FeatureServer/0",
            context: ClientContext(transport: server.transport))
        try table.setRequestMode(mode)
        let map = Map()
        map.addLayer(FeatureLayer(table: table))
        try await map.load()
        return (table, map)
    }

    /// Shows a view and waits; returns the query requests it cost.
    func show(_ map: Map, _ extent: Envelope, scale: Double = 200_000) async throws -> Int {
        let before = server.queries
        try map.setVisibleExtent(extent, scale: scale)
        await map.idle()
        return server.queries - before
    }

    func envelopeQuery(_ xmin: Double, _ ymin: Double, _ xmax: Double, _ ymax: Double) -> QueryParameters {
        var query = QueryParameters()
        query.geometry = .envelope(Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, spatialReference: .wgs84))
        return query
    }

    @Test func cacheModeFetchesEachTileOnceAndAnswersCoveredQueriesLocally() async throws {
        let (table, map) = try await setUp(.onInteractionCache)
        #expect(try await show(map, view) == 4)  // 2 × 2 tiles of the level for this view at 1:200,000
        #expect(try await show(map, view) == 0)
        let before = server.queries
        let result = try await table.query(envelopeQuery(0.4, 0.4, 0.6, 0.6))
        #expect(result.count == LatticeServer.count(0.4, 0.4, 0.6, 0.6))
        #expect(try await table.queryCount(envelopeQuery(0.42, 0.42, 0.5, 0.5)) == LatticeServer.count(0.42, 0.42, 0.5, 0.5))
        #expect(server.queries == before)
        // Outside the covered tiles: the server, and the answer is cached.
        let far = try await table.query(envelopeQuery(0.9, 0.9, 1, 1))
        #expect(far.count == 100 && server.queries == before + 1)
        let stats = table.statisticsSnapshot
        #expect(stats.queriesLocal == 2 && stats.queriesServer == 1 && stats.tilesCovered == 4)
    }

    @Test func noCacheModeFetchesEveryTimeAndKeepsOnlyTheLatestView() async throws {
        let (table, map) = try await setUp(.onInteractionNoCache)
        #expect(try await show(map, view) >= 1)
        #expect(try await show(map, view) >= 1)
        #expect(table.cachedFeatureCount == LatticeServer.count(0.4, 0.4, 0.6, 0.6))
        let before = server.queries
        _ = try await table.query(envelopeQuery(0.45, 0.45, 0.5, 0.5))
        #expect(server.queries == before + 1)
        #expect(table.cachedFeatureCount == LatticeServer.count(0.4, 0.4, 0.6, 0.6))
    }

    @Test func manualModeFetchesOnlyOnPopulate() async throws {
        let (table, map) = try await setUp(.manualCache)
        #expect(try await show(map, view) == 0)
        #expect(try await table.queryCount(envelopeQuery(0, 0, 1, 1)) == 0)
        #expect(server.queries == 0)
        _ = try await table.populate(envelopeQuery(0.4, 0.4, 0.6, 0.6), clearCache: true)
        let populated = server.queries
        var query = envelopeQuery(0.4, 0.4, 0.6, 0.6)
        query.whereClause = "Row < '50'"
        query.orderBy = "Row DESC"
        query.maxFeatures = 5
        query.resultOffset = 1
        query.outFields = ["Row"]
        let result = try await table.query(query)
        #expect(result.count == 5 && result.limitExceeded)
        #expect(result.fields.map(\.name) == ["Row"])
        #expect(try (0..<5).map { try result.int64($0, 0) } == [49, 49, 49, 49, 49])
        #expect(try (0..<5).map { try result.objectId($0) } == [4942, 4943, 4944, 4945, 4946])
        #expect(server.queries == populated)
    }

    @Test func transferLimitedTilesSplitUntilComplete() async throws {
        let (table, map) = try await setUp(.onInteractionCache)
        // 1:800,000 → half-extent tiles of 2,500 points: split twice to fit 500.
        let whole = Envelope(xmin: 0.25, ymin: 0.25, xmax: 0.75, ymax: 0.75, spatialReference: .wgs84)
        #expect(try await show(map, whole, scale: 800_000) == 4 + 16 + 64)
        #expect(table.cachedFeatureCount == 10_000)
        #expect(table.statisticsSnapshot.tilesCovered == 64)
        #expect(try await table.queryCount(QueryParameters()) == 10_000)
        #expect(server.queries == 84)
    }

    @Test func aFailedTileStaysUncoveredAndIsAskedAgain() async throws {
        let (table, map) = try await setUp(.onInteractionCache)
        server.failures.withLock { $0 = 1 }
        #expect(try await show(map, view) == 4)
        #expect(table.statisticsSnapshot.tileFailures == 1 && table.statisticsSnapshot.tilesCovered == 3)
        #expect(try await show(map, view) == 1)
        #expect(try await table.queryCount(envelopeQuery(0.4, 0.4, 0.6, 0.6)) == LatticeServer.count(0.4, 0.4, 0.6, 0.6))
    }

    @Test func aSmallBudgetEvictsOldTilesAndRevisitsRefetchExactlyThose() async throws {
        let (table, map) = try await setUp(.onInteractionCache)
        try table.setCacheBudget(1)
        #expect(try await show(map, view) == 4)
        let other = Envelope(xmin: 0.05, ymin: 0.05, xmax: 0.1, ymax: 0.1, spatialReference: .wgs84)
        let tilesB = try await show(map, other)
        #expect(table.statisticsSnapshot.evictions == 4)
        #expect(try await show(map, view) == 4)
        #expect(table.statisticsSnapshot.evictions == 4 + tilesB)
    }
}
