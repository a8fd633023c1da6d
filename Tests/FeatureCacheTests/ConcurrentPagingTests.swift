// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

@Suite struct PagingWindowTests {
    @Test func growsToTheConnectionCapWhileTheServerKeepsUp() {
        let window = PagingWindow(limit: 5)
        #expect(window.size == 2)
        for _ in 0..<10 { window.answered(after: .milliseconds(100)) }
        #expect(window.size == 5)
    }

    @Test func shrinksWhenTheServerSlowsDownAndHalvesWhenItPushesBack() {
        let window = PagingWindow(limit: 6)
        for _ in 0..<6 { window.answered(after: .milliseconds(100)) }
        #expect(window.size == 6)
        window.answered(after: .milliseconds(350))  // suddenly slower than twice the average
        #expect(window.size == 5)
        window.pushedBack()  // 429 or 503
        #expect(window.size == 2)
        window.pushedBack()
        window.pushedBack()
        #expect(window.size == 1)
    }

    @Test func latencyGrowingPageByPageIsNotASlowdown() {
        // Deeper offsets cost the server more: 0.15 s a page at first, 0.6 s at the end.
        let window = PagingWindow(limit: 6)
        for page in 0..<20 { window.answered(after: .milliseconds(150 + page * 24)) }
        #expect(window.size == 6)
    }

    @Test func aPageFailingBesideOthersMakesTheRestGoOneAtATime() {
        let window = PagingWindow(limit: 6)
        for _ in 0..<4 { window.answered(after: .milliseconds(100)) }
        window.serialize()
        #expect(window.size == 1 && window.isSerialized)
        for _ in 0..<4 { window.answered(after: .milliseconds(100)) }
        #expect(window.size == 1)
    }

    @Test func oneConnectionPerHostIsOnePageAtATime() {
        let window = PagingWindow(limit: 1)
        #expect(window.size == 1)
        window.answered(after: .milliseconds(1))
        #expect(window.size == 1)
    }
}

/// An ArcGIS layer of `total` points paged by offset (100 a page), whose answers
/// take longer for earlier pages, so later pages sent alongside finish first.
private final class SlowArcGISServer: Sendable {
    let transport: FunctionTransport
    /// A page offset answered with this HTTP status (nil = none).
    let failingOffset = Locked<(offset: Int, status: Int, times: Int)?>(nil)

