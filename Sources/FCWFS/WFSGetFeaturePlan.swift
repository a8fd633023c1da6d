// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// How one query becomes GetFeature requests: the type, output format and
/// SRSNAME every page shares; the box (KVP `BBOX`, or a FES `BBOX` joined to the
/// where clause under one `And`) in the filter axis order; the part of the where
/// clause the server takes (FES 2.0 or Filter 1.1); and what is checked locally
/// on every page — the whole where clause, the exact spatial relationship,
/// object ids — so a server that filters loosely never makes a wrong answer.
struct WFSGetFeaturePlan {
    let query: QueryParameters
    let state: WFSFeatureTypeSource.State
    let version: WFSVersion
    /// GetFeature KVP with everything but paging (used when `postXML` is nil).
    let url: RequestURL
    /// The filter is too long for a URL: POSTed in a GetFeature document.
    let filterXML: String?
    let pageSize: Int
    /// The CRS asked for with SRSNAME (nil = the type's default).
    let askedWkid: Int32?
    let projection: CoordinateTransform?
    /// The pushed part of the where clause (checked against the first page).
    let pushed: WhereEvaluator?
    /// What each page keeps: the whole query checked locally, offset, max
    /// features (each run starts from a copy).
    let keeper: PageKeeper
    let dropsRowsLocally: Bool
    /// The box as sent, when its axis order is the standard's guess and no
    /// evidence backs it: an empty answer is then checked with the axes swapped.
    let unprovenBox: (corners: [Double], crs: String)?

    /// Past this many characters a filter goes by POST.
    static let maxFilterInURL = 1800

