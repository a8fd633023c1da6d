// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// The WFS adapter of a feature table: one feature type of a `WFSService`, read
/// as GeoJSON when the server offers it, else as GML (3.2, 3.1.1, 2).
struct WFSFeatureTypeSource: FeatureSource {
    let service: WFSService
    let typeName: String
    let statistics: StatisticsCounter
    /// `gml:id`s and GeoJSON ids (numeric suffixes as is) → stable object ids, for the table's life.
    let identity = FeatureIdentity(numericSuffixes: true)

    /// What loading read, the caller's choices, and what requests have learned.
    struct State {
        var type: WFSFeatureTypeInfo?
        var schema = WFSSchema()
        var version: WFSVersion = .v200
        /// The output format asked for; nil = the server's default (GML).
        var outputFormat: String?
        /// The caller's output format (nil = chosen from the capabilities).
        var preferredFormat: String?
        /// What the capabilities offer for this type (its own list, else the service's).
        var offeredFormats: [String] = []
        var dataAxisOrder: AxisOrder = .auto
        var filterAxisOrder: AxisOrder = .auto
        /// `auto` filter order as the server showed it at load (nil = no evidence).
        var learnedFilterSwap: Bool?
        /// The server refused the srsName it lists for the table's system (an
        /// exception or a 4xx): features come in the type's default system and
        /// are projected here from then on.
        var refusedSRS = false
        /// `auto` data order as decided from the first features, per srsName.
        var learnedSwap: [String: Bool] = [:]
        /// The server refused a filter once: where clauses stay local.
        var filterRefused = false
        /// `gml:id`s look like `prefix.N`: the prefix, for RESOURCEID requests.
        var idPrefix: String?
    }
    let state = Locked(State())

    var kind: ServiceKind { .wfs }
    var urlString: String { service.url }
    var cacheIdentity: String { "\(service.url)#\(typeName)" }
    var reopening: (url: String, name: String?) { (service.url, typeName) }
    var requester: WFSRequester { WFSRequester(context: service.context, statistics: statistics, serviceURL: service.url) }

    func loadMetadata(retrying: Bool) async throws(FeatureCacheError) -> TableMetadata {
        try await service.load(retrying: retrying)
        let capabilities = try service.capabilities()
        guard let type = capabilities.featureType(typeName) else {
            let known = capabilities.featureTypes.prefix(20).map(\.name).joined(separator: ", ")
            throw FeatureCacheError(
                .notFound,
                "the WFS at \(RequestURL.redacted(service.url)) has no feature type '\(typeName)'"
                    + (known.isEmpty ? "" : "; it lists: \(known)"))
        }
        var url = service.requestURL("DescribeFeatureType", version: capabilities.version)
        url.set(capabilities.version.typeNamesParameter, type.name)
        let request = requester.get(url)
        let response = try await requester.send(request)
        let schema = try readBody(response.body, of: request) { _ throws(FeatureCacheError) in
            try WFSSchema.parse(response.body, typeName: type.name)
        }

        var metadata = TableMetadata(name: type.name)
        metadata.description = type.abstract
        metadata.fields = schema.fields
        metadata.geometryType = schema.geometryType
        let wkid = WFSCRS.wkid(of: type.defaultCRS) ?? 4326
        metadata.spatialReference = SpatialReference(wkid: wkid)
        if let box = type.wgs84Box {
            var extent = Envelope(
                xmin: box.xmin, ymin: box.ymin, xmax: box.xmax, ymax: box.ymax, spatialReference: SpatialReference(wkid: 4326))
            if wkid != 4326, let projected = try? extent.projected(to: wkid) { extent = projected }
            metadata.extent = extent
        }
        metadata.maxRecordCount = capabilities.countDefault > 0 ? capabilities.countDefault : 1000
        metadata.maxRecordCountDeclared = capabilities.countDefault > 0
        let offered = type.outputFormats.isEmpty ? capabilities.outputFormats : type.outputFormats
        metadata.sourceFacts[Fact.version.rawValue] = capabilities.version.rawValue
        metadata.sourceFacts[Fact.outputFormats.rawValue] = offered.joined(separator: ",")
        if let geometryPropertyType = schema.geometryPropertyType {
            metadata.sourceFacts[Fact.geometryPropertyType.rawValue] = geometryPropertyType
        }
        metadata.editing = Self.editing(capabilities, type)
        if metadata.editing.isEditable {
            for index in metadata.fields.indices { metadata.fields[index].editable = Self.isWritable(metadata.fields[index]) }
        }
        let preferred = state.withLock { $0.preferredFormat }
        var format = preferred ?? Self.chooseFormat(offered)
        let probes = WFSLoadProbes(source: self, type: type, version: capabilities.version, schema: schema)
        // The gml:id prefix is learned at load, not only from the pages read:
        // a table reopened from its cache names its features (server ids, a
        // Transaction's ids) before it reads a page.
        var idPrefix: String? = nil
        if let chosen = format, Self.isJSON(chosen) {
            // A caller's format stays; what the ids are is learned for it too.
            let evidence = await probes.compareFormats(chosen: chosen, offered: offered)
            if preferred == nil, let exact = evidence.moreExact { format = exact }
            idPrefix = evidence.idPrefix
        } else if state.withLock({ $0.idPrefix }) == nil {
            idPrefix = await probes.gmlIdPrefix(format: format)
        }
        if let idPrefix { state.withLock { $0.idPrefix = $0.idPrefix ?? idPrefix } }
        let filterSwap = await probes.filterSwap(
            wkid: wkid,
            crs: WFSCRS.name(
                for: wkid, listed: [type.defaultCRS] + type.otherCRS,
                version: capabilities.version))
        try Task.checkCancellationTyped()
        state.withLock {
            $0.type = type
            $0.schema = schema
            $0.version = capabilities.version
            $0.offeredFormats = offered
            $0.outputFormat = $0.preferredFormat ?? format
            $0.learnedSwap = [:]
            $0.learnedFilterSwap = filterSwap
            $0.filterRefused = false
        }
        return metadata
    }

