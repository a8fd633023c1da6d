// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Turns an ArcGIS REST response into JSON or into the right error.
///
/// ArcGIS reports most failures as `HTTP 200` with `{"error":{"code":…,"message":…,
/// "details":[…]}}`; token problems are codes 498 (invalid or expired token) and
/// 499 (token required). Proxies and misconfigured servers answer with HTML.
package enum ArcGISResponse {
    static func decode(_ response: HTTPResponse, request: HTTPRequest) throws(FeatureCacheError) -> JSONValue {
        let what = request.methodAndURL
        let looksLikeJSON = ServiceResponse.looksLikeJSON(response.body)
        if response.status >= 400 {
            let service = looksLikeJSON ? (try? JSONValue.parse(response.body)).flatMap(serviceError) : nil
            throw ServiceResponse.httpError(response, request: request, detail: service?.message, serviceCode: service?.code ?? 0)
        }
        guard looksLikeJSON else { throw ServiceResponse.notJSONError(response, request: request) }
        let value: JSONValue
        do {
            value = try JSONValue.parse(response.body)
        } catch {
            throw FeatureCacheError.parse("\(what): \(error.message)")
        }
        if let service = serviceError(value) {
            throw FeatureCacheError(.service, "\(what): \(service.message)", httpStatus: Int32(response.status), serviceCode: service.code)
        }
        return value
    }

    /// The `error` member of an ArcGIS body, with details folded into the message.
    package static func serviceError(_ json: JSONValue) -> (code: Int32, message: String)? {
        guard let error = json["error"], error.isObject else { return nil }
        let code = Int32(clamping: error["code"]?.int ?? 0)
        var message = error["message"]?.string ?? "the service reported an error"
        let details = (error["details"]?.array ?? []).compactMap(\.string).filter { !$0.isEmpty && $0 != message }
        if !details.isEmpty { message += " (" + details.joined(separator: "; ") + ")" }
        switch code {
        case 498: message += " [the token is invalid or has expired]"
        case 499: message += " [the service requires a token]"
        default: break
        }
        return (code, "service error \(code): \(message)")
    }
}
