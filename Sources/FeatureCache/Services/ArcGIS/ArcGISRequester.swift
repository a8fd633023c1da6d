/// Sends ArcGIS REST requests with the context's credentials and decodes the
/// answers (`f=json`), mapping service error bodies to errors.
struct ArcGISRequester: Sendable {
    let context: ClientContext

    func getJSON(_ url: RequestURL) async throws(FeatureCacheError) -> JSONValue {
        var url = url.setting("f", "json")
        var headers: [(name: String, value: String)] = []
        let settings = context.settings
        if let token = settings.token, !token.isEmpty {
            switch settings.tokenPlacement {
            case .header: headers.append(("X-Esri-Authorization", "Bearer \(token)"))
            case .parameter: url.set("token", token)
            }
        }
        let request = context.makeRequest(.get, url: url.string, headers: headers)
        let response = try await context.send(request)
        return try ArcGISResponse.decode(response, request: request)
    }
}