    init(total: Int, pagination: Bool = true) {
        let failing = failingOffset
        transport = FunctionTransport(delay: { url in
            guard let offset = url.value(of: "resultOffset").flatMap({ Int($0) }) else { return .milliseconds(5) }
            return .milliseconds(max(5, 60 - offset / 50))
        }) { url in
            guard url.base.hasSuffix("/query") else { return .json(layer(pagination: pagination)) }
            if url.value(of: "returnCountOnly") == "true" { return .json(#"{"count":\#(total)}"#) }
            if url.value(of: "returnIdsOnly") == "true" {
                return .json(#"{"objectIdFieldName":"OBJECTID","objectIds":[\#((1...total).map(String.init).joined(separator: ","))]}"#)
            }
            if let ids = url.value(of: "objectIds") {
                return page(ids.split(separator: ",").map { Int($0)! }, exceeded: false)
            }
            let offset = Int(url.value(of: "resultOffset") ?? "0")!
            let failure = failing.withLock { failing -> Int? in
                guard let rule = failing, rule.offset == offset, rule.times > 0 else { return nil }
                failing = (rule.offset, rule.status, rule.times - 1)
                return rule.status
            }
            if let failure {
                return HTTPResponse(
                    status: failure, headers: [("Retry-After", "0"), ("Content-Type", "text/plain")], body: Array("no".utf8))
            }
            let end = min(total, offset + 100)
            return page((offset + 1)..<(end + 1), exceeded: end < total)
        }
    }

    func table(connections: Int = 3) throws -> FeatureTable {
        var settings = ClientSettings()
        settings.maxConnectionsPerHost = connections
        return try FeatureTable.arcgis(url: layerURL, context: ClientContext(transport: transport, settings: settings))
    }
}

/// Populates everything `server` has in pages of `pageSize`: the result and
/// the requests the populate sent (loading not included).
private func populateAll(_ server: FakeOGCServer, pageSize: Int = 10) async throws -> (FeatureResult, Int) {
    let table = try await server.table(pageSize: pageSize)
    let before = table.statisticsSnapshot.requests
    let result = try await table.populate(QueryParameters(), clearCache: true)
    return (result, table.statisticsSnapshot.requests - before)
}

private func objectIds(_ result: FeatureResult) throws -> [Int64] {
    try (0..<result.count).map { try result.objectId($0) }
}

@Suite struct ConcurrentPagingTests {
    @Test func arcgisPagesGoSideBySideWithinTheCapAndApplyInOrder() async throws {
        let server = SlowArcGISServer(total: 2000)
        let result = try await server.table(connections: 3).populate(QueryParameters(), clearCache: true)
        #expect(try objectIds(result) == Array(1...2000))
        // Each page asked once (the count told where the pages end), plus the count.
        #expect(server.transport.queries.count == 20)
        #expect(server.transport.counts == 1)
        #expect((2...3).contains(server.transport.mostInFlight))
    }

    /// The count covers every match; the total a populate reports is what it
    /// keeps: after the offset, up to max features.
    @Test func progressTotalsComeFromTheCountAfterOffsetAndMaxFeatures() async throws {
        for (maxFeatures, expected) in [(0, 450), (200, 200)] {
            let server = SlowArcGISServer(total: 600)
            var query = QueryParameters()
            query.resultOffset = 150
            query.maxFeatures = maxFeatures
            let totals = Recorder<Int?>()
            let result = try await server.table(connections: 3).populate(query, clearCache: true) { totals.append($0.totalFeatures) }
            #expect(result.count == expected)
            #expect(totals.all.first == .some(nil))  // page one, before the count
            #expect(totals.all.dropFirst().allSatisfy { $0 == expected })
            #expect(totals.count >= 2)
        }
    }

    @Test func oneConnectionPerHostPagesOneAtATime() async throws {
        let server = SlowArcGISServer(total: 600)
        let result = try await server.table(connections: 1).populate(QueryParameters(), clearCache: true)
        #expect(try objectIds(result) == Array(1...600))
        #expect(server.transport.mostInFlight == 1)
    }

    @Test func objectIdBatchesGoSideBySideToo() async throws {
        let server = SlowArcGISServer(total: 1000, pagination: false)
        let result = try await server.table(connections: 4).populate(QueryParameters(), clearCache: true)
        #expect(try objectIds(result) == Array(1...1000))
        #expect(server.transport.queries.filter { $0.value(of: "objectIds") != nil }.count == 10)
    }

    @Test func aFailedPageAmongPagesInFlightLeavesTheCacheAsItWas() async throws {
        let server = SlowArcGISServer(total: 3000)
        let table = try server.table(connections: 4)
        var small = QueryParameters()
        small.maxFeatures = 250
        _ = try await table.populate(small, clearCache: true)
        #expect(table.cachedFeatureCount == 250)
        server.failingOffset.withLock { $0 = (1500, 404, 1) }
        for clear in [true, false] {
            server.failingOffset.withLock { $0 = (1500, 404, 1) }
            await #expect(throws: FeatureCacheError.self) { _ = try await table.populate(QueryParameters(), clearCache: clear) }
            #expect(table.cachedFeatureCount == 250)
        }
        // Nothing left running once the populate failed.
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.transport.inFlightNow == 0)
    }

    @Test func aServerErrorBesideOtherPagesIsAskedAgainAloneThenOneAtATime() async throws {
        let server = SlowArcGISServer(total: 2000)
        server.failingOffset.withLock { $0 = (800, 500, 1) }  // fails under load, not alone
        let result = try await server.table(connections: 4).populate(QueryParameters(), clearCache: true)
        #expect(try objectIds(result) == Array(1...2000))
        #expect(server.transport.queries.filter { $0.value(of: "resultOffset") == "800" }.count == 2)

        // Failing alone too: the populate fails.
        server.failingOffset.withLock { $0 = (800, 500, 2) }
        await #expect(throws: FeatureCacheError.self) {
            _ = try await server.table(connections: 4).populate(QueryParameters(), clearCache: true)
        }
    }

    @Test func aServerPushingBackIsRetriedAndTheAnswerIsWhole() async throws {
        let server = SlowArcGISServer(total: 2000)
        server.failingOffset.withLock { $0 = (800, 429, 2) }
        let table = try server.table(connections: 4)
        let result = try await table.populate(QueryParameters(), clearCache: true)
        #expect(try objectIds(result) == Array(1...2000))
        #expect(table.statisticsSnapshot.retries == 2)
    }

    @Test func cancellingAPopulateCancelsThePagesInFlight() async throws {
        let server = SlowArcGISServer(total: 100_000)
        let table = try server.table(connections: 4)
        let populate = Task { try await table.populate(QueryParameters(), clearCache: true) }
        try await Task.sleep(for: .milliseconds(300))
        populate.cancel()
        await #expect(throws: FeatureCacheError.self) { _ = try await populate.value }
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.transport.inFlightNow == 0)
        #expect(server.transport.queries.count < 1000)
        #expect(table.cachedFeatureCount == 0)
    }

