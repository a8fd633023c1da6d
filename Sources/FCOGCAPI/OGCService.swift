// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

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
public final class OGCService: ServiceEndpoint, Loadable, @unchecked Sendable {  // lets of Sendable values only

    struct Info: Sendable {
        var title = ""
        var description = ""
        var conformance: [String] = []
        var collections: [OGCCollectionSummary] = []
        /// What the OpenAPI document says of each collection's items.
        var items = OpenAPIItems()
    }
    private let info = LoadedValue<Info>()

    public init(url: String, context: ClientContext = .shared) throws(FeatureCacheError) {
        try super.init(endpoint: RequestURL(parsingService: url), context: context, label: "ogc-service")
    }

    public func performLoad(retrying: Bool) async throws(FeatureCacheError) {
        let requester = OGCRequester(context: context, serviceURL: url)
        // Relative links are relative to where the page is: where redirects settled.
        let (landing, landingURL) = try await requester.getDocument(.init(url: endpoint))
        guard landing.isObject, landing["links"]?.array != nil else {
            throw FeatureCacheError(.parse, "\(RequestURL.redacted(url)) is not an OGC API landing page (no 'links')")
        }
        var loaded = Info()
        loaded.title = landing["title"]?.string ?? ""
        loaded.description = landing["description"]?.string ?? ""
        let links = OGCLinks(landing["links"], base: landingURL)
        let conformance = try await requester.getJSON(links.document("conformance") ?? .init(url: endpoint.appendingPath("conformance")))
        loaded.conformance = (conformance["conformsTo"]?.array ?? []).compactMap(\.string)
        guard !loaded.conformance.isEmpty else {
            throw FeatureCacheError(.service, "\(RequestURL.redacted(url)): /conformance lists no conformance classes")
        }
        loaded.collections = try await readCollections(
            links.document("data") ?? .init(url: endpoint.appendingPath("collections")), requester)
        try Task.checkCancellationTyped()
        if let openAPI = links.link("service-desc", types: [], requireJSON: true) {
            // Optional: without it, pages are as large as the server's default allows.
            if let document = try? await requester.getJSON(openAPI) {
                loaded.items = OpenAPIItems(document)
            }
        }
        try Task.checkCancellationTyped()
        info.set(loaded)
    }

    private func readCollections(
        _ first: OGCLinks.Link, _ requester: OGCRequester
    ) async throws(FeatureCacheError) -> [OGCCollectionSummary] {
        var result: [OGCCollectionSummary] = []
        var next: OGCLinks.Link? = first
        var seen = Set<String>()
        while let link = next, seen.insert(link.url.string).inserted, seen.count <= 100 {
            let (json, page) = try await requester.getDocument(link)  // page: where redirects settled
            guard let list = json["collections"]?.array else {
                throw FeatureCacheError(.parse, "\(RequestURL.redacted(page.string)): no 'collections' array")
            }
            for entry in list {
                guard let id = entry["id"]?.string ?? entry["id"]?.int.map(String.init) else { continue }
                result.append(
                    OGCCollectionSummary(
                        id: id, title: entry["title"]?.string ?? id,
                        description: entry["description"]?.string ?? ""))
            }
            next = OGCLinks(json["links"], base: page).document("next")
        }
        return result
    }

    private func loadedInfo() throws(FeatureCacheError) -> Info {
        try info.get(of: self, "OGC service")
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
        guard let items = try? loadedInfo().items else { return nil }
        return items.limitMaximum[collection] ?? items.limitMaximum[""]
    }

    /// The feature properties a collection's items filter on by query
    /// parameter (`?Condition=4`, OGC API - Features Part 1 §7.15.5), as its
    /// OpenAPI document lists them.
    func propertyParameters(for collection: String) -> Set<String> {
        guard let items = try? loadedInfo().items else { return [] }
        return items.propertyParameters[collection] ?? items.propertyParameters[""] ?? []
    }

    /// The Part 4 methods the API definition declares for a collection's items
    /// (`post`, `put`, `patch`, `delete`); empty without an API definition.
    func editMethods(for collection: String) -> Set<String> {
        guard let items = try? loadedInfo().items else { return [] }
        return items.editMethods[collection] ?? items.editMethods[""] ?? []
    }

    /// The URL of a collection's resource (`…/collections/{id}`).
    func collectionURL(_ id: String) -> RequestURL {
        endpoint.appendingPath("collections").appendingPath(RequestURL.percentEncode(id))
    }
}
