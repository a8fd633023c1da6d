/// Sends one GetFeature request and reads its answer — GeoJSON or GML, told by
/// the body — into a batch in the table's axis order and spatial reference.
struct WFSPageReader {
    let source: WFSFeatureTypeSource
    let state: WFSFeatureTypeSource.State
    let metadata: TableMetadata
    /// The operation's page budget.
    let budget: PageBudget

    struct Page {
        var batch: FeatureBatch
        var numberMatched: Int64?
        var numberReturned: Int64?
        var next: String?
        /// The body was empty where GeoJSON was asked for: zero features only if
        /// the server's own count confirms it (`WFSPager.confirmEmpty`).
        var emptyBody = false
    }

    /// - Parameter askedWkid: the CRS the request asked for (SRSNAME), nil = the type's default.
    /// - Parameter projection: applied after the axis order (the server could not send the table's CRS).
    func read(_ request: HTTPRequest, askedWkid: Int32?,
              projection: ((Double, Double) -> (Double, Double))? = nil) async throws(FeatureCacheError) -> Page {
        let response = try await source.requester.send(request)
        let identity = source.identity
        let fields = state.schema.fields
        var page: Page
        if response.body.allSatisfy(XMLBytes.isSpace), WFSFeatureTypeSource.isJSON(state.outputFormat) {
            // MapServer's OGR GeoJSON output writes nothing at all when nothing matches.
            page = Page(batch: BatchBuilder(fields: fields, objectIdField: nil).finish(), emptyBody: true)
        } else if ServiceResponse.looksLikeJSON(response.body) {
            let json = try readBody(response.body, of: request) { bytes throws(FeatureCacheError) in
                try GeoJSONReader.read(bytes, fields: fields, identity: identity)
            }
            page = Page(batch: json.batch, numberMatched: json.numberMatched, numberReturned: json.numberReturned, next: json.nextLink)
            // GeoJSON is lon/lat by definition; only an explicit swap swaps it.
            if state.dataAxisOrder == .swap { page.batch = page.batch.mappingCoordinates { ($1, $0) } }
        } else {
            let known = state.dataAxisOrder == .auto ? nil : state.dataAxisOrder == .swap
            let learned = source.state.withLock { $0.learnedSwap.first?.value }
            let swapWhileReading = known ?? learned ?? false
            let geometryProperty = state.schema.geometryProperty
            let gml = try readBody(response.body, of: request) { bytes throws(FeatureCacheError) in
                try GMLReader.read(bytes, fields: fields, geometryProperty: geometryProperty, identity: identity, swapAxes: swapWhileReading)
            }
            page = Page(batch: gml.batch, numberMatched: gml.numberMatched, numberReturned: gml.numberReturned, next: gml.next)
            if let prefix = gml.idPrefix, state.idPrefix == nil { source.state.withLock { $0.idPrefix = prefix } }
            if known == nil, learned == nil, gml.batch.count > 0 {
                let swap = decideSwap(gml, askedWkid: askedWkid)
                source.state.withLock { $0.learnedSwap[gml.srsName ?? ""] = swap }
                if swap { page.batch = page.batch.mappingCoordinates { ($1, $0) } }
            }
        }
        source.statistics.update { $0.featuresReceived += page.batch.count }
        try budget.spend(features: page.batch.count, limits: source.service.context.settings.limits, request: request.methodAndURL)
        if let returned = page.numberReturned, returned != Int64(page.batch.count) {
            throw FeatureCacheError(.parse, "\(request.methodAndURL): the response says it holds \(returned) features but holds \(page.batch.count)")
        }
        if let projection { page.batch = page.batch.mappingCoordinates(projection) }
        return page
    }

    /// The `auto` axis order of GML coordinates read as written: the rule for the
    /// srsName's spelling, overruled when the type's WGS84 box fits the other order
    /// only (a server breaking its own convention).
    private func decideSwap(_ gml: GMLPage, askedWkid: Int32?) -> Bool {
        let wkid = gml.srsName.flatMap(WFSCRS.wkid) ?? askedWkid ?? metadata.spatialReference?.wkid ?? 4326
        let guess = WFSCRS.guessSwap(srsName: gml.srsName, requested: wkid, version: state.version)
        guard WFSCRS.isLatitudeFirst(wkid) || wkid == 4326, let wgs84 = state.type?.wgs84Box else { return guess }
        var box = BoundingBox()
        for row in 0..<gml.batch.count { gml.batch.geometry.addBox(of: row, to: &box) }
        guard !box.isEmpty else { return guess }
        let marginX = max(0.01, (wgs84.xmax - wgs84.xmin) * 0.1), marginY = max(0.01, (wgs84.ymax - wgs84.ymin) * 0.1)
        func fits(_ xmin: Double, _ ymin: Double, _ xmax: Double, _ ymax: Double) -> Bool {
            xmin >= wgs84.xmin - marginX && xmax <= wgs84.xmax + marginX && ymin >= wgs84.ymin - marginY && ymax <= wgs84.ymax + marginY
        }
        let asWritten = fits(box.xmin, box.ymin, box.xmax, box.ymax)
        let swapped = fits(box.ymin, box.xmin, box.ymax, box.xmax)
        if asWritten && !swapped { return false }
        if swapped && !asWritten { return true }
        return guess
    }
}
