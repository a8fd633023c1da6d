// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// A layer or table an ArcGIS feature (or map) service lists.
public struct ArcGISLayerSummary: Sendable, Equatable {
    /// The id that addresses it: `…/FeatureServer/<id>`.
    public var id: Int
    public var name: String
    /// `.none` for tables (and group layers, which hold no features).
    public var geometryType: GeometryType
    /// A table: features without geometry.
    public var isTable: Bool
}

/// An ArcGIS REST feature or map service (`…/FeatureServer`, `…/MapServer`):
/// loadable, it reads the service resource (`?f=json`) — description, version,
/// layers and tables. Tables created from it depend on it strongly: loading a
/// table loads its service first, as with the OGC API and WFS services.
public final class ArcGISService: ServiceEndpoint, Loadable, @unchecked Sendable {  // lets of Sendable values only

    /// The most layers and tables read from one service resource (real services
    /// list tens; a server listing millions is refused rather than trusted).
    static let maxLayers = 10_000

    package struct Info: Sendable {
        var description = ""
        var version = 0.0
        var layers: [ArcGISLayerSummary] = []
    }
    private let info = LoadedValue<Info>()

    public init(url: String, context: ClientContext = .shared) throws(FeatureCacheError) {
        var parsed = try RequestURL(parsingService: url)
        while parsed.base.hasSuffix("/") { parsed.base.removeLast() }
        super.init(endpoint: parsed, context: context, label: "arcgis-service")
    }

    public func performLoad(retrying: Bool) async throws(FeatureCacheError) {
        let requester = ArcGISRequester(context: context, serviceURL: url)
        let json = try await requester.getJSON(endpoint)
        let loaded = try Self.parse(json, url: RequestURL.redacted(url))
        try Task.checkCancellationTyped()
        info.set(loaded)
    }

    /// Reads a service resource: its `layers` and `tables` (at least one of them
    /// must be there: a layer resource or another document is not a service).
    package static func parse(_ json: JSONValue, url: String) throws(FeatureCacheError) -> Info {
        guard json.isObject else { throw FeatureCacheError.parse("\(url): a service resource must be a JSON object") }
        let layers = json["layers"]?.array
        let tables = json["tables"]?.array
        guard layers != nil || tables != nil else {
            if json["fields"] != nil {
                throw FeatureCacheError.invalidArgument("\(url) is a layer, not a service: open it as a table")
            }
            throw FeatureCacheError.parse("\(url) is not an ArcGIS feature or map service (no 'layers' or 'tables')")
        }
        guard (layers?.count ?? 0) + (tables?.count ?? 0) <= maxLayers else {
            throw FeatureCacheError(.limit, "\(url) lists more than \(maxLayers) layers and tables")
        }
        var info = Info()
        info.description = json["serviceDescription"]?.string ?? json["description"]?.string ?? ""
        info.version = json["currentVersion"]?.double ?? json["currentVersion"]?.string.flatMap(Double.init) ?? 0
        for (entries, isTable) in [(layers ?? [], false), (tables ?? [], true)] {
            for entry in entries {
                guard let id = entry["id"]?.int, id >= 0, id <= Int64(Int32.max) else { continue }
                let type = entry["type"]?.string ?? ""
                let holdsFeatures = isTable || type.isEmpty || type == "Feature Layer" || type == "Table"
                info.layers.append(
                    ArcGISLayerSummary(
                        id: Int(id), name: entry["name"]?.string ?? String(id),
                        geometryType: isTable || !holdsFeatures ? .none : GeometryType(esriName: entry["geometryType"]?.string),
                        isTable: isTable || type == "Table"))
            }
        }
        return info
    }

    private func loadedInfo() throws(FeatureCacheError) -> Info {
        try info.get(of: self, "ArcGIS service")
    }

    public func serviceDescription() throws(FeatureCacheError) -> String { try loadedInfo().description }
    public func version() throws(FeatureCacheError) -> Double { try loadedInfo().version }
    /// The layers, then the tables, as the service lists them; `.invalidState` until loaded.
    public func layers() throws(FeatureCacheError) -> [ArcGISLayerSummary] { try loadedInfo().layers }

    /// The URL of layer or table `id`.
    func layerURL(_ id: Int) -> RequestURL {
        endpoint.appendingPath(String(id))
    }
}
