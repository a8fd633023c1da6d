// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

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
    func read(
        _ request: HTTPRequest, askedWkid: Int32?,
        projection: CoordinateTransform? = nil
    ) async throws(FeatureCacheError) -> Page {
        let known = state.dataAxisOrder == .auto ? nil : state.dataAxisOrder == .swap
        let learned = source.state.withLock { $0.learnedSwap.first?.value }
        let swapWhileReading = known ?? learned ?? false
        let streamable = !WFSFeatureTypeSource.isJSON(state.outputFormat)
        let answer = try await source.requester.read(request, streamable: streamable) { answer throws(FeatureCacheError) -> Read in
            switch answer {
            case let .whole(response):
                return try readWhole(response, of: request, swapAxes: swapWhileReading)
            case let .streaming(first, rest):
                return .gml(try await readGML(first, then: rest, of: request, swapAxes: swapWhileReading))
            }
        }
        switch answer {
        case let .page(page):
            return try finish(page, request: request, askedWkid: askedWkid, projection: projection)
        case let .gml(gml):
            var page = Page(batch: gml.batch, numberMatched: gml.numberMatched, numberReturned: gml.numberReturned, next: gml.next)
            if let prefix = gml.idPrefix, state.idPrefix == nil { source.state.withLock { $0.idPrefix = prefix } }
            if known == nil, learned == nil, gml.batch.count > 0 {
                let swap = decideSwap(gml, askedWkid: askedWkid)
                source.state.withLock { $0.learnedSwap[gml.srsName ?? ""] = swap }
                if swap { page.batch = page.batch.mappingCoordinates(.swappingAxes) }
            }
            return try finish(page, request: request, askedWkid: askedWkid, projection: projection)
        }
    }

    /// What an answer was read into: a GeoJSON page (final), or GML whose axis order may still be learned.
    private enum Read {
        case page(Page)
        case gml(GMLPage)
    }

    /// A body that came whole: GeoJSON, nothing, or GML too short to stream.
    private func readWhole(_ response: HTTPResponse, of request: HTTPRequest, swapAxes: Bool) throws(FeatureCacheError) -> Read {
        let fields = state.schema.fields
        if response.body.allSatisfy(XMLBytes.isSpace), WFSFeatureTypeSource.isJSON(state.outputFormat) {
            // MapServer's OGR GeoJSON output writes nothing at all when nothing matches.
            return .page(Page(batch: BatchBuilder(fields: fields, objectIdField: nil).finish(), emptyBody: true))
        }
        guard ServiceResponse.looksLikeJSON(response.body) else {
            return .gml(
                try readBody(response.body, of: request) { bytes throws(FeatureCacheError) in
                    try GMLReader.read(
                        bytes, fields: fields, geometryProperty: state.schema.geometryProperty,
                        identity: source.identity, swapAxes: swapAxes)
                })
        }
        let json = try readBody(response.body, of: request) { bytes throws(FeatureCacheError) in
            try GeoJSONReader.read(bytes, fields: fields, identity: source.identity)
        }
        // GeoJSON ids written as the gml:ids ("trees.17") give their prefix as GML's do.
        if state.idPrefix == nil, let prefix = source.identity.suffixPrefix {
            source.state.withLock { $0.idPrefix = $0.idPrefix ?? prefix }
        }
        var page = Page(batch: json.batch, numberMatched: json.numberMatched, numberReturned: json.numberReturned, next: json.nextLink)
        // GeoJSON is lon/lat by definition; only an explicit swap swaps it.
        if state.dataAxisOrder == .swap { page.batch = page.batch.mappingCoordinates(.swappingAxes) }
        return .page(page)
    }

    /// GML read as it arrives, by a parser of its own: a retry after a broken
    /// connection calls this again and starts afresh.
    private func readGML(
        _ first: [UInt8], then rest: StreamedResponse, of request: HTTPRequest,
        swapAxes: Bool
    ) async throws(FeatureCacheError) -> GMLPage {
        let reader = try GMLReader.Stream(
            fields: state.schema.fields, geometryProperty: state.schema.geometryProperty,
            identity: source.identity, swapAxes: swapAxes)
        var piece: [UInt8]? = first
        while let bytes = piece {
            try readBody(bytes, of: request) { bytes throws(FeatureCacheError) in try reader.feed(bytes) }
            // The transport's errors pass unchanged: a broken connection stays transient, and is retried.
            piece = try await rest.next()
        }
        return try naming(request) { () throws(FeatureCacheError) in try reader.finish() }
    }

    /// The checks and conversions every page goes through, whatever its format.
    private func finish(
        _ page: Page, request: HTTPRequest, askedWkid: Int32?,
        projection: CoordinateTransform?
    ) throws(FeatureCacheError) -> Page {
        var page = page
        source.statistics.update { $0.featuresReceived += page.batch.count }
        try budget.spend(features: page.batch.count, limits: source.service.context.settings.limits, request: request.methodAndURL)
        if let returned = page.numberReturned, returned != Int64(page.batch.count) {
            throw FeatureCacheError(
                .parse, "\(request.methodAndURL): the response says it holds \(returned) features but holds \(page.batch.count)")
        }
        if let askedWkid { page.batch = try inAskedCRS(page.batch, askedWkid: askedWkid, request: request) }
        if let projection { page.batch = page.batch.mappingCoordinates(projection) }
        return page
    }

    /// The page in the CRS its request asked for (SRSNAME). Some servers ignore
    /// SRSNAME in one format (QGIS Server's GeoJSON stays in degrees when metres
    /// are asked): coordinates that fit the type's WGS84 extent in degrees and
    /// not in the asked CRS are projected here, or — when the library cannot
    /// project them — fail the request instead of passing for metres.
    private func inAskedCRS(_ batch: FeatureBatch, askedWkid: Int32, request: HTTPRequest) throws(FeatureCacheError) -> FeatureBatch {
        let defaultWkid = state.type.flatMap { WFSCRS.wkid(of: $0.defaultCRS) } ?? 4326
        let degrees = state.type?.wgs84Box.map { BoundingBox($0.xmin, $0.ymin, $0.xmax, $0.ymax) }
        guard askedWkid != defaultWkid, batch.count > 0, let degrees, let asked = try? degrees.projected(from: 4326, to: askedWkid)
        else { return batch }
        var box = BoundingBox()
        for row in 0..<batch.count { batch.geometry.addBox(of: row, to: &box) }
        guard !box.isEmpty else { return batch }
        guard box.fits(in: degrees, margin: 0.01), !box.fits(in: asked, margin: 1000) else { return batch }
        guard defaultWkid == 4326, let toAsked = try? Projection.transform(from: 4326, to: askedWkid) else {
            throw FeatureCacheError(
                .service,
                "\(request.methodAndURL): asked for EPSG:\(askedWkid) but the coordinates are degrees (they fit the type's WGS84 extent only)"
            )
        }
        return batch.mappingCoordinates(toAsked)
    }

    /// The `auto` axis order of GML coordinates read as written: the rule for the
    /// srsName's spelling, overruled when the type's WGS84 box fits the other order
    /// only (a server breaking its own convention).
    private func decideSwap(_ gml: GMLPage, askedWkid: Int32?) -> Bool {
        let wkid = gml.srsName.flatMap(WFSCRS.wkid) ?? askedWkid ?? metadata.spatialReference?.wkid ?? 4326
        let guess = WFSCRS.guessSwap(srsName: gml.srsName, requested: wkid, version: state.version)
        // The check compares with the type's box in degrees: for geographic CRSs only.
        guard WFSCRS.isGeographic(wkid), let wgs84 = state.type?.wgs84Box else { return guess }
        var box = BoundingBox()
        for row in 0..<gml.batch.count { gml.batch.geometry.addBox(of: row, to: &box) }
        guard !box.isEmpty else { return guess }
        let extent = BoundingBox(wgs84.xmin, wgs84.ymin, wgs84.xmax, wgs84.ymax)
        let asWritten = box.fits(in: extent, margin: 0.01)
        let swapped = box.swapped.fits(in: extent, margin: 0.01)
        if asWritten && !swapped { return false }
        if swapped && !asWritten { return true }
        return guess
    }
}

/// A resumable populate keeps each page the pager took (`PopulateJournal`).
extension WFSPageReader.Page: JournaledPage {
    package func write(to out: inout BinaryWriter) {
        BatchCodec.write(batch, to: &out)
        out.optionalI64(numberMatched)
        out.optionalI64(numberReturned)
        out.optionalString(next)
        out.bool(emptyBody)
    }

    package static func read(from input: inout BinaryReader) throws(FeatureCacheError) -> WFSPageReader.Page {
        WFSPageReader.Page(
            batch: try BatchCodec.read(from: &input), numberMatched: try input.optionalI64(),
            numberReturned: try input.optionalI64(), next: try input.optionalString(), emptyBody: try input.bool())
    }
}
