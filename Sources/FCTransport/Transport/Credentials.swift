// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// What in a request is a credential: headers that authenticate (Authorization,
/// cookies, API keys, tokens — the library's own and any the caller added),
/// secret URL parameters and the same parameters in a form-encoded body.
/// Removed from a request bound for another origin than the caller's.
package enum Credentials {
    /// URL and form parameters that carry secrets (also masked in messages).
    package static let secretParameters: Set<String> = ["token", "apikey", "api_key", "key", "password", "access_token"]

    /// Header names that authenticate: exact names, or names containing one of
    /// the words (X-Esri-Authorization, X-API-Key, X-Auth-Token, X-Session-Id…).
    package static func isCredentialHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        if ["authorization", "proxy-authorization", "cookie"].contains(lower) { return true }
        return ["auth", "token", "key", "secret", "session", "cookie", "password"].contains { lower.contains($0) }
    }

    /// `request` without any credential: credential headers dropped, secret
    /// parameters removed from the URL and from a form body.
    package static func stripped(_ request: HTTPRequest) -> HTTPRequest {
        var copy = request
        copy.headers.removeAll { isCredentialHeader($0.name) }
        if copy.url.contains("?"), var url = try? RequestURL(parsing: copy.url) {
            let before = url.parameters.count
            url.parameters.removeAll { secretParameters.contains($0.name.lowercased()) }
            if url.parameters.count != before { copy.url = url.string }
        }
        if let body = copy.body, request.header("Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            var form = RequestURL(base: "", parameters: RequestURL.decodeQuery(String(decoding: body, as: UTF8.self)))
            let before = form.parameters.count
            form.parameters.removeAll { secretParameters.contains($0.name.lowercased()) }
            if form.parameters.count != before { copy.body = Array(form.query.utf8) }
        }
        return copy
    }
}
