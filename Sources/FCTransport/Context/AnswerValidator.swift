// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// What revalidates one answer (RFC 9110 §8.8, RFC 9111 §4.3): the URL that
/// was asked with GET, the validators the answer carried (`ETag`,
/// `Last-Modified`), and the `Accept` it was asked with (the same
/// representation is asked again). A URL that carries a credential is never
/// kept (it would be written to disk): such an answer has no validator here.
package struct AnswerValidator: Sendable, Equatable {
    package var url: String
    package var etag: String?
    package var lastModified: String?
    package var accept: String?

    package init(url: String, etag: String?, lastModified: String?, accept: String?) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.accept = accept
    }

    /// The validator of a successful answer to `request`; nil when it cannot
    /// be asked again conditionally (not a GET, no validator, a credential in
    /// its URL, a weak or oversized value).
    package static func of(_ response: StreamedResponse, to request: HTTPRequest) -> AnswerValidator? {
        of(headers: response.headers, to: request)
    }

    package static func of(_ response: HTTPResponse, to request: HTTPRequest) -> AnswerValidator? {
        of(headers: response.headers, to: request)
    }

    private static func of(headers: [(name: String, value: String)], to request: HTTPRequest) -> AnswerValidator? {
        guard request.method == .get, RequestURL.redacted(request.url) == request.url else { return nil }
        let etag = firstHeader("ETag", in: headers).flatMap(usable)
        let lastModified = firstHeader("Last-Modified", in: headers).flatMap(usable)
        guard etag != nil || lastModified != nil else { return nil }
        let accept = request.headers.first { $0.name.lowercased() == "accept" }?.value
        return AnswerValidator(url: request.url, etag: etag, lastModified: lastModified, accept: accept)
    }

    /// The headers that ask whether the answer changed: `If-None-Match` wins
    /// over `If-Modified-Since` at the server (RFC 9110 §13.2.2); both are sent.
    package var conditionalHeaders: [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let etag { headers.append(("If-None-Match", etag)) }
        if let lastModified { headers.append(("If-Modified-Since", lastModified)) }
        if let accept { headers.append(("Accept", accept)) }
        return headers
    }

    /// The validator after a 304 to it: the 304's own validators replace the
    /// stored ones (RFC 9111 §4.3.4); a 304 without them keeps the stored ones.
    package func renewed(by response: HTTPResponse) -> AnswerValidator {
        var updated = self
        if let etag = response.header("ETag").flatMap(Self.usable) { updated.etag = etag }
        if let modified = response.header("Last-Modified").flatMap(Self.usable) { updated.lastModified = modified }
        return updated
    }

    /// Longest validator kept: real ones are tens of bytes.
    package static let maxLength = 512

    private static func usable(_ value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: " \t")
        guard !trimmed.isEmpty, trimmed.utf8.count <= maxLength,
            !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return trimmed
    }
}
