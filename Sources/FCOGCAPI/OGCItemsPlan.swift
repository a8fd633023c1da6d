// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// How one query becomes `items` requests: the parameters every page shares
/// (`bbox`, `bbox-crs`, `crs`), the part of the where clause a server may take,
/// and what is checked locally on every page — the whole where clause, the exact
/// spatial relationship, object ids — so a server that filters loosely, or not
/// at all, never makes a wrong answer.
struct OGCItemsPlan {
    let query: QueryParameters
    /// `…/items` with the shared parameters (no filter, limit or offset).
    let itemsURL: RequestURL
    /// The largest page to ask for.
    let pageSize: Int
    /// The `crs` asked for, when not CRS84.
    let askedCRS: String?
    /// Items arrive in CRS84 but the table wants another spatial reference.
    let projection: CoordinateTransform?
    /// The part of the where clause to send (nil = none), as CQL2 text and CQL2-JSON.
    let pushed: (text: String, json: String, check: WhereEvaluator)?
    /// What each page keeps: the whole query checked locally, offset, max
    /// features (each run starts from a copy).
    let keeper: PageKeeper
    /// Whether the local check may drop rows the server sent even when it
    /// filters correctly (part of the clause or the exact relationship is local).
    let dropsRowsLocally: Bool
    /// Integers went as `name=value` parameters: an empty answer is checked
    /// without them (`OGCCollectionSource.fetch`).
    let sentIntegerParameters: Bool

    /// `integers`: integer equalities may go as query parameters (not once
    /// the server was found to compare them wrongly, nor when an empty answer
    /// is being checked).
    init(_ query: QueryParameters, source: OGCCollectionSource, metadata: TableMetadata, integers: Bool = true) throws(FeatureCacheError) {
        let info = try source.loadedInfo()
        self.query = query
        let wkid = metadata.spatialReference?.effectiveWkid ?? 4326
        var url = info.itemsURL
        pageSize = max(1, metadata.maxRecordCount)

        // Output CRS: asked of the server when it lists it (and has not refused
        // it), else projected here.
        var askedCRS: String? = nil
        var projection: CoordinateTransform? = nil
        if wkid != 4326 {
            if !source.state.withLock({ $0.refusedCRS }), let listed = info.crs.first(where: { CRSURI.wkid(of: $0) == wkid }) {
                askedCRS = listed
                url.set("crs", listed)
            } else if let transform = try Projection.transform(from: 4326, to: wkid) {
                projection = transform
            }
        }
        self.askedCRS = askedCRS
        self.projection = projection

        // Spatial: the query's box goes to the server in CRS84 (or as bbox-crs).
        var exactOnServer = query.geometry == nil
        if query.geometry != nil, query.spatialRelationship != .disjoint {
            let filter = try SpatialFilter(query, tableWkid: wkid)
            var box = filter.box
            if wkid != 4326, let inCRS84 = try? box.projected(from: wkid, to: 4326) {
                box = inCRS84  // densified: a UTM box's edges bend in lon/lat
            } else if wkid != 4326 {
                guard source.service.conforms("/conf/crs") else {
                    throw FeatureCacheError(
                        .unsupported,
                        "the server cannot take a bbox in EPSG:\(wkid) (no OGC API - Features Part 2) and the library cannot project it")
                }
                url.set("bbox-crs", CRSURI.uri(for: wkid))
            }
            url.set("bbox", [box.xmin, box.ymin, box.xmax, box.ymax].map(JSONNumberText.shortest).joined(separator: ","))
            exactOnServer =
                filter.isRectangle && (query.spatialRelationship == .intersects || query.spatialRelationship == .envelopeIntersects)
        }

        // Where: the translatable AND-terms go to the server when it may filter.
        let expression = try WhereParser.parse(query.whereClause)
        if let expression, !metadata.fields.isEmpty { try WhereEvaluator.validate(expression, fields: metadata.fields) }
        let split = WherePushdown(expression) { CQL2Text.translate($0) != nil && CQL2JSON.translate($0) != nil }
        var sentIntegers = false
        if expression != nil, !source.filterDialects().isEmpty, let server = split.server,
            let text = CQL2Text.translate(server), let json = CQL2JSON.translate(server)
        {
            pushed = (text, json, WhereEvaluator(server))
        } else {
            pushed = nil
            // No CQL: equalities on properties the server filters by parameter go
            // as `name=value` (unless the caller asked for local evaluation).
            if let expression, source.queryLanguage == .auto {
                let trusted = integers && !source.state.withLock { $0.integerParametersMiscompared }
                for (name, value, isInteger) in Self.propertyEqualities(
                    expression, offered: source.service.propertyParameters(for: source.collectionId))
                where trusted || !isInteger {
                    url.set(name, value)
                    sentIntegers = sentIntegers || isInteger
                }
            }
        }
        sentIntegerParameters = sentIntegers
        let whereFullyPushed = expression == nil || (pushed != nil && split.local == nil)

        itemsURL = url
        keeper = try PageKeeper(query, fields: metadata.fields, tableWkid: wkid)
        dropsRowsLocally = !whereFullyPushed || !exactOnServer
    }

    /// The AND-terms `property = literal` whose property the server lists as
    /// a query parameter, as `name=value` pairs, integers marked. Only
    /// integers and text: their text is the value itself, where a double or a
    /// date could be written another way than the server compares and lose
    /// features. Integers are a risk all the same - a parameter is text, and
    /// servers compare it with numbers as they please (pygeoapi's TinyDB finds
    /// no `Status=2` where Status is the number 2) - so an empty answer to a
    /// query that sent one is checked without it. The whole clause is checked
    /// here on every page either way.
    static func propertyEqualities(_ expression: WhereExpression, offered: Set<String>) -> [(String, String, Bool)] {
        guard !offered.isEmpty else { return [] }
        let terms: [WhereExpression]
        if case let .and(list) = expression { terms = list } else { terms = [expression] }
        var pairs: [(String, String, Bool)] = []
        for term in terms {
            guard case let .compare(.equal, a, b) = term else { continue }
            let sides: (String, WhereValue)?
            switch (a, b) {
            case let (.field(name), .literal(value)), let (.literal(value), .field(name)): sides = (name, value)
            default: sides = nil
            }
            guard let (name, value) = sides, offered.contains(name), !pairs.contains(where: { $0.0 == name }) else { continue }
            switch value {
            case let .integer(number): pairs.append((name, String(number), true))
            case let .text(text) where !text.isEmpty: pairs.append((name, text, false))
            default: continue
            }
        }
        return pairs
    }

    /// The filter as `dialect` writes it.
    func filter(_ dialect: OGCFilterDialect) -> String? {
        pushed.map { dialect.isJSON ? $0.json : $0.text }
    }

    /// Whether the server's `numberMatched` is the answer's count: the whole
    /// clause is sent and the box is exact for the table's geometries.
    func serverFiltersExactly(_ metadata: TableMetadata) -> Bool {
        !dropsRowsLocally && (query.geometry == nil || metadata.geometryType == .point)
    }
}
