// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables

/// What every JSON service answer is checked for before its own protocol reads
/// it: an HTTP error status (with the service's own message when its error
/// body gives one, else a preview of the body) and a body that is not JSON
/// (proxies and misconfigured servers answer with HTML).
package enum ServiceResponse {
    /// `FC_E_HTTP` for a status >= 400; `detail` is the service's message from the body.
    package static func httpError(
        _ response: HTTPResponse, request: HTTPRequest, detail: String?, serviceCode: Int32 = 0
    ) -> FeatureCacheError {
        var error = FeatureCacheError(
            .http, "\(request.methodAndURL) answered HTTP \(response.status)",
            httpStatus: Int32(response.status), serviceCode: serviceCode)
        if let detail {
            error.message += ": " + detail
        } else if !response.body.isEmpty {
            error.message += ": " + response.bodyPreview
        }
        return error
    }

    /// `FC_E_PARSE` for a body that is not JSON (or the `expected` format),
    /// naming its content type.
    package static func notJSONError(_ response: HTTPResponse, request: HTTPRequest, expected: String = "JSON") -> FeatureCacheError {
        let type = response.header("Content-Type") ?? "no content type"
        let preview = response.body.isEmpty ? "an empty body" : "'\(response.bodyPreview)'"
        return FeatureCacheError.parse("\(request.methodAndURL) did not answer with \(expected) (\(type)): \(preview)")
    }

    /// The first non-blank byte opens markup (an HTML or XML page).
    package static func looksLikeMarkup(_ body: [UInt8]) -> Bool {
        firstNonBlank(body) == UInt8(ascii: "<")
    }

    private static func firstNonBlank(_ body: [UInt8]) -> UInt8? {
        body.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
    }

    /// The first non-blank byte opens an object or an array.
    package static func looksLikeJSON(_ body: [UInt8]) -> Bool {
        firstNonBlank(body).map { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") } ?? false
    }
}