    init(
        _ query: QueryParameters, source: WFSFeatureTypeSource, metadata: TableMetadata,
        pushWhere: Bool = true
    ) throws(FeatureCacheError) {
        let state = try source.loaded()
        self.query = query
        self.state = state
        version = state.version
        let type = state.type!
        let wkid = metadata.spatialReference?.effectiveWkid ?? 4326
        let defaultWkid = WFSCRS.wkid(of: type.defaultCRS) ?? 4326
        var url = source.service.requestURL("GetFeature", version: version)
        url.set(version.typeNamesParameter, type.name)
        if let format = state.outputFormat { url.set("OUTPUTFORMAT", format) }
        let pageSize = max(1, metadata.maxRecordCount)
        self.pageSize = pageSize

        // Output CRS: SRSNAME when the type lists it (and the server has not
        // refused it), else projected here.
        var askedWkid: Int32? = nil
        var projection: CoordinateTransform? = nil
        if wkid != defaultWkid {
            if !state.refusedSRS, type.otherCRS.contains(where: { WFSCRS.wkid(of: $0) == wkid }) {
                askedWkid = wkid
                url.set("SRSNAME", WFSCRS.name(for: wkid, listed: type.otherCRS, version: version))
            } else if let transform = try Projection.transform(from: defaultWkid, to: wkid) {
                projection = transform
            } else {
                throw FeatureCacheError(
                    .unsupported, "the feature type does not offer EPSG:\(wkid) and the library cannot project EPSG:\(defaultWkid) to it")
            }
        }
        self.askedWkid = askedWkid
        self.projection = projection
        let filterWkid = askedWkid ?? defaultWkid

        // Spatial: the query's box in the CRS the server reads it in.
        var box: BoundingBox? = nil
        var exactOnServer = query.geometry == nil
        if query.geometry != nil, query.spatialRelationship != .disjoint {
            let filter = try SpatialFilter(query, tableWkid: wkid)
            var queryBox = filter.box
            if projection != nil {
                // The box around the query's box in the server's system, edges densified:
                // its corners alone would leave out what a rotated edge bulges over.
                queryBox = try queryBox.projected(from: wkid, to: defaultWkid)
            }
            box = queryBox
            exactOnServer =
                filter.isRectangle && (query.spatialRelationship == .intersects || query.spatialRelationship == .envelopeIntersects)
        }
        let swapFilter: Bool
        switch state.filterAxisOrder {
        case .auto:
            let standard = version != .v100 && WFSCRS.isNorthFirst(filterWkid)
            swapFilter = filterWkid == defaultWkid ? state.learnedFilterSwap ?? standard : standard
        case .swap: swapFilter = true
        case .noSwap: swapFilter = false
        }
        let crsName = WFSCRS.name(for: filterWkid, listed: [type.defaultCRS] + type.otherCRS, version: version)
        let corners = box.map { box in
            swapFilter ? [box.ymin, box.xmin, box.ymax, box.xmax] : [box.xmin, box.ymin, box.xmax, box.ymax]
        }
        let unproven =
            state.filterAxisOrder == .auto && version != .v100 && WFSCRS.isNorthFirst(filterWkid)
            && (filterWkid != defaultWkid || state.learnedFilterSwap == nil)
        unprovenBox = unproven ? corners.map { ($0, crsName) } : nil

        // Where: the AND-terms the filter encoding can say go to the server.
        let expression = try WhereParser.parse(query.whereClause)
        if let expression, !metadata.fields.isEmpty { try WhereEvaluator.validate(expression, fields: metadata.fields) }
        let filterVersion = version.filterVersion
        let split = WherePushdown(expression) { FESFilter.translate($0, version: filterVersion) != nil }
        let canFilter = pushWhere && !state.filterRefused
        let server = canFilter ? split.server : nil
        let geometryProperty = state.schema.geometryProperty
        var filterXML: String? = nil
        if let server, let whereBody = FESFilter.translate(server, version: filterVersion) {
            var body = whereBody
            if let corners, let geometryProperty {
                body = Self.bboxElement(corners, crs: crsName, property: geometryProperty, version: filterVersion) + whereBody
                body = "<\(filterVersion.prefix):And>\(body)</\(filterVersion.prefix):And>"
            } else if let corners {
                // No geometry property name to filter on: the box stays a BBOX parameter.
                url.set("BBOX", Self.bboxParameter(corners, crs: crsName, version: version))
            }
            let document = Self.filterDocument(body, version: filterVersion)
            if document.utf8.count > Self.maxFilterInURL {
                filterXML = document
            } else {
                url.set("FILTER", document)
            }
            pushed = WhereEvaluator(server)
        } else {
            if let corners { url.set("BBOX", Self.bboxParameter(corners, crs: crsName, version: version)) }
            pushed = nil
        }
        if !query.objectIds.isEmpty, let prefix = state.idPrefix, filterXML == nil,
            url.value(of: "FILTER") == nil, url.value(of: "BBOX") == nil, version != .v100
        {
            // Features by id (the table's ids are the gml:id suffixes).
            url.set(
                version.isV2 ? "RESOURCEID" : "FEATUREID",
                query.objectIds.compactMap { source.identity.serviceId(for: $0) }.map { prefix + $0 }.joined(separator: ","))
        }
        self.url = url
        self.filterXML = filterXML
        let whereFullyPushed = expression == nil || (pushed != nil && split.local == nil)

        keeper = try PageKeeper(query, fields: metadata.fields, tableWkid: wkid)
        dropsRowsLocally = !whereFullyPushed || !exactOnServer || !query.objectIds.isEmpty
    }

    /// Whether `numberMatched` is the answer's count.
    func serverFiltersExactly(_ metadata: TableMetadata) -> Bool {
        !dropsRowsLocally && (query.geometry == nil || metadata.geometryType == .point)
    }

    /// The request for one page: KVP GET, or the GetFeature document by POST.
    func request(_ source: WFSFeatureTypeSource, count: Int?, startIndex: Int, hits: Bool = false) -> HTTPRequest {
        if let filterXML {
            return source.requester.post(
                source.service.endpoint, xml: getFeatureDocument(filterXML, count: count, startIndex: startIndex, hits: hits))
        }
        var url = url
        if let count { url.set(version.countParameter, String(count)) }
        if startIndex > 0 { url.set("STARTINDEX", String(startIndex)) }
        if hits {
            url.set("RESULTTYPE", "hits")
            url.remove("OUTPUTFORMAT")
        }
        return source.requester.get(url)
    }

