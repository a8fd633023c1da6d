// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Opens documents of features: a JSON answer to the opening probe that holds
/// `features` itself (a GeoJSON FeatureCollection or an Esri JSON FeatureSet).
/// The probe's download is the table's first: the document is fetched once.
package struct FeatureDocumentAdapter: ServiceAdapter {
    package init() {}

    package var describes: String { "a GeoJSON or Esri JSON document of features" }

    /// A copy of the URL's document an earlier run kept under the context's
    /// cache folder (as a table opened from the URL keeps it: the service's
    /// spatial reference, no definition expression): the probe asks whether
    /// it changed rather than download it again.
    package func prepare(_ probe: ServiceProbe) {
        guard let root = probe.context.settings.cacheFolder, !root.isEmpty,
            let url = try? RequestURL(parsing: probe.url)
        else { return }
        let identity = FeatureTable.cacheIdentity(kind: .document, source: url.string, wkid: 0, definitionExpression: "")
        if let answer = PersistedCache.peekKeptAnswer(root: root, identity: identity) {
            probe.kept = (answer, PersistedCache.folder(root: root, identity: identity))
        }
    }

    package func service(for probe: ServiceProbe) async throws(FeatureCacheError) -> FeatureService? {
        let opening: FeatureDocumentSource.Opening?
        if let error = probe.unreachable, let kept = probe.kept {
            opening = .unreachable(kept.answer, error)
        } else if probe.notModified, let kept = probe.kept {
            opening = .notModified(kept.answer, folder: kept.folder)
        } else if probe.holdsFeatures, let response = probe.response {
            // The probe asked with f=json; a URL that names its own format (an
            // ArcGIS query's f=geojson) is the document the caller meant.
            let asked = probe.parsed.value(of: "f") == nil && (try? RequestURL(parsing: probe.url))?.value(of: "f") != nil
            opening = asked ? nil : .answer(response, probe.request)
        } else {
            return nil
        }
        let table = try FeatureTable.document(url: probe.url, context: probe.context, opening: opening)
        let item = ServiceItem(id: table.documentName, name: table.documentName, geometryType: .unknown)
        // One document, one table: the probe's download is its first load's.
        let once = Locked<FeatureTable?>(table)
        let (url, context) = (probe.url, probe.context)
        return FeatureService(
            kind: .document, url: url, title: item.name, items: [item],
            namesOneItem: true
        ) { (_) throws(FeatureCacheError) in
            if let first = once.withLock({ $0.take() }) { return first }
            return try FeatureTable.document(url: url, context: context)
        }
    }
}

extension FeatureTable {
    /// A table on a GeoJSON FeatureCollection or an Esri JSON FeatureSet served
    /// whole at `url`, e.g. `https://host/data/parks.geojson`: loading downloads
    /// it once, and every request mode answers from that copy.
    public static func document(url: String, context: ClientContext = .shared) throws(FeatureCacheError) -> FeatureTable {
        try document(url: url, context: context, opening: nil)
    }

    static func document(
        url: String, context: ClientContext, opening: FeatureDocumentSource.Opening?
    ) throws(FeatureCacheError) -> FeatureTable {
        let statistics = StatisticsCounter()
        let source = FeatureDocumentSource(
            url: try RequestURL(parsing: url), context: context, statistics: statistics, opening: opening)
        return FeatureTable(source: source, context: context, statistics: statistics)
    }

    /// The name a document table takes: its file name without the extension.
    var documentName: String { (source as? FeatureDocumentSource)?.name ?? "" }
}