    /// GeoJSON when offered, else GML 3.2, 3.1.1, 2; nil = the server's default.
    static func chooseFormat(_ formats: [String]) -> String? {
        let usable = formats.filter { !$0.lowercased().contains("driver=ogr") && !$0.lowercased().contains("zip") }
        let preferences: [(String) -> Bool] = [
            { $0.contains("geojson") || $0.contains("geo+json") || $0 == "application/json" || $0 == "json" },
            { $0.contains("gml/3.2") || $0.contains("version=3.2") || $0 == "gml32" },
            { $0.contains("gml/3.1") || $0 == "gml3" },
            { $0.contains("gml/2") || $0 == "gml2" },
        ]
        for preferred in preferences {
            if let format = usable.first(where: { preferred($0.lowercased()) }) { return format }
        }
        return nil
    }

    static func isJSON(_ format: String?) -> Bool { format?.lowercased().contains("json") ?? false }

    // MARK: - Settings

    var axisOrders: (data: AxisOrder, filter: AxisOrder) { state.withLock { ($0.dataAxisOrder, $0.filterAxisOrder) } }

    func setAxisOrders(data: AxisOrder?, filter: AxisOrder?) {
        state.withLock {
            if let data { $0.dataAxisOrder = data; $0.learnedSwap = [:] }
            if let filter { $0.filterAxisOrder = filter }
        }
    }

    var outputFormat: String? { state.withLock { $0.outputFormat ?? $0.preferredFormat } }

    /// nil = choose from the capabilities (at load, or now when loaded).
    func setOutputFormat(_ format: String?) {
        state.withLock { state in
            state.preferredFormat = format
            if state.type != nil {
                state.outputFormat = format ?? Self.chooseFormat(state.offeredFormats)
            }
        }
    }

    func loaded() throws(FeatureCacheError) -> State {
        let current = state.withLock { $0 }
        guard current.type != nil else { throw FeatureCacheError.invalidState("the feature type is not loaded") }
        return current
    }

    // MARK: - Fetching

    func fetch(
        _ query: QueryParameters, outFields: [String]?, metadata: TableMetadata,
        progress: PopulateProgress?, maxPages: Int?
    ) async throws(FeatureCacheError) -> FetchedFeatures {
        let plan = try WFSGetFeaturePlan(query, source: self, metadata: metadata)
        var pager = WFSPager(plan: plan, source: self, progress: progress, maxPages: maxPages, metadata: metadata)
        do {
            return try await pager.run()
        } catch
            where plan.askedWkid != nil && (error.code == .service || (400..<500).contains(error.httpStatus))
            && PageSink.current?.mayRestart != false
        {
            // A listed srsName the server cannot produce after all: its default
            // system, projected here; a failure then is not the srsName's doing
            // and the first stands.
            let refusal = error
            state.withLock { $0.refusedSRS = true }
            do {
                let inDefault = try WFSGetFeaturePlan(query, source: self, metadata: metadata)
                var again = WFSPager(plan: inDefault, source: self, progress: progress, maxPages: maxPages, metadata: metadata)
                return try await again.run()
            } catch {
                state.withLock { $0.refusedSRS = false }
                throw refusal
            }
        }
    }

