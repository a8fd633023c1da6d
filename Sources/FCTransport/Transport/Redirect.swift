// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Redirects, followed by the library itself rather than by libcurl, so that
/// every hop is checked: only http and https, never from https down to http,
/// at most `maxHops`, and credentials only while the request stays at the
/// caller's origin (libcurl would forward custom headers such as
/// X-Esri-Authorization, and a token parameter, to any host).
package enum Redirect {
    package static let maxHops = 5

    /// The request to send after `response`; nil when it is no redirect.
    package static func next(after request: HTTPRequest, _ response: HTTPResponse) throws(FeatureCacheError) -> HTTPRequest? {
        guard [301, 302, 303, 307, 308].contains(response.status) else { return nil }
        guard let location = response.header("Location")?.trimmingCharacters(in: " \t"), !location.isEmpty else {
            throw .protocol("\(request.methodAndURL) answered HTTP \(response.status) without a Location to follow")
        }
        let target = try resolve(location, against: request)
        var next = request
        next.url = target
        if response.status == 303, request.method == .post {
            // "See other": fetch the answer with GET. 301 and 302 keep a POST a
            // POST (curl's POSTREDIR behaviour): a query form turned into a bare
            // GET would ask the server something else.
            next.method = .get
            next.body = nil
            next.headers.removeAll { $0.name.lowercased() == "content-type" }
        }
        // A target whose origin cannot be told gets no credentials either.
        if let trusted = request.credentialOrigin, !(Origin(target)?.mayReceiveCredentials(meantFor: trusted) ?? false) {
            next = Credentials.stripped(next)
        }
        return next
    }

    /// `location` made absolute against the request's URL, and checked: only
    /// http and https, never from https down to http.
    package static func resolve(_ location: String, against request: HTTPRequest) throws(FeatureCacheError) -> String {
        let absolute: String
        do {
            absolute = try URLReference.resolve(location, against: request.url).string
        } catch {
            throw .protocol("\(request.methodAndURL) redirects to \(error.message)")
        }
        if Origin(request.url)?.scheme == "https", Origin(absolute)?.scheme == "http" {
            throw .protocol(
                "\(request.methodAndURL) redirects from https to http (\(RequestURL.redacted(absolute))): refused, it would send the request in clear text"
            )
        }
        return absolute
    }
}
