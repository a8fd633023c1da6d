// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables

/// One thing a service offers a table on: an ArcGIS layer or table, an OGC API
/// collection, a WFS feature type, a document.
public struct ServiceItem: Sendable, Equatable {
    /// What identifies it to the service: a layer id ("3"), a collection id, a
    /// feature type name ("ms:trees"), a document's name.
    public let id: String
    /// What it is called: a layer's name, a collection's title, a feature type's title.
    public let name: String
    /// As the service's listing says it; `.unknown` when the listing does not say.
    public let geometryType: GeometryType

    public init(id: String, name: String, geometryType: GeometryType) {
        self.id = id
        self.name = name
        self.geometryType = geometryType
    }
}

/// A service opened from a URL alone, whatever its protocol (GDAL's dataset):
/// what it offers, and a table on each item. `FeatureService.open` decides the
/// protocol from what the server answers; each adapter makes its own.
public final class FeatureService: Sendable {
    public let kind: ServiceKind
    /// "ArcGIS", "OGC API", "WFS", "feature document".
    public var kindName: String { kind.name }
    public let url: String
    public let title: String
    public let items: [ServiceItem]
    /// The URL names one item itself (an ArcGIS layer, a document): a caller
    /// naming another made a mistake about the URL (`.invalidArgument`), not
    /// about the service's contents (`.notFound`).
    private let namesOneItem: Bool
    private let makeTable: @Sendable (ServiceItem) throws(FeatureCacheError) -> FeatureTable

    package init(
        kind: ServiceKind, url: String, title: String, items: [ServiceItem], namesOneItem: Bool = false,
        makeTable: @escaping @Sendable (ServiceItem) throws(FeatureCacheError) -> FeatureTable
    ) {
        self.kind = kind
        self.url = url
        self.title = title
        self.items = items
        self.namesOneItem = namesOneItem
        self.makeTable = makeTable
    }

    /// A table (not yet loaded) on the item `name` names — its id, or its name
    /// ignoring case and a WFS prefix — or on the only item when `name` is nil
    /// or empty. `.notFound` for a name the service does not list,
    /// `.invalidArgument` for no name where it lists several.
    public func table(_ name: String?) throws(FeatureCacheError) -> FeatureTable {
        try makeTable(item(named: name.flatMap { $0.isEmpty ? nil : $0 }))
    }

    /// The item `name` names (see `table`).
    public func item(named name: String?) throws(FeatureCacheError) -> ServiceItem {
        // Listed by id, unless the ids are numbers (ArcGIS layer ids), which say less than names.
        let numeric = items.allSatisfy { Int($0.id) != nil }
        let listed = items.prefix(20).map { numeric ? $0.name : $0.id }.joined(separator: ", ") + (items.count > 20 ? ", …" : "")
        let what = items.first.map { _ in kind == .wfs ? "feature type" : kind == .ogcFeatures ? "collection" : "layer" } ?? "item"
        guard let name else {
            guard items.count == 1 else {
                throw FeatureCacheError.invalidArgument("\(RequestURL.redacted(url)) has \(items.count) \(what)s: name one (\(listed))")
            }
            return items[0]
        }
        if let exact = items.first(where: { $0.id == name }) ?? items.first(where: { $0.name == name }) { return exact }
        func plain(_ text: String) -> String { String(text.split(separator: ":").last ?? Substring(text)).lowercased() }
        let matches = items.filter { item in
            [item.id, item.name].contains { $0.lowercased() == name.lowercased() || plain($0) == plain(name) }
        }
        guard matches.count == 1 else {
            if namesOneItem, let only = items.first {
                throw FeatureCacheError.invalidArgument(
                    "\(RequestURL.redacted(url)) is the \(kindName) \(what) '\(only.name)', not '\(name)'")
            }
            if matches.isEmpty {
                throw FeatureCacheError.notFound("\(RequestURL.redacted(url)) has no \(what) '\(name)' (it has: \(listed))")
            }
            throw FeatureCacheError.invalidArgument(
                "\(RequestURL.redacted(url)) has no \(what) '\(name)' (it is ambiguous) (it has: \(listed))")
        }
        return matches[0]
    }
}
