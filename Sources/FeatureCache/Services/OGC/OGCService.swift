/// A collection an OGC API - Features service lists.
public struct OGCCollectionSummary: Sendable, Equatable {
    public var id: String
    public var title: String
    public var description: String
}

/// An OGC API - Features service (its landing page): loadable, it reads the
/// landing page, `/conformance`, `/collections` and, when offered as JSON, the
/// OpenAPI document (for the largest `limit` each collection's items accept).
/// Collection tables created from it depend on it strongly, as a portal item on
/// its portal: loading a table loads its service first.
public final class OGCService: Loadable {
    public let loadMachine = LoadMachine(label: "ogc-service")
    public let context: ClientContext
    let apiURL: RequestURL

    struct Info: Sendable {
        var title = ""
        var description = ""
        var conformance: [String] = []
        var collections: [OGCCollectionSummary] = []
        /// The OpenAPI `limit` maximum of a collection's items ("" = of any collection).
        var limitMaximum: [String: Int] = [:]
    }
    private let info = Locked<Info?>(nil)

    public init(url: String, context: ClientContext = .shared) throws(FeatureCacheError) {
        var parsed = try RequestURL(parsing: url)
        parsed.remove("f")
        apiURL = parsed
        self.context = context
    }

    public var url: String { apiURL.string }

    public func performLoad(retrying: Bool) async throws(FeatureCacheError) {
        let requester = OGCRequester(context: context, serviceURL: apiURL.string)
        let landing = try await requester.getJSON(.init(url: apiURL))
        guard landing.isObject, landing["links"]?.array != nil else {
            throw FeatureCacheError(.parse, "\(RequestURL.redacted(apiURL.string)) is not an OGC API landing page (no 'links')")
        }
        var loaded = Info()
        loaded.title = landing["title"]?.string ?? ""
        loaded.description = landing["description"]?.string ?? ""
        let links = OGCLinks(landing["links"], base: apiURL)
        let conformance = try await requester.getJSON(links.document("conformance") ?? .init(url: apiURL.appendingPath("conformance")))
        loaded.conformance = (conformance["conformsTo"]?.array ?? []).compactMap(\.string)
        guard !loaded.conformance.isEmpty else {
            throw FeatureCacheError(.service, "\(RequestURL.redacted(apiURL.string)): /conformance lists no conformance classes")
        }
        loaded.collections = try await readCollections(links.document("data") ?? .init(url: apiURL.appendingPath("collections")), requester)
        try Task.checkCancellationTyped()
        if let openAPI = links.link("service-desc", types: [], requireJSON: true) {
            // Optional: without it, pages are as large as the server's default allows.
            if let document = try? await requester.getJSON(openAPI) {
                loaded.limitMaximum = OpenAPILimits.itemsLimitMaximum(document)
            }
        }
        try Task.checkCancellationTyped()
        info.withLock { $0 = loaded }
    }

    private func readCollections(_ first: OGCLinks.Link, _ requester: OGCRequester) async throws(FeatureCacheError) -> [OGCCollectionSummary] {
        var result: [OGCCollectionSummary] = []
        var next: OGCLinks.Link? = first
        var seen = Set<String>()
        while let link = next, seen.insert(link.url.string).inserted, seen.count <= 100 {
            let page = link.url
            let json = try await requester.getJSON(link)
            guard let list = json["collections"]?.array else {
                throw FeatureCacheError(.parse, "\(RequestURL.redacted(page.string)): no 'collections' array")
            }
            for entry in list {
                guard let id = entry["id"]?.string ?? entry["id"]?.int.map(String.init) else { continue }
                result.append(OGCCollectionSummary(id: id, title: entry["title"]?.string ?? id,
                                                   description: entry["description"]?.string ?? ""))
            }
            next = OGCLinks(json["links"], base: page).document("next")
        }
        return result
    }

    private func loadedInfo() throws(FeatureCacheError) -> Info {
        try requireLoaded("OGC service")
        guard let info = info.withLock({ $0 }) else { throw FeatureCacheError.invalidState("the OGC service is not loaded") }
        return info
    }

    public var title: String { (try? loadedInfo().title) ?? "" }
    public var serviceDescription: String { (try? loadedInfo().description) ?? "" }
    /// The collections the service lists; `.invalidState` until loaded.
    public func collections() throws(FeatureCacheError) -> [OGCCollectionSummary] { try loadedInfo().collections }
    public func conformance() throws(FeatureCacheError) -> [String] { try loadedInfo().conformance }

    /// Whether a conformance class whose URI ends with `suffix` is declared.
    func conforms(_ suffix: String) -> Bool {
        (try? loadedInfo().conformance.contains { $0.hasSuffix(suffix) }) ?? false
    }

    /// The largest `limit` the items of `collection` accept, when the OpenAPI document says.
    func limitMaximum(for collection: String) -> Int? {
        guard let limits = try? loadedInfo().limitMaximum else { return nil }
        return limits[collection] ?? limits[""]
    }

    /// The URL of a collection's resource (`…/collections/{id}`).
    func collectionURL(_ id: String) -> RequestURL {
        apiURL.appendingPath("collections").appendingPath(RequestURL.percentEncode(id))
    }
}

/// Reads the largest `limit` an OpenAPI 3 document allows on items paths.
enum OpenAPILimits {
    /// By collection id ("" = a `{collectionId}` template path or the shared parameter).
    static func itemsLimitMaximum(_ document: JSONValue) -> [String: Int] {
        var result: [String: Int] = [:]
        let shared = document["components"]?["parameters"]
        if let limit = shared?["limit"], let maximum = maximum(limit, shared: shared) { result[""] = maximum }
        for (path, item) in document["paths"]?.members ?? [] {
            guard path.hasPrefix("/collections/"), path.hasSuffix("/items") else { continue }
            let id = String(path.dropFirst("/collections/".count).dropLast("/items".count))
            guard !id.contains("/") else { continue }
            for parameter in item["get"]?["parameters"]?.array ?? [] {
                guard let resolved = resolve(parameter, shared: shared), resolved["name"]?.string == "limit",
                      let maximum = maximum(resolved, shared: shared) else { continue }
                result[id.hasPrefix("{") ? "" : RequestURL.percentDecode(id)] = maximum
            }
        }
        return result
    }

    private static func resolve(_ parameter: JSONValue, shared: JSONValue?) -> JSONValue? {
        guard let ref = parameter["$ref"]?.string else { return parameter }
        guard ref.hasPrefix("#/components/parameters/") else { return nil }
        return shared?[String(ref.dropFirst("#/components/parameters/".count))]
    }

    private static func maximum(_ parameter: JSONValue, shared: JSONValue?) -> Int? {
        guard let value = parameter["schema"]?["maximum"]?.int, value > 0 else { return nil }
        return Int(clamping: value)
    }
}