    private func getFeatureDocument(_ filter: String, count: Int?, startIndex: Int, hits: Bool) -> String {
        let type = state.type!
        let namespaces =
            version.isV2
            ? "xmlns:wfs=\"http://www.opengis.net/wfs/2.0\" xmlns:fes=\"http://www.opengis.net/fes/2.0\" xmlns:gml=\"http://www.opengis.net/gml/3.2\""
            : "xmlns:wfs=\"http://www.opengis.net/wfs\" xmlns:ogc=\"http://www.opengis.net/ogc\" xmlns:gml=\"http://www.opengis.net/gml\""
        var attributes = "service=\"WFS\" version=\"\(version.rawValue)\""
        if !hits, let format = url.value(of: "OUTPUTFORMAT") { attributes += " outputFormat=\"\(FESFilter.escape(format))\"" }
        if let count { attributes += version.isV2 ? " count=\"\(count)\"" : " maxFeatures=\"\(count)\"" }
        if startIndex > 0 { attributes += " startIndex=\"\(startIndex)\"" }
        if hits { attributes += " resultType=\"hits\"" }
        var typePrefix = ""
        if let colon = type.name.firstIndex(of: ":"), !state.schema.targetNamespace.isEmpty {
            typePrefix = " xmlns:\(type.name[..<colon])=\"\(FESFilter.escape(state.schema.targetNamespace))\""
        }
        let srs = url.value(of: "SRSNAME").map { " srsName=\"\(FESFilter.escape($0))\"" } ?? ""
        let typeAttribute = version.isV2 ? "typeNames" : "typeName"
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><wfs:GetFeature \(attributes) \(namespaces)\(typePrefix)>"
            + "<wfs:Query \(typeAttribute)=\"\(FESFilter.escape(type.name))\"\(srs)>\(filter)</wfs:Query></wfs:GetFeature>"
    }

    static func filterDocument(_ body: String, version: FESFilter.Version) -> String {
        let gml = version == .fes20 ? "http://www.opengis.net/gml/3.2" : "http://www.opengis.net/gml"
        return
            "<\(version.prefix):Filter xmlns:\(version.prefix)=\"\(version.namespace)\" xmlns:gml=\"\(gml)\">\(body)</\(version.prefix):Filter>"
    }

    static func bboxElement(_ corners: [Double], crs: String, property: String, version: FESFilter.Version) -> String {
        let p = version.prefix
        let n = corners.map(JSONNumberText.shortest)
        if version == .filter10 {
            return "<\(p):BBOX><\(p):PropertyName>\(FESFilter.escape(property))</\(p):PropertyName>"
                + "<gml:Box srsName=\"\(FESFilter.escape(crs))\"><gml:coordinates>\(n[0]),\(n[1]) \(n[2]),\(n[3])</gml:coordinates></gml:Box></\(p):BBOX>"
        }
        return "<\(p):BBOX><\(p):\(version.propertyElement)>\(FESFilter.escape(property))</\(p):\(version.propertyElement)>"
            + "<gml:Envelope srsName=\"\(FESFilter.escape(crs))\"><gml:lowerCorner>\(n[0]) \(n[1])</gml:lowerCorner>"
            + "<gml:upperCorner>\(n[2]) \(n[3])</gml:upperCorner></gml:Envelope></\(p):BBOX>"
    }

    static func bboxParameter(_ corners: [Double], crs: String, version: WFSVersion) -> String {
        let numbers = corners.map(JSONNumberText.shortest).joined(separator: ",")
        return version == .v100 ? numbers : numbers + "," + crs
    }
}
