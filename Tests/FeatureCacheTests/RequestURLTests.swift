// SPDX-License-Identifier: Apache-2.0
import FeatureCache
import Testing

@Suite struct RequestURLTests {
    @Test func parametersAreEncodedSoNothingCanBeInjected() throws {
        var url = try RequestURL(parsing: "https://h.test/arcgis/rest/services/A/FeatureServer/0")
        url.set("where", "Name = 'A&B' AND x=1&f=html")
        url.set("f", "json")
        #expect(
            url.string
                == "https://h.test/arcgis/rest/services/A/FeatureServer/0?where=Name%20%3D%20%27A%26B%27%20AND%20x%3D1%26f%3Dhtml&f=json")
        #expect(url.parameters.count == 2)
    }

    @Test func existingParametersAreKeptAndReplacedCaseInsensitively() throws {
        var url = try RequestURL(parsing: "http://h.test/layer/0/?F=pjson&token=abc%20d#frag")
        #expect(url.base == "http://h.test/layer/0/")  // the form given: a trailing slash stays (issue 31)
        #expect(url.value(of: "token") == "abc d")
        url.set("f", "json")
        #expect(url.string == "http://h.test/layer/0/?f=json&token=abc%20d")
        #expect(url.appendingPath("query").base == "http://h.test/layer/0/query")
        #expect(try RequestURL(parsing: "http://h.test/layer/0").appendingPath("query").base == "http://h.test/layer/0/query")
    }

    @Test(arguments: ["ftp://h/x", "h.test/layer", "http://", "http:///path", "http://h/with space", "http://h/\u{7}bell", ""])
    func badURLsAreRejected(text: String) {
        #expect(throws: FeatureCacheError.self) { try RequestURL(parsing: text) }
    }

    @Test func secretsAreRedacted() {
        #expect(RequestURL.redacted("http://h/x?f=json&token=s3cret&TOKEN=x") == "http://h/x?f=json&token=***&TOKEN=***")
        #expect(RequestURL.redacted("http://h/x") == "http://h/x")
    }

    /// A URL longer than is shown is cut by bytes: 2,000 characters of
    /// non-ASCII text are 6,000 bytes, and cutting by characters recursed until
    /// the stack ran out (the http fuzz target's second finding, on a Location).
    @Test func aLongNonASCIIURLIsCutByBytes() {
        let url = "http://e/" + String(repeating: "\u{FFFD}", count: 3_000) + "?token=s3cret"
        let shown = RequestURL.redacted(url)
        #expect(shown.hasSuffix("… (\(url.utf8.count) bytes in all)"))
        #expect(shown.utf8.count < RequestURL.maxShownLength + 40)
        #expect(RequestURL.redacted(String(repeating: "a", count: 1_990) + "?token=s3cret").hasSuffix("token=***… (2003 bytes in all)"))
    }
}
