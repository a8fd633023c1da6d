// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Sends OGC API requests: each resource asked for in its own media type by
/// `Accept` — GeoJSON for features, the type a link declares (else
/// `application/json`) for documents; no `f=` is added (the URLs come from the
/// server's links, which carry one where the server wants it). CQL2-JSON
/// filters by POST, the context's token as a bearer token; HTTP errors carry
/// the server's exception (`code`/`description`, or RFC 7807 `title`/`detail`).
package struct OGCRequester: Sendable {
    let context: ClientContext
    var statistics: StatisticsCounter? = nil
    /// The API URL the caller gave: the token goes to its origin only (not to
    /// a `next` link or a redirect elsewhere).
    let serviceURL: String

    /// `Accept` of feature requests (`items`, `items/{id}`, their `next` pages).
    static let acceptFeatures = "application/geo+json, application/json;q=0.9"

    /// `Accept` of a document whose link declares `type`: that type first when
    /// it is a JSON type more specific than `application/json`.
    static func acceptDocument(_ type: String) -> String {
        let media = OGCLinks.mediaType(type)
        return media != "application/json" && OGCLinks.isJSON(media) ? "\(type), application/json;q=0.9" : "application/json"
    }

    /// A request for features (`accept` defaults to GeoJSON): a GET, or a POST
    /// of `body`, unless `method` says otherwise (Part 4's PUT, PATCH, DELETE).
    func request(
        _ url: RequestURL, accept: String = acceptFeatures, method: HTTPRequest.Method? = nil,
        post body: (contentType: String, bytes: [UInt8])? = nil
    ) -> HTTPRequest {
        var headers: [(name: String, value: String)] = [("Accept", accept)]
        if let token = context.settings.token, !token.isEmpty { headers.append(("Authorization", "Bearer \(token)")) }
        if let body { headers.append(("Content-Type", body.contentType)) }
        return context.makeRequest(
            method ?? (body == nil ? .get : .post), url: url.string, headers: headers, body: body?.bytes, credentialsFor: serviceURL)
    }

    /// A JSON document (landing page, conformance, collection, queryables, OpenAPI).
    func getJSON(_ link: OGCLinks.Link) async throws(FeatureCacheError) -> JSONValue {
        try await getDocument(link).json
    }

    /// A JSON document and the URL it is at: where redirects settled (a server
    /// adding a trailing slash), which its relative links are relative to.
    func getDocument(_ link: OGCLinks.Link) async throws(FeatureCacheError) -> (json: JSONValue, url: RequestURL) {
        let request = request(link.url, accept: Self.acceptDocument(link.type))
        let response = try await context.send(request, counting: statistics)
        try Self.check(response, request: request)
        do {
            let settled = try response.redirectedURL.map { (url) throws(FeatureCacheError) in try RequestURL(parsing: url) } ?? link.url
            return (try JSONValue.parse(response.body), settled)
        } catch {
            throw FeatureCacheError.parse("\(request.methodAndURL): \(error.message)")
        }
    }

    /// Sends `request` and lends its JSON body to a streaming reader, with the response headers.
    func fetch<T>(
        _ request: HTTPRequest, read: (UnsafeRawBufferPointer) throws(FeatureCacheError) -> T
    ) async throws(FeatureCacheError) -> (T, HTTPResponse) {
        let response = try await context.send(request, counting: statistics)
        try Self.check(response, request: request)
        let value = try readBody(response.body, of: request, read)
        return (value, response)
    }

    /// Raises HTTP errors and non-JSON answers; a JSON exception body with a 200
    /// (no `features`, a `code`) is a service error.
    static func check(_ response: HTTPResponse, request: HTTPRequest) throws(FeatureCacheError) {
        let isJSON = ServiceResponse.looksLikeJSON(response.body)
        // Only error answers and small bodies are parsed here: a page of features
        // is read once, by the streaming reader.
        let worthParsing = isJSON && (response.status >= 400 || response.body.count < 4096)
        let exception = worthParsing ? (try? JSONValue.parse(response.body)).flatMap(Self.exception) : nil
        if response.status >= 400 { throw ServiceResponse.httpError(response, request: request, detail: exception) }
        guard isJSON else { throw ServiceResponse.notJSONError(response, request: request) }
        if let exception {
            throw FeatureCacheError(.service, "\(request.methodAndURL): \(exception)", httpStatus: Int32(response.status))
        }
    }

    /// The message of an OGC API exception body, nil for any other document.
    package static func exception(_ json: JSONValue) -> String? {
        guard json.isObject, json["features"] == nil, json["links"] == nil else { return nil }
        if let code = json["code"]?.string {
            return json["description"]?.string.map { "\(code): \($0)" } ?? code
        }
        if let title = json["title"]?.string, json["status"] != nil || json["detail"] != nil {
            return json["detail"]?.string.map { "\(title): \($0)" } ?? title
        }
        return nil
    }
}
