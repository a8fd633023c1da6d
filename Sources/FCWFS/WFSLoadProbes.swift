// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// What a WFS feature type's load asks the server itself, where its documents
/// leave a choice open and servers are known to differ. Each probe is a small
/// request whose answer is evidence; a probe that fails or cannot tell leaves
/// the rule the capabilities give.
///
/// - **Filter axis order** (1.1/2.0, a latitude-first CRS such as EPSG:4326):
///   the standards say lat/lon, MapServer reads boxes that way, QGIS Server
///   reads every box as lon/lat. The type's WGS84 extent is counted
///   (`RESULTTYPE=hits`) as a box in both orders: the order that finds features
///   where the other finds none is the server's. Remembered per service and CRS.
/// - **Output format precision**: some servers write GeoJSON with fewer decimals
///   than their GML (QGIS Server: 6 against the layer's published 8). The first
///   features are asked in both; GeoJSON is kept only when its coordinates carry
///   as many decimals as the GML's.
/// - **Feature ids**: the same two answers tell whether GeoJSON's ids are the
///   `gml:id`s less their prefix (MapServer: `1` for `trees.1`); a table
///   that reads GML asks for its first feature to learn the prefix.
struct WFSLoadProbes {
    let source: WFSFeatureTypeSource
    let type: WFSFeatureTypeInfo
    let version: WFSVersion
    let schema: WFSSchema

    private var service: WFSService { source.service }

    private func hits(corners: [Double], crs: String) async -> Int64? {
        await WFSHits.inBox(corners, crs: crs, source: source, typeName: type.name, version: version)
    }

    /// Whether the server reads filter boxes in `crs` latitude first: true or
    /// false on evidence, nil when it cannot be told (then the standard's rule holds).
    func filterSwap(wkid: Int32, crs: String) async -> Bool? {
        guard version != .v100, WFSCRS.isNorthFirst(wkid), let box = type.wgs84Box,
            box.xmin < box.xmax || box.ymin < box.ymax
        else { return nil }
        let key = "\(version.rawValue) \(crs)"
        if let known = service.filterAxisEvidence.withLock({ $0[key] }) { return known }
        let lonLat = await hits(corners: [box.xmin, box.ymin, box.xmax, box.ymax], crs: crs)
        let latLon = await hits(corners: [box.ymin, box.xmin, box.ymax, box.xmax], crs: crs)
        let swap: Bool
        switch (lonLat ?? 0 > 0, latLon ?? 0 > 0) {
        case (true, false): swap = false
        case (false, true): swap = true
        default: return nil  // both or neither find features: no evidence
        }
        service.filterAxisEvidence.withLock { $0[key] = swap }
        return swap
    }

    /// What the first features say in GeoJSON and in GML, when GeoJSON was
    /// chosen and a GML format is offered too.
    struct FormatEvidence {
        /// The GML format to use instead: its coordinates carry more decimals.
        var moreExact: String?
        /// The part the `gml:id`s add to GeoJSON's bare numeric ids
        /// (MapServer: `1` for `trees.1`), so that the ids the table names
        /// (`fc_table_get_server_id`, a Transaction, RESOURCEID) are the
        /// `gml:id`s: learned only when both answers give the same features
        /// the same numbers, in the same order.
        var idPrefix: String?
    }

    func compareFormats(chosen: String, offered: [String]) async -> FormatEvidence {
        guard WFSFeatureTypeSource.isJSON(chosen),
            let gml = WFSFeatureTypeSource.chooseFormat(offered.filter { !WFSFeatureTypeSource.isJSON($0) }),
            let json = await sample(format: chosen), let other = await sample(format: gml)
        else { return FormatEvidence() }
        var evidence = FormatEvidence()
        if other.decimals > json.decimals {
            evidence.moreExact = gml
            evidence.idPrefix = other.idPrefix
        } else if let prefix = json.idPrefix {
            evidence.idPrefix = prefix  // GeoJSON ids written as gml:ids
        } else if let prefix = other.idPrefix, !json.ids.isEmpty, json.ids == other.ids {
            evidence.idPrefix = prefix
        }
        return evidence
    }

