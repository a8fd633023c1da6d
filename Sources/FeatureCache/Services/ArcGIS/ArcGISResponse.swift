/// Turns an ArcGIS REST response into JSON or into the right error.
///
/// ArcGIS reports most failures as `HTTP 200` with `{"error":{"code":…,"message":…,
/// "details":[…]}}`; token problems are codes 498 (invalid or expired token) and
/// 499 (token required). Proxies and misconfigured servers answer with HTML.
enum ArcGISResponse {
    static func decode(_ response: HTTPResponse, request: HTTPRequest) throws(FeatureCacheError) -> JSONValue {
        let what = "\(request.method.rawValue) \(request.redactedURL)"
        let looksLikeJSON = looksLikeJSON(response.body)
        let json: JSONValue? = looksLikeJSON ? (try? JSONValue.parse(response.body)) : nil

        if response.status >= 400 {
            var error = FeatureCacheError(.http, "\(what) answered HTTP \(response.status)", httpStatus: Int32(response.status))
            if let json, let service = serviceError(json) {
                error.serviceCode = service.code
                error.message += ": " + service.message
            } else if !response.body.isEmpty {
                error.message += ": " + response.bodyPreview
            }
            throw error
        }
        guard looksLikeJSON else {
            let type = response.header("Content-Type") ?? "no content type"
            let preview = response.body.isEmpty ? "an empty body" : "'\(response.bodyPreview)'"
            throw FeatureCacheError.parse("\(what) did not answer with JSON (\(type)): \(preview)")
        }
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
    static func serviceError(_ json: JSONValue) -> (code: Int32, message: String)? {
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

    static func looksLikeJSON(_ body: [UInt8]) -> Bool {
        body.first(where: { !isWhitespace($0) }).map { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") } ?? false
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