    @Test func ogcPagesByOffsetGoSideBySideWithNoRequestWasted() async throws {
        let server = FakeOGCServer(fault: .none) { url in
            .milliseconds(url.value(of: "offset").map { 40 - (Int($0) ?? 0) / 5 } ?? 5)
        }
        let (result, requests) = try await populateAll(server)
        #expect(try objectIds(result) == Array(1...100))
        #expect(requests == 10)
        #expect(server.transport.mostInFlight >= 2)
    }

    @Test func ogcPagesWithoutTotalsAreSentAheadOnTheServersHitsCount() async throws {
        let slow: @Sendable (RequestURL) -> Duration = { _ in .milliseconds(15) }
        let counted = FakeOGCServer(fault: .countsOnlyByHits, delay: slow)
        var (result, requests) = try await populateAll(counted)
        #expect(try objectIds(result) == Array(1...100))
        #expect(requests == 10 + 1)  // the pages and the count
        #expect(counted.transport.mostInFlight >= 2)

        // A server that does not know resulttype=hits sends a feature, no count:
        // the pages then follow one by one, and the answer is the same.
        let uncounted = FakeOGCServer(fault: .noCounts, delay: slow)
        (result, requests) = try await populateAll(uncounted)
        #expect(try objectIds(result) == Array(1...100))
        #expect(requests == 10 + 1)
        #expect(uncounted.transport.mostInFlight <= 2)  // page two beside the count, no more
    }

    @Test func ogcPagesByStartIndexArePredictedByTheParameterTheLinksUse() async throws {
        let server = FakeOGCServer(fault: .startIndexPaging) { _ in .milliseconds(15) }
        let (result, requests) = try await populateAll(server)
        #expect(try objectIds(result) == Array(1...100))
        #expect(requests == 10)
        #expect(server.transport.mostInFlight >= 2)
        // Every page asked by startIndex, never by an offset the server ignores.
        let items = server.transport.log.withLock { $0 }.filter { $0.base.hasSuffix("/items") }
        #expect(items.count == 10 + 1)  // the load's sample and the pages
        #expect(items.allSatisfy { $0.value(of: "offset") == nil })
    }

    @Test func ogcRepairedNextLinksArePredictedToo() async throws {
        let server = FakeOGCServer(fault: .nextDropsBbox) { _ in .milliseconds(10) }
        let table = try await server.table(pageSize: 5)
        var query = QueryParameters()
        query.geometry = .envelope(Envelope(xmin: 0.105, ymin: 0, xmax: 0.495, ymax: 1, spatialReference: SpatialReference(wkid: 4326)))
        let before = table.statisticsSnapshot.requests
        let result = try await table.populate(query, clearCache: true)
        #expect(result.count == 39)
        #expect(table.statisticsSnapshot.featuresReceived == 39)  // never the whole collection
        #expect(table.statisticsSnapshot.requests - before == 8)  // 39 in pages of 5
    }
}
