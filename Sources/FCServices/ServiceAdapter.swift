// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables

/// One protocol the library opens from a URL alone (`FeatureService.open`,
/// `FeatureTable.open`): it reads the evidence the server gave to the opening
/// probe and, when that evidence is its own, makes the service: its items and
/// a table on each. Every adapter lives in its own folder under `Services/`
/// and is registered in `ServiceAdapters.registered`; nothing else needs to
/// know it exists.
package protocol ServiceAdapter: Sendable {
    /// What a URL of this kind is, for the message of a URL no adapter claims
    /// ("an ArcGIS REST service or layer").
    var describes: String { get }
    /// The service (loaded: its items listed) when `probe`'s evidence is this
    /// protocol's; nil when it is not. Throws when the evidence is this
    /// protocol's and says the URL cannot be opened, or when it settles that no
    /// other adapter should be asked (a network failure).
    func service(for probe: ServiceProbe) async throws(FeatureCacheError) -> FeatureService?
    /// Readies the probe before any adapter sends it (a document's copy an
    /// earlier run kept, for the probe to be asked conditionally).
    func prepare(_ probe: ServiceProbe)
}

extension ServiceAdapter {
    package func prepare(_ probe: ServiceProbe) {}
}

/// What a URL gave when asked, gathered once and shared by the adapters the
/// opener asks in turn: the answer to asking it for JSON (`f=json`), which the
/// first adapter that needs it sends, and what each probe found that claimed
/// nothing, for the final message.
package final class ServiceProbe: @unchecked Sendable {  // one opener task uses it, adapter after adapter
    /// The URL as the caller gave it.
    package let url: String
    /// The URL without its `f` parameter.
    package let parsed: RequestURL
    package let context: ClientContext
    /// The JSON answer (HTTP status below 400, a body that opens with `{` or `[`), once asked.
    package var response: HTTPResponse?
    /// The request `response` (or `notModified`) answered.
    package var request: HTTPRequest?
    /// A copy of this URL's answer an earlier run kept (a document of
    /// features, in the context's cache folder), and that folder: the JSON
    /// request is asked conditionally with its validator.
    package var kept: (answer: KeptAnswer, folder: String)?
    /// The server answered the conditional JSON request 304 Not Modified: the
    /// kept answer is the URL's answer now.
    package var notModified = false
    /// The server could not be reached (with a kept answer: it opens offline).
    package var unreachable: FeatureCacheError?
    /// What each probe answered that claimed nothing, in order ("asked for JSON: …").
    package var findings: [String] = []
    private var scannedKeys: [String]?
    private var decoded: JSONValue??

    package init(url: String, context: ClientContext) throws(FeatureCacheError) {
        self.url = url
        self.parsed = try RequestURL(parsingService: url)
        self.context = context
    }

    /// `request` asking whether the kept answer changed, when it is the request
    /// the kept answer came from (the same URL): the validator's headers added.
    package func conditional(_ request: HTTPRequest) -> HTTPRequest {
        guard let validator = kept?.answer.validator, validator.url == request.url, request.method == .get else { return request }
        var asked = request
        asked.headers += validator.conditionalHeaders.filter { header in
            !request.headers.contains { $0.name.lowercased() == header.name.lowercased() }
        }
        return asked
    }

    /// The members of the JSON answer's top-level object, read without building
    /// the document (a feature document may be large); empty for none.
    package var topLevelKeys: [String] {
        if let scannedKeys { return scannedKeys }
        var keys: [String] = []
        if let body = response?.body {
            body.withUnsafeBytes { bytes in
                var scanner = JSONScanner(bytes)
                do throws(FeatureCacheError) {
                    try scanner.beginObject()
                    while try scanner.nextKey(), keys.count < 1000 {
                        keys.append(scanner.key)
                        try scanner.skipValue()
                    }
                } catch {}
            }
        }
        scannedKeys = keys
        return keys
    }

    /// The answer holds features itself (a `features` member): it is a document
    /// of features, not a description of a service.
    package var holdsFeatures: Bool { topLevelKeys.contains("features") }

    /// The JSON answer as a value, for descriptions of services; nil when there
    /// is none, it does not parse, or it holds features (never built for those).
    /// Keeps the JSON answer as an adapter that parsed it already has it.
    package func remember(_ value: JSONValue) { decoded = .some(value) }

    package var json: JSONValue? {
        if let decoded { return decoded }
        let value = holdsFeatures ? nil : response.flatMap { try? JSONValue.parse($0.body) }
        decoded = .some(value)
        return value
    }
}
