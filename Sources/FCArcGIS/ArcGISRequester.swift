// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Sends ArcGIS REST requests with the context's credentials (`f=json`), as GET,
/// or as a form-encoded POST when the URL would be longer than servers and
/// proxies reliably accept; decodes metadata answers, mapping error bodies.
struct ArcGISRequester: Sendable {
    /// Longer GET URLs go as POST (IIS's default limit is 2,048; many proxies are lower).
    static let maxGetURLLength = 2000

    let context: ClientContext
    /// The table's counters: every request sent and the bytes received.
    var statistics: StatisticsCounter? = nil
    /// The layer URL the caller gave: the token goes to its origin only.
    let serviceURL: String

    /// A GET, or a form-encoded POST when the URL is too long or `alwaysPost`.
    func request(_ url: RequestURL, alwaysPost: Bool = false) -> HTTPRequest {
        var url = url.setting("f", url.value(of: "f") ?? "json")
        var headers: [(name: String, value: String)] = []
        let settings = context.settings
        if let token = settings.token, !token.isEmpty {
            switch settings.tokenPlacement {
            case .header: headers.append(("X-Esri-Authorization", "Bearer \(token)"))
            case .parameter: url.set("token", token)
            }
        }
        let full = url.string
        guard alwaysPost || full.utf8.count > Self.maxGetURLLength else {
            return context.makeRequest(.get, url: full, headers: headers, credentialsFor: serviceURL)
        }
        headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        return context.makeRequest(.post, url: url.base, headers: headers, body: Array(url.query.utf8), credentialsFor: serviceURL)
    }

    func getJSON(_ url: RequestURL) async throws(FeatureCacheError) -> JSONValue {
        let request = request(url)
        let response = try await send(request)
        return try ArcGISResponse.decode(response, request: request)
    }

    /// Sends a form as a POST that only reads (an operation the service takes
    /// by POST alone, as `extractChanges`): retried like a GET.
    func postReading(_ form: RequestURL) async throws(FeatureCacheError) -> JSONValue {
        let request = request(form, alwaysPost: true)
        let response = try await send(request)
        return try ArcGISResponse.decode(response, request: request)
    }

    /// Sends a form as a POST that is never sent twice by a retry (an edit:
    /// a retried request whose first answer was lost could apply it twice);
    /// decodes the JSON answer, mapping error bodies.
    func post(_ form: RequestURL) async throws(FeatureCacheError) -> JSONValue {
        var request = request(form, alwaysPost: true)
        request.isIdempotent = false
        let response = try await send(request)
        return try ArcGISResponse.decode(response, request: request)
    }

    private func send(_ request: HTTPRequest) async throws(FeatureCacheError) -> HTTPResponse {
        try await context.send(request, counting: statistics)
    }

    /// Sends a request whose answer a streaming reader parses: errors (HTTP
    /// status, non-JSON bodies) are raised here; `read` gets the JSON body and
    /// reports whether it was an error body, which is then decoded into the error.
    func fetch<T>(
        _ url: RequestURL, read: (UnsafeRawBufferPointer) throws(FeatureCacheError) -> (T, isServiceError: Bool)
    ) async throws(FeatureCacheError) -> T {
        let request = request(url)
        let response = try await send(request)
        guard response.status < 400, ServiceResponse.looksLikeJSON(response.body) else {
            _ = try ArcGISResponse.decode(response, request: request)
            throw FeatureCacheError.parse("\(request.methodAndURL): unexpected answer")
        }
        let result = try readBody(response.body, of: request, read)
        if result.isServiceError {
            _ = try ArcGISResponse.decode(response, request: request)
        }
        return result.0
    }

    /// Sends an `f=pbf` request and reads its protocol-buffer answer. Servers
    /// answer errors in JSON whatever was asked (`{"error":…}` with HTTP 200),
    /// so an HTTP error or a JSON body becomes the error it says; anything
    /// else that is not PBF fails in the reader with its byte offset.
    func fetchPBF<T>(_ url: RequestURL, read: (UnsafeRawBufferPointer) throws(FeatureCacheError) -> T) async throws(FeatureCacheError) -> T
    {
        let request = request(url.setting("f", "pbf"))
        let response = try await send(request)
        if response.status >= 400 || ServiceResponse.looksLikeJSON(response.body) {
            _ = try ArcGISResponse.decode(response, request: request)
            throw FeatureCacheError.parse("\(request.methodAndURL): a JSON answer where PBF was asked for")
        }
        if response.body.isEmpty || ServiceResponse.looksLikeMarkup(response.body) {
            throw ServiceResponse.notJSONError(response, request: request, expected: "PBF")
        }
        return try readBody(response.body, of: request, read)
    }
}