    func count(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Int {
        let plan = try WFSGetFeaturePlan(query, source: self, metadata: metadata)
        if query.objectIds.isEmpty, query.maxFeatures == 0, query.resultOffset == 0, plan.serverFiltersExactly(metadata),
            let hits = try await WFSPager(plan: plan, source: self, progress: nil, maxPages: nil, metadata: metadata).hits()
        {
            return hits
        }
        return try await fetch(query, outFields: nil, metadata: metadata, progress: nil, maxPages: nil).featureCount
    }

    func extent(_ query: QueryParameters, metadata: TableMetadata) async throws(FeatureCacheError) -> Envelope? {
        try await extentOfFetched(query, metadata: metadata)
    }

    /// Sends a complete GetFeature document as it is (`fc_wfs_table_populate_xml`)
    /// and reads the one response.
    func fetchXML(_ xml: String, metadata: TableMetadata) async throws(FeatureCacheError) -> FetchedFeatures {
        guard !xml.isEmpty else { throw FeatureCacheError.invalidArgument("the GetFeature XML request is empty") }
        do {
            try XMLElement.parse(Array(xml.utf8), what: "the GetFeature request").requireGetFeature()
        } catch  where error.code == .parse {
            throw FeatureCacheError.invalidArgument(error.message)
        }
        let loaded = try loaded()
        let request = requester.post(service.endpoint, xml: xml, idempotent: false)
        let page = try await WFSPageReader(source: self, state: loaded, metadata: metadata, budget: PageBudget()).read(
            request, askedWkid: nil)
        var fetched = FetchedFeatures()
        fetched.append(page.batch)
        if let matched = page.numberMatched, matched > Int64(page.batch.count) { fetched.limitExceeded = true }
        if page.next != nil { fetched.limitExceeded = true }
        return fetched
    }
}

private extension XMLElement {
    func requireGetFeature() throws(FeatureCacheError) {
        guard name == "GetFeature" else {
            throw FeatureCacheError.invalidArgument("the XML request must be a wfs:GetFeature document (its root is <\(name)>)")
        }
    }
}

// MARK: - The options it declares

extension WFSFeatureTypeSource {
    /// The names callers set and read them by.
    enum Option: String {
        case axisOrder = "axis_order", filterAxisOrder = "filter_axis_order", outputFormat = "output_format"
    }

    var options: [SourceOption] {
        [
            .choice(
                Option.axisOrder.rawValue,
                "The axis order of the coordinates the service sends: auto (from the CRS spelling and WFS version, checked against the type's WGS84 box), swap (y first: swap to x, y) or no_swap.",
                read: { _ in self.axisOrders.data },
                write: { order in self.setAxisOrders(data: order, filter: nil) }),
            .choice(
                Option.filterAxisOrder.rawValue,
                "The axis order of the boxes sent in filters: auto, swap or no_swap.",
                read: { _ in self.axisOrders.filter },
                write: { order in self.setAxisOrders(data: nil, filter: order) }),
            SourceOption(
                name: Option.outputFormat.rawValue,
                summary: "The GetFeature outputFormat (empty: chosen from the capabilities: GeoJSON when offered, else GML 3.2, 3.1.1, 2).",
                values: nil,
                read: { _ in self.outputFormat ?? "" },
                write: { format in self.setOutputFormat(format.isEmpty ? nil : format) }),
            .fact(Fact.version.rawValue, "The WFS version the table speaks: 2.0.0, 1.1.0 or 1.0.0."),
            .fact(Fact.outputFormats.rawValue, "The GetFeature output formats the type (else the service) offers, comma-separated."),
            .fact(
                Fact.geometryPropertyType.rawValue,
                "The GML type the schema gives the geometry property (MultiSurfacePropertyType, PointPropertyType, ...: single and multi parts told apart); empty without one."
            ),
        ]
    }

    /// What only a WFS type says of itself, in the metadata's `sourceFacts`
    /// under the names of the report-only options that show them.
    enum Fact: String {
        case version, outputFormats = "output_formats", geometryPropertyType = "geometry_property_type"
    }

    /// A complete `wfs:GetFeature` document, sent as it is.
    func fetch(nativeRequest: String, metadata: TableMetadata) async throws(FeatureCacheError) -> FetchedFeatures {
        try await fetchXML(nativeRequest, metadata: metadata)
    }
}
