// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCOGCAPI
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// A transport that answers with a function of the whole request, and keeps
/// every request it was sent (headers and body included).
final class RequestTransport: Transport {
    let respond: @Sendable (HTTPRequest, Int) -> Result<HTTPResponse, FeatureCacheError>
    let log = Locked<[HTTPRequest]>([])

    init(_ respond: @escaping @Sendable (HTTPRequest, Int) -> Result<HTTPResponse, FeatureCacheError>) { self.respond = respond }

    func send(_ request: HTTPRequest) async throws(FeatureCacheError) -> HTTPResponse {
        let index = log.withLock { log -> Int in
            log.append(request)
            return log.count - 1
        }
        return try respond(request, index).get()
    }

    var requests: [HTTPRequest] { log.withLock { $0 } }
}

private func redirect(_ status: Int, to location: String) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Location", location)], body: [])
}

private let ok = HTTPResponse.json("{}")

/// A context with fast retries, for tests.
private func context(_ transport: RequestTransport, retry: (inout RetryPolicy) -> Void = { _ in }) -> ClientContext {
    var settings = ClientSettings()
    settings.retry.baseDelay = 0.001
    settings.retry.maxDelay = 1
    retry(&settings.retry)
    settings.token = "s3cret"
    return ClientContext(transport: transport, settings: settings)
}

/// Issue 13, D5–D8: redirects checked hop by hop, credentials only for the
/// caller's origin, transient failures retried, secrets masked.
@Suite struct ExchangeTests {
    private func send(_ context: ClientContext, _ request: HTTPRequest, _ statistics: StatisticsCounter? = nil) async throws -> HTTPResponse
    {
        try await context.send(request, counting: statistics)
    }

    /// An ArcGIS request as the library makes it, token in a header or a parameter.
    private func arcgisRequest(_ context: ClientContext, _ url: String, placement: TokenPlacement) throws -> HTTPRequest {
        try context.updateSettings { $0.tokenPlacement = placement }
        let service = "https://gis.example.com/arcgis/rest/services/T/FeatureServer/0"
        return ArcGISRequester(context: context, serviceURL: service).request(try RequestURL(parsing: url))
    }

    @Test func aRedirectToAnotherHostGetsNoToken() async throws {
        for placement in [TokenPlacement.header, .parameter] {
            let transport = RequestTransport { request, index in
                .success(
                    index == 0 ? redirect(302, to: "https://evil.example.net/steal?\(request.url.split(separator: "?").last ?? "")") : ok)
            }
            let context = context(transport)
            try context.updateSettings { $0.headers = [("X-API-Key", "k"), ("Referer", "https://app")] }
            let request = try arcgisRequest(context, "https://gis.example.com/arcgis/rest/services/T/FeatureServer/0", placement: placement)
            // The first hop carries the token…
            #expect(request.header("X-Esri-Authorization") != nil || request.url.contains("token=s3cret"))
            _ = try await send(context, request)
            let second = transport.requests[1]
            // …the hop to another host carries none of it, not even in the query the Location copied.
            #expect(second.url.hasPrefix("https://evil.example.net/steal"))
            #expect(second.header("X-Esri-Authorization") == nil)
            #expect(second.header("X-API-Key") == nil)
            #expect(!second.url.contains("s3cret"))
            #expect(second.header("Referer") == "https://app")
        }
    }

