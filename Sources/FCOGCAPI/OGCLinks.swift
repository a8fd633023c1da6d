// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// The `links` array of an OGC API document: where the server says each
/// resource is, and in which media type. The library asks for a resource at the
/// address the server advertises for the type it wants (`items?f=json` on one
/// server, `items.json` on another, plain `items` on a third) and names that
/// type in `Accept`, instead of appending a fixed `f=json` that one server
/// reads as GeoJSON and another as a plain JSON array.
package struct OGCLinks {
    /// A resource to fetch and the media type its link declares ("" = none).
    package struct Link: Sendable {
        var url: RequestURL
        var type: String = ""
    }

    private let links: [(rel: String, type: String, href: String)]
    private let base: RequestURL

    package init(_ json: JSONValue?, base: RequestURL) {
        self.base = base
        links = (json?.array ?? []).compactMap { link in
            guard let rel = link["rel"]?.string, let href = link["href"]?.string else { return nil }
            return (rel, link["type"]?.string ?? "", href)
        }
    }

    /// The link of relation `rel` (or a registered relation URI ending in it)
    /// in the most wanted media type: one of `types` in that order (compared
    /// without parameters), then any other JSON type, then an untyped link,
    /// then — unless `requireJSON` — any. Relative hrefs are resolved.
    package func link(_ rel: String, types: [String], requireJSON: Bool = false) -> Link? {
        var best: (rank: Int, link: Link)? = nil
        for candidate in links where candidate.rel == rel || candidate.rel.hasSuffix("/" + rel) {
            let type = Self.mediaType(candidate.type)
            let rank: Int
            if let index = types.firstIndex(where: { Self.mediaType($0) == type }) {
                rank = index
            } else if Self.isJSON(type) {
                rank = types.count
            } else if type.isEmpty, !requireJSON {
                rank = types.count + 1
            } else if !requireJSON {
                rank = types.count + 2
            } else {
                continue
            }
            guard best.map({ rank < $0.rank }) ?? true,
                let url = try? URLReference.resolve(candidate.href, against: base.string)
            else { continue }
            best = (rank, Link(url: url, type: candidate.type))
        }
        return best?.link
    }

    /// A JSON document of relation `rel` (landing-page links, `next` pages of `/collections`).
    func document(_ rel: String) -> Link? { link(rel, types: ["application/json"]) }

    /// The feature collection links (`items`, `next` of a page): GeoJSON first.
    func features(_ rel: String) -> Link? { link(rel, types: ["application/geo+json", "application/json"], requireJSON: true) }

    /// A media type without parameters, lower-cased.
    static func mediaType(_ type: String) -> String {
        String(type.prefix { $0 != ";" }).trimmingCharacters(in: " ").lowercased()
    }

    /// `application/json` and the `+json` types that are plain JSON documents
    /// (JSON-LD is not: its features are not GeoJSON).
    static func isJSON(_ type: String) -> Bool {
        let type = mediaType(type)
        return type == "application/json" || (type.hasSuffix("+json") && type != "application/ld+json")
    }
}
