// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Sends WFS requests (KVP GET or XML POST) and checks the answers: an HTTP
/// error or an OWS exception report — which servers send with status 200 as
/// often as with 400 — becomes an error carrying the server's code and text.
struct WFSRequester: Sendable {
    let context: ClientContext
    var statistics: StatisticsCounter? = nil
    /// The service URL the caller gave: credentials go to its origin only.
    let serviceURL: String

    func get(_ url: RequestURL) -> HTTPRequest {
        context.makeRequest(.get, url: url.string, headers: [], credentialsFor: serviceURL)
    }

    /// A POSTed document; `idempotent` false for one the caller wrote (it may
    /// be a transaction: never sent twice).
    func post(_ url: RequestURL, xml: String, idempotent: Bool = true) -> HTTPRequest {
        var request = context.makeRequest(
            .post, url: url.string, headers: [("Content-Type", "text/xml; charset=UTF-8")],
            body: Array(xml.utf8), credentialsFor: serviceURL)
        request.isIdempotent = idempotent
        return request
    }

    /// Sends and checks; the body is the caller's to read.
    func send(_ request: HTTPRequest) async throws(FeatureCacheError) -> HTTPResponse {
        let response = try await context.send(request, counting: statistics)
        try Self.check(response, request: request)
        return response
    }

    /// An answer as `read(_:_:)` hands it over.
    enum Answer {
        /// Checked and whole: JSON, an empty body, or anything not GML.
        case whole(HTTPResponse)
        /// A successful XML body, not an exception report: its first bytes,
        /// then the rest from the response as it arrives.
        case streaming(first: [UInt8], rest: StreamedResponse)
    }

    /// Sends and reads the answer as it arrives: an XML body that starts like
    /// a feature collection is streamed to `read` (so a GetFeature response of
    /// any size is never held whole); errors, exception reports and JSON come
    /// whole and checked. `read` may be called again after a connection broke
    /// mid-body (a retry): it must start afresh each time.
    /// - Parameter streamable: false when JSON was asked for: the answer is
    ///   received whole, by the transfer itself, as every JSON answer is.
    func read<Read>(
        _ request: HTTPRequest, streamable: Bool,
        _ read: (Answer) async throws(FeatureCacheError) -> Read
    ) async throws(FeatureCacheError) -> Read {
        guard streamable else { return try await read(.whole(try await send(request))) }
        return try await context.send(request, counting: statistics) { response throws(FeatureCacheError) in
            // Enough of the body to tell an exception report or JSON from GML.
            var first: [UInt8] = []
            while first.count < WFSException.headBytes, let piece = try await response.next() { first += piece }
            let isJSON = ServiceResponse.looksLikeJSON(first)
            guard (200..<300).contains(response.status), !isJSON, !first.allSatisfy(XMLBytes.isSpace),
                !WFSException.looksLikeException(first)
            else {
                let whole = try await response.collect(after: first)
                try Self.check(whole, request: request)
                return try await read(.whole(whole))
            }
            return try await read(.streaming(first: first, rest: response))
        }
    }

    static func check(_ response: HTTPResponse, request: HTTPRequest) throws(FeatureCacheError) {
        let exception =
            WFSException.looksLikeException(response.body)
            ? (try? XMLElement.parse(response.body)).flatMap(WFSException.init) : nil
        if response.status >= 400 {
            throw ServiceResponse.httpError(
                response, request: request,
                detail: exception.map { [$0.code, $0.text].filter { !$0.isEmpty }.joined(separator: ": ") })
        }
        if let exception {
            var error = exception.error(status: Int32(response.status))
            error.message = "\(request.methodAndURL): \(error.message)"
            throw error
        }
    }
}