    @Test func sameOriginAndHTTPSUpgradesKeepTheToken() async throws {
        let transport = RequestTransport { _, index in
            .success(
                [
                    redirect(301, to: "/arcgis/rest/services/T/FeatureServer/0?f=json"),
                    redirect(308, to: "https://gis.example.com/moved/0?f=json"), ok,
                ][index])
        }
        let context = context(transport)
        try context.updateSettings { $0.tokenPlacement = .header }
        let request = ArcGISRequester(context: context, serviceURL: "http://gis.example.com/arcgis/rest/services/T/FeatureServer/0")
            .request(try RequestURL(parsing: "http://gis.example.com/arcgis/rest/services/T/FeatureServer/0"))
        _ = try await send(context, request)
        #expect(
            transport.requests.map(\.url) == [
                "http://gis.example.com/arcgis/rest/services/T/FeatureServer/0?f=json",
                "http://gis.example.com/arcgis/rest/services/T/FeatureServer/0?f=json",
                "https://gis.example.com/moved/0?f=json",
            ])
        #expect(transport.requests.allSatisfy { $0.header("X-Esri-Authorization") == "Bearer s3cret" })
    }

    @Test func aLinkToAnotherOriginIsSentWithoutCredentials() throws {
        // An OGC `next` link pointing elsewhere: the request is made without the token.
        let context = context(RequestTransport { _, _ in .success(ok) })
        let requester = OGCRequester(context: context, serviceURL: "https://api.example.com/ogc")
        let home = requester.request(try RequestURL(parsing: "https://api.example.com/ogc/collections/c/items"))
        let away = requester.request(try RequestURL(parsing: "https://cdn.example.org/items?page=2&token=s3cret"))
        #expect(home.header("Authorization") == "Bearer s3cret")
        #expect(away.header("Authorization") == nil)
        #expect(!away.url.contains("s3cret"))
        // An origin that cannot be told (a port out of range) gets nothing either.
        let odd = requester.request(try RequestURL(parsing: "https://api.example.com:9999/ogc/items"))
        #expect(odd.header("Authorization") == nil)
    }

    @Test func refusedRedirectsAreProtocolErrors() async throws {
        let cases: [(HTTPResponse, String)] = [
            (redirect(302, to: "http://gis.example.com/plain"), "from https to http"),
            (redirect(301, to: "file:///etc/passwd"), "other than http and https"),
            (redirect(307, to: "ftp://gis.example.com/x"), "other than http and https"),
            (redirect(302, to: "https://gis.example.com/a b"), "not a URL the library can follow"),
            (HTTPResponse(status: 302, headers: [], body: []), "without a Location"),
        ]
        for (response, message) in cases {
            let context = context(RequestTransport { _, _ in .success(response) })
            await #expect {
                _ = try await send(context, context.makeRequest(url: "https://gis.example.com/layer"))
            } throws: { error in
                let error = error as! FeatureCacheError
                return error.code == .protocol && error.message.contains(message)
            }
        }
    }

    @Test func redirectLoopsEndAfterFiveHops() async throws {
        let transport = RequestTransport { _, index in .success(redirect(302, to: "/hop\(index)")) }
        let context = context(transport)
        await #expect {
            _ = try await send(context, context.makeRequest(url: "https://gis.example.com/start"))
        } throws: { ($0 as! FeatureCacheError).code == .protocol }
        #expect(transport.requests.count == Redirect.maxHops + 1)
    }

    @Test func seeOtherTurnsAPostIntoAGetAndOthersKeepThePost() async throws {
        let transport = RequestTransport { _, index in .success([redirect(307, to: "/b"), redirect(303, to: "/c"), ok][index]) }
        let context = context(transport)
        _ = try await send(
            context, context.makeRequest(.post, url: "https://h.example.com/a", headers: [("Content-Type", "text/xml")], body: [1, 2]))
        #expect(transport.requests.map(\.method) == [.post, .post, .get])
        #expect(transport.requests[1].body == [1, 2])
        #expect(transport.requests[2].body == nil && transport.requests[2].header("Content-Type") == nil)
    }

    @Test func transientStatusesAreRetriedAndCounted() async throws {
        let transport = RequestTransport { _, index in
            .success(index < 2 ? HTTPResponse(status: [503, 429][index], headers: [("Retry-After", "0")], body: []) : ok)
        }
        let statistics = StatisticsCounter()
        let response = try await send(context(transport), context(transport).makeRequest(url: "https://h.example.com/a"), statistics)
        #expect(response.status == 200)
        #expect(transport.requests.count == 3)
        #expect(statistics.snapshot.retries == 2)
        #expect(statistics.snapshot.requests == 3)
    }

    @Test func retriesStopAtTheirLimitWithTheLastAnswer() async throws {
        let transport = RequestTransport { _, _ in .success(HTTPResponse(status: 502, body: [])) }
        let response = try await send(
            context(transport) { $0.maxAttempts = 3 }, context(transport).makeRequest(url: "https://h.example.com/a"))
        #expect(response.status == 502)
        #expect(transport.requests.count == 3)
    }

    @Test func aRetryAfterLongerThanTheMaximumIsNotWaitedFor() async throws {
        let transport = RequestTransport { _, _ in .success(HTTPResponse(status: 503, headers: [("Retry-After", "3600")], body: [])) }
        let response = try await send(context(transport), context(transport).makeRequest(url: "https://h.example.com/a"))
        #expect(response.status == 503)
        #expect(transport.requests.count == 1)
    }

    @Test func onlyTransientFailuresOfRepeatableRequestsAreRetried() async throws {
        var reset = FeatureCacheError(.network, "connection reset")
        reset.isTransient = true
        let refused = FeatureCacheError(.network, "connection refused")
        for (error, repeatable, expected) in [(reset, true, 4), (refused, true, 1), (reset, false, 1)] {
            let transport = RequestTransport { _, _ in .failure(error) }
            let context = context(transport)
            var request = context.makeRequest(.post, url: "https://h.example.com/a", body: [1])
            request.isIdempotent = repeatable
            await #expect(throws: FeatureCacheError.self) { _ = try await send(context, request) }
            #expect(transport.requests.count == expected)
        }
        // A server error that is not transient (500) is answered, not retried.
        let transport = RequestTransport { _, _ in .success(HTTPResponse(status: 500, body: [])) }
        _ = try await send(context(transport), context(transport).makeRequest(url: "https://h.example.com/a"))
        #expect(transport.requests.count == 1)
    }

    @Test func cancellingStopsTheBackOffAtOnce() async throws {
        let transport = RequestTransport { _, _ in .success(HTTPResponse(status: 503, headers: [("Retry-After", "20")], body: [])) }
        let context = context(transport) { $0.maxDelay = 60 }
        let task = Task { try await context.send(context.makeRequest(url: "https://h.example.com/a"), counting: nil) }
        while transport.requests.isEmpty { await Task.yield() }
        task.cancel()
        // Cancelled, not the 503 that four waits of 20 s would end with.
        await #expect(throws: FeatureCacheError.cancelled) { _ = try await task.value }
        #expect(transport.requests.count == 1)
    }

    @Test func retryAfterReadsSecondsAndDates() {
        let now = DateText.epochMilliseconds("2015-10-21T07:27:00Z")!
        #expect(RetryPolicy.retryAfter("120", now: now) == 120)
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == 60)
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfter("-1", now: now) == nil)
        var policy = RetryPolicy()
        policy.baseDelay = 1
        policy.maxDelay = 4
        for retry in 1...3 {
            let delay = policy.delay(beforeRetry: retry, retryAfter: nil)!
            let full = min(4, Double(1 << (retry - 1)))
            #expect(delay >= full / 2 && delay <= full)
        }
        #expect(policy.delay(beforeRetry: 4, retryAfter: nil) == nil)
    }

    /// How long an answer stays fresh, as a private cache reads its headers
    /// (RFC 9111 §4.2.1): what tipg sends, the directives that forbid reuse,
    /// Expires against Date, what a hostile server may write.
    @Test func freshnessReadsCacheControlAndExpires() {
        let at = DateText.epochMilliseconds("2015-10-21T07:28:00Z")!
        func until(_ headers: [(name: String, value: String)]) -> Int64? {
            HTTPFreshness.freshUntil(headers, receivedAt: at).map { $0 - at }
        }
        #expect(until([("cache-control", "public, max-age=3600")]) == 3_600_000)
        #expect(until([("Cache-Control", "max-age=\"60\""), ("Age", "20")]) == 40_000)
        #expect(until([("Cache-Control", "max-age=60"), ("Age", "999")]) == 0)
        #expect(until([("Cache-Control", "no-cache, max-age=60")]) == 0)
        #expect(until([("Cache-Control", "max-age=60, No-Store")]) == 0)
        #expect(until([("Cache-Control", "max-age=soon")]) == 0)
        // A shared cache's lifetime is not ours; nothing else said: no word.
        #expect(until([("Cache-Control", "public, s-maxage=600")]) == nil)
        #expect(until([("Content-Type", "application/geo+json")]) == nil)
        #expect(until([("Cache-Control", "max-age=99999999999999999999999")]) == Int64(Int32.max) * 1000)
        // Nameless and empty directives (the http fuzz target's first finding:
        // "=" took the host process down on an index out of range).
        #expect(until([("Cache-Control", "=")]) == nil)
        #expect(until([("Cache-Control", "p,,,=,, max-age=30")]) == 30_000)
        #expect(until([("Cache-Control", "max-age=")]) == 0)
        #expect(until([("Date", "Wed, 21 Oct 2015 07:00:00 GMT"), ("Expires", "Wed, 21 Oct 2015 08:00:00 GMT")]) == 3_600_000)
        #expect(until([("Expires", "Wed, 21 Oct 2015 07:30:00 GMT")]) == 120_000)
        #expect(until([("Expires", "0")]) == 0)
        #expect(until([("Expires", "Wed, 21 Oct 2015 07:00:00 GMT")]) == 0)
        #expect(HTTPDate.epochMilliseconds("Wed, 31 Feb 2015 07:00:00 GMT") == nil)
        #expect(HTTPDate.epochMilliseconds("Wed, 21 Oct 2015 25:00:00 GMT") == nil)
        #expect(HTTPDate.epochMilliseconds("Wed, 21 Oct 2015 -1:00:00 GMT") == nil)
        #expect(HTTPDate.epochMilliseconds("Wed, +1 Oct 2015 07:00:00 GMT") == nil)
        #expect(HTTPDate.epochMilliseconds("Wed, 21 Oct -015 07:00:00 GMT") == nil)
        #expect(HTTPDate.epochMilliseconds("Wed, 1 Oct 2015 07:00:00 GMT") == DateText.epochMilliseconds("2015-10-01T07:00:00Z"))
        #expect(HTTPDate.deltaSeconds("-1") == nil && HTTPDate.deltaSeconds("") == nil && HTTPDate.deltaSeconds("07") == 7)

        var answers = AnswerFreshness()
        #expect(answers.vouchedUntil == nil)
        answers.note(at + 5000)
        answers.note(at + 1000)
        #expect(answers.vouchedUntil == at + 1000)
        answers.note(nil)
        #expect(answers.vouchedUntil == nil)
        var saved = AnswerFreshness(saved: at + 9000)
        saved.merge(AnswerFreshness(saved: at + 3000))
        #expect(saved.vouchedUntil == at + 3000)
        saved.merge(AnswerFreshness(saved: nil))
        #expect(saved.vouchedUntil == nil)
    }

    /// Only a GET's successful answer carries freshness; a POST's answer
    /// leaves the whole unvouched, an error adds nothing.
    @Test func aTableNotesTheFreshnessOfWhatItReceived() async throws {
        let transport = RequestTransport { request, _ in
            let status = request.url.hasSuffix("/missing") ? 404 : 200
            return .success(HTTPResponse(status: status, headers: [("Cache-Control", "max-age=600")], body: []))
        }
        let context = context(transport) { _ in }
        let statistics = StatisticsCounter()
        _ = try await context.send(context.makeRequest(url: "https://h.example.com/a"), counting: statistics)
        _ = try await context.send(context.makeRequest(url: "https://h.example.com/missing"), counting: statistics)
        let fresh = try #require(statistics.freshness.vouchedUntil)
        #expect(abs(fresh - DateText.now - 600_000) < 60_000)
        _ = try await context.send(context.makeRequest(.post, url: "https://h.example.com/q", body: []), counting: statistics)
        #expect(statistics.freshness.vouchedUntil == nil)
    }

    @Test func secretsAreMaskedInMessages() {
        #expect(RequestURL.redacted("http://user:pa55@h.example.com/a?token=t&x=1") == "http://***@h.example.com/a?token=***&x=1")
        #expect(RequestURL.redacted("https://h.example.com/a@b?key=k") == "https://h.example.com/a@b?key=***")
        let request = HTTPRequest(url: "http://user:pa55@h.example.com/a")
        #expect(!request.methodAndURL.contains("pa55"))
    }

    @Test func originsCompareSchemeHostAndPort() {
        #expect(Origin("https://H.example.com/a") == Origin("https://h.example.com:443/b"))
        #expect(Origin("http://h.example.com/") != Origin("http://h.example.com:8080/"))
        #expect(Origin("http://u:p@[::1]:81/x")?.host == "[::1]")
        #expect(Origin("http://[::1]/x")?.port == 80)
        #expect(Origin("ftp://h/") == nil)
        let http = Origin("http://h.example.com/")!
        #expect(Origin("https://h.example.com/")!.mayReceiveCredentials(meantFor: http))
        #expect(!http.mayReceiveCredentials(meantFor: Origin("https://h.example.com/")!))
    }
}