    /// The prefix of the `gml:id`s (`trees.`) from the first feature in
    /// `format` (GML): so that a table reopened from its cache names its
    /// features by their gml:ids before it reads a page again.
    func gmlIdPrefix(format: String?) async -> String? {
        await sample(format: format, count: 1)?.idPrefix
    }

    /// The first features in `format`: their ids, the most decimals any of
    /// their coordinates has, and the prefix their ids had before the number.
    private func sample(format: String?, count: Int = 20) async -> (ids: [Int64], decimals: Int, idPrefix: String?)? {
        var url = service.requestURL("GetFeature", version: version)
        url.set(version.typeNamesParameter, type.name)
        url.set(version.countParameter, String(count))
        if let format { url.set("OUTPUTFORMAT", format) }
        let request = source.requester.get(url)
        guard let response = try? await source.requester.send(request) else { return nil }
        let fields = schema.fields, property = schema.geometryProperty
        let identity = FeatureIdentity(numericSuffixes: true)
        let page: (batch: FeatureBatch, idPrefix: String?)? = try? readBody(response.body, of: request) {
            bytes throws(FeatureCacheError) in
            if ServiceResponse.looksLikeJSON(response.body) {
                return (try GeoJSONReader.read(bytes, fields: fields, identity: identity).batch, identity.suffixPrefix)
            }
            let gml = try GMLReader.read(bytes, fields: fields, geometryProperty: property, identity: identity, swapAxes: false)
            return (gml.batch, gml.idPrefix)
        }
        guard let page, page.batch.count > 0 else { return nil }
        var most = 0
        for row in 0..<page.batch.count {
            let box = page.batch.geometry.box(row)
            for value in [box.xmin, box.ymin, box.xmax, box.ymax] { most = max(most, Self.decimals(value)) }
        }
        return ((0..<page.batch.count).map { page.batch.objectId($0) }, most, page.idPrefix)
    }

    /// Digits after the point in the shortest text that reads back as `value`.
    static func decimals(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        let text = String(value)
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            guard let dot = text.firstIndex(of: ".") else { return 0 }
            let fraction = text[text.index(after: dot)...]
            return fraction == "0" ? 0 : fraction.count
        }
        // d.ddde-N: the mantissa's decimals plus N.
        let mantissa = text[..<e], exponent = Int(text[text.index(after: e)...]) ?? 0
        let fraction = mantissa.firstIndex(of: ".").map { mantissa.distance(from: $0, to: mantissa.endIndex) - 1 } ?? 0
        return max(0, fraction - exponent)
    }
}

/// The count a `RESULTTYPE=hits` answer gives: `numberMatched` (2.0),
/// `numberOfFeatures` (1.1, read as returned), or — from a 1.0 server that
/// ignores hits — the features it sent.
enum WFSHits {
    /// How many features the server counts for `corners` (as sent, first axis
    /// first) under `crs`, nil when it fails to say. A server that ignores
    /// `RESULTTYPE=hits` still sends at most one feature (COUNT=1): that one counts.
    static func inBox(
        _ corners: [Double], crs: String, source: WFSFeatureTypeSource, typeName: String,
        version: WFSVersion
    ) async -> Int64? {
        var url = source.service.requestURL("GetFeature", version: version)
        url.set(version.typeNamesParameter, typeName)
        url.set(version.countParameter, "1")
        url.set("RESULTTYPE", "hits")
        url.set("BBOX", WFSGetFeaturePlan.bboxParameter(corners, crs: crs, version: version))
        let request = source.requester.get(url)
        guard let response = try? await source.requester.send(request) else { return nil }
        return try? counted(response, of: request, identity: source.identity)
    }

    static func counted(_ response: HTTPResponse, of request: HTTPRequest, identity: FeatureIdentity) throws(FeatureCacheError) -> Int64 {
        let page = try readBody(response.body, of: request) { bytes throws(FeatureCacheError) in
            try GMLReader.read(bytes, fields: [], geometryProperty: nil, identity: identity, swapAxes: false)
        }
        return page.numberMatched ?? max(page.numberReturned ?? 0, Int64(page.batch.count))
    }
}
