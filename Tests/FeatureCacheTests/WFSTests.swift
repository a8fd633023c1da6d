// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCWFS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Real WFS capabilities and schema documents (MapServer, ArcGIS Server,
/// deegree/GeoServer-based national services) load.
@Suite struct WFSDocumentTests {
    static let capabilities = Fixtures.files(in: "wfs", suffix: ".xml").filter { $0.lowercased().contains("cap") }
    static let schemas = [
        "wfs/mapserver-wfs-schema.xml", "wfs/wfs_koeln_arcgis_describefeaturetype_110.xml",
        "wfs/wfs_koeln_arcgis_describefeaturetype_200.xml", "wfs/wfs_schema_dov_boringen.xml",
    ]

    @Test func everyDocumentIsCovered() {
        #expect(Self.capabilities.count + Self.schemas.count == Fixtures.files(in: "wfs", suffix: ".xml").count)
    }

    @Test(arguments: capabilities)
    func everyCapabilitiesDocumentLoads(path: String) throws {
        let capabilities = try WFSCapabilities.parse(try Fixtures.bytes(path))
        #expect(!capabilities.featureTypes.isEmpty)
        for type in capabilities.featureTypes {
            #expect(!type.name.isEmpty && !type.title.isEmpty)
            #expect(!type.defaultCRS.isEmpty, "\(path): \(type.name) has no CRS")
            #expect(WFSCRS.wkid(of: type.defaultCRS) != nil, "\(path): \(type.defaultCRS)")
        }
        #expect(!capabilities.outputFormats.isEmpty || capabilities.featureTypes.allSatisfy { !$0.outputFormats.isEmpty })
    }

    @Test func spotChecks() throws {
        let mapserver = try WFSCapabilities.parse(try Fixtures.bytes("wfs/mapserver-wfs-cap.xml"))
        #expect(mapserver.version == .v100 && mapserver.featureTypes.count == 25)
        #expect(mapserver.featureTypes[0].wgs84Box != nil)  // LatLongBoundingBox
        let cuzk = try WFSCapabilities.parse(try Fixtures.bytes("wfs/wfs_CUZK_GetCapabilities_2_0_0.xml"))
        #expect(cuzk.version == .v200)
        #expect(cuzk.featureTypes.map(\.name) == ["CP:CadastralBoundary", "CP:CadastralParcel", "CP:CadastralZoning"])
        #expect(cuzk.featureType("CadastralParcel")?.name == "CP:CadastralParcel")  // prefix optional
        let koeln = try WFSCapabilities.parse(try Fixtures.bytes("wfs/wfs_koeln_arcgis_getcapabilities_200.xml"))
        #expect(koeln.featureTypes.count == 86)
        #expect(koeln.featureTypes.allSatisfy { WFSCRS.wkid(of: $0.defaultCRS) == 25832 })
        #expect(koeln.implementsResultPaging || koeln.countDefault >= 0)
        let koeln11 = try WFSCapabilities.parse(try Fixtures.bytes("wfs/wfs_koeln_arcgis_getcapabilities_110.xml"))
        #expect(koeln11.version == .v110 && koeln11.featureTypes.count == 86)
        let hsrs = try WFSCapabilities.parse(try Fixtures.bytes("wfs/wfs_HSRS_GetCapabilities_1_1_0.xml"))
        #expect(hsrs.version == .v110 && hsrs.featureTypes.count == 8)
        #expect(hsrs.featureTypes.allSatisfy { $0.wgs84Box != nil })
        let demo = try WFSCapabilities.parse(try Fixtures.bytes("wfs/wfs_mapserver_demo_getcapabilities_100.xml"))
        #expect(demo.featureTypes.map(\.name) == ["continents", "cities"])
        #expect(demo.outputFormats.contains("GML2"))
    }

    @Test func schemas() throws {
        let koeln = try WFSSchema.parse(
            try Fixtures.bytes("wfs/wfs_koeln_arcgis_describefeaturetype_200.xml"),
            typeName: "adressen_stadtteil:Blumenberg")
        #expect(koeln.geometryType == .point && koeln.geometryProperty != nil)
        #expect(koeln.geometryPropertyType == "PointPropertyType")
        #expect(koeln.fields.first?.name == "objectid" && koeln.fields.first?.type == .integer)
        let nummer = koeln.fields.first { $0.name == "Nummer" }
        #expect(nummer?.type == .string && nummer?.length == 11 && nummer?.nullable == true)
        #expect(koeln.fields.contains { $0.name == "Straße" })  // names as written, UTF-8
        let koeln11 = try WFSSchema.parse(try Fixtures.bytes("wfs/wfs_koeln_arcgis_describefeaturetype_110.xml"), typeName: "Blumenberg")
        #expect(koeln11.fields.map(\.name) == koeln.fields.map(\.name))

        let dov = try WFSSchema.parse(try Fixtures.bytes("wfs/wfs_schema_dov_boringen.xml"), typeName: "dov-pub:Boringen")
        #expect(dov.geometryType == .point)
        #expect(dov.fields.first { $0.name == "diepte_tot_m" }?.type == .double)
        #expect(dov.fields.first { $0.name == "datum_aanvang" }?.type == .dateOnly)
        #expect(dov.targetNamespace == "http://dov.vlaanderen.be/ocdov/dov-pub")

        // Several types in one schema: each finds its own.
        let mapserver = try Fixtures.bytes("wfs/mapserver-wfs-schema.xml")
        let iba = try WFSSchema.parse(mapserver, typeName: "bsc:IBA")
        let clls = try WFSSchema.parse(mapserver, typeName: "CLLS")
        #expect(iba.geometryProperty == "msGeometry" && iba.geometryType == .unknown)  // any geometry
        #expect(iba.geometryPropertyType == "GeometryPropertyType")
        #expect(iba.fields.isEmpty && clls.geometryProperty == "msGeometry")
        #expect(throws: FeatureCacheError.self) { try WFSSchema.parse(mapserver, typeName: "nothing") }
    }

    /// A WFS's GeoJSON ids written as its gml:ids ("trees.17", GeoServer's
    /// form) are their numbers, and the prefix is kept for the ids the table
    /// names; bare numbers (MapServer's) give no prefix.
    @Test func geoJSONIdsWrittenAsGMLIdsGiveTheirPrefix() throws {
        func read(_ ids: [String]) throws -> (ids: [Int64], prefix: String?) {
            let features = ids.map { "{\"type\":\"Feature\",\"id\":\($0),\"geometry\":null,\"properties\":{}}" }
            let json = "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}"
            let identity = FeatureIdentity(numericSuffixes: true)
            let batch = try Array(json.utf8).withUnsafeBytes { try GeoJSONReader.read($0, identity: identity) }.batch
            return ((0..<batch.count).map { batch.objectId($0) }, identity.suffixPrefix)
        }
        let prefixed = try read(["\"trees.17\"", "\"trees.18\""])
        #expect(prefixed.ids == [17, 18] && prefixed.prefix == "trees.")
        let bare = try read(["1", "\"2\""])
        #expect(bare.ids == [1, 2] && bare.prefix == nil)
    }

    @Test func outputFormatChoice() {
        let mapserver = [
            "application/gml+xml; version=3.2", "text/xml; subtype=gml/3.2.1", "text/xml; subtype=gml/3.1.1",
            "text/xml; subtype=gml/2.1.2", "application/json; subtype=geojson", "text/xml; subtype=gml/2.1.2; driver=ogr",
        ]
        #expect(WFSFeatureTypeSource.chooseFormat(mapserver) == "application/json; subtype=geojson")
        #expect(WFSFeatureTypeSource.chooseFormat(Array(mapserver.prefix(4))) == "application/gml+xml; version=3.2")
        #expect(WFSFeatureTypeSource.chooseFormat(["text/xml; subtype=gml/3.1.1", "GML2"]) == "text/xml; subtype=gml/3.1.1")
        #expect(WFSFeatureTypeSource.chooseFormat(["GML2", "ogrgml"]) == "GML2")
        #expect(WFSFeatureTypeSource.chooseFormat([]) == nil)
    }

    @Test func axisOrderRules() {
        #expect(WFSCRS.guessSwap(srsName: "urn:ogc:def:crs:EPSG::4326", requested: 4326, version: .v200))
        #expect(WFSCRS.guessSwap(srsName: "http://www.opengis.net/def/crs/EPSG/0/4258", requested: 4326, version: .v200))
        #expect(WFSCRS.guessSwap(srsName: "EPSG:4326", requested: 4326, version: .v110))  // checked by the box later
        #expect(!WFSCRS.guessSwap(srsName: "EPSG:4326", requested: 4326, version: .v100))
        #expect(!WFSCRS.guessSwap(srsName: "http://www.opengis.net/gml/srs/epsg.xml#4326", requested: 4326, version: .v110))
        #expect(!WFSCRS.guessSwap(srsName: "urn:ogc:def:crs:EPSG::3857", requested: 4326, version: .v200))
        #expect(!WFSCRS.guessSwap(srsName: "urn:ogc:def:crs:OGC:1.3:CRS84", requested: 4326, version: .v200))
        #expect(WFSCRS.wkid(of: "urn:x-ogc:def:crs:EPSG:25832") == 25832)
        #expect(WFSCRS.wkid(of: "http://www.opengis.net/gml/srs/epsg.xml#4326") == 4326)
        #expect(
            WFSCRS.name(for: 3857, listed: ["urn:ogc:def:crs:EPSG::4326", "urn:ogc:def:crs:EPSG::3857"], version: .v200)
                == "urn:ogc:def:crs:EPSG::3857")
        #expect(WFSCRS.name(for: 3857, listed: [], version: .v100) == "EPSG:3857")
    }
}

/// The streaming GML reader, geometry by geometry, and the XML safety rules.
@Suite struct GMLReaderTests {
    static let wfs20 =
        "xmlns:wfs=\"http://www.opengis.net/wfs/2.0\" xmlns:gml=\"http://www.opengis.net/gml/3.2\" xmlns:ms=\"urn:ms\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
    static let fields = [
        FieldInfo(name: "name", type: .string), FieldInfo(name: "value", type: .double),
        FieldInfo(name: "count", type: .integer),
    ]

    func read(_ members: String, fields: [FieldInfo] = fields, swap: Bool = false, root: String? = nil) throws(FeatureCacheError) -> GMLPage
    {
        let document = root ?? "<wfs:FeatureCollection \(Self.wfs20) numberMatched=\"9\">\(members)</wfs:FeatureCollection>"
        return try Array(document.utf8).withBytes { (bytes) throws(FeatureCacheError) in
            try GMLReader.read(bytes, fields: fields, geometryProperty: "geom", identity: FeatureIdentity(), swapAxes: swap)
        }
    }

    func feature(_ geometry: String, id: String = "t.1", properties: String = "") -> String {
        "<wfs:member><ms:t gml:id=\"\(id)\"><gml:boundedBy><gml:Envelope><gml:lowerCorner>0 0</gml:lowerCorner></gml:Envelope></gml:boundedBy><ms:geom>\(geometry)</ms:geom>\(properties)</ms:t></wfs:member>"
    }

    func geometry(_ page: GMLPage, _ row: Int = 0) -> Geometry? {
        let wkb = page.batch.geometry.wkb(row)
        return wkb.isEmpty ? nil : try? WKBReader.parse(wkb)
    }

    @Test func pointsWithAxisSwapAndIds() throws {
        let page = try read(
            feature("<gml:Point srsName=\"urn:ogc:def:crs:EPSG::4326\"><gml:pos>45.5 -122.6</gml:pos></gml:Point>", id: "trees.17")
                + feature("<gml:Point><gml:pos>45.6 -122.7</gml:pos></gml:Point>", id: "trees.x9"), swap: true)
        #expect(page.batch.count == 2)
        #expect(page.batch.objectId(0) == 17)
        #expect(page.batch.objectId(1) >= 1 << 52)  // not a number: mapped
        #expect(page.srsName == "urn:ogc:def:crs:EPSG::4326" && page.idPrefix == "trees.")
        #expect(page.numberMatched == 9)
        #expect(geometry(page) == .point(x: -122.6, y: 45.5))
    }

    @Test func linesAndCurves() throws {
        let page = try read(
            feature("<gml:LineString><gml:posList srsDimension=\"3\">0 0 9 1 1 9 2 0 9</gml:posList></gml:LineString>")
                + feature(
                    "<gml:Curve><gml:segments><gml:LineStringSegment><gml:posList>0 0 1 1</gml:posList></gml:LineStringSegment><gml:LineStringSegment><gml:posList>1 1 2 0</gml:posList></gml:LineStringSegment></gml:segments></gml:Curve>",
                    id: "t.2")
                + feature(
                    "<gml:MultiCurve><gml:curveMember><gml:LineString><gml:posList>0 0 1 1</gml:posList></gml:LineString></gml:curveMember><gml:curveMember><gml:LineString><gml:posList>5 5 6 6</gml:posList></gml:LineString></gml:curveMember></gml:MultiCurve>",
                    id: "t.3")
                + feature(
                    "<gml:MultiLineString><gml:lineStringMember><gml:LineString><gml:coordinates>0,0 1,1</gml:coordinates></gml:LineString></gml:lineStringMember></gml:MultiLineString>",
                    id: "t.4"))
        let line = Geometry.lineString([.init(0, 0), .init(1, 1), .init(2, 0)])
        #expect(geometry(page, 0) == line)  // z dropped
        #expect(geometry(page, 1) == line)  // segments joined, the shared point once
        #expect(geometry(page, 2) == .multiLineString([[.init(0, 0), .init(1, 1)], [.init(5, 5), .init(6, 6)]]))
        #expect(geometry(page, 3) == .lineString([.init(0, 0), .init(1, 1)]))  // one member: the line
    }

    @Test func polygonsSurfacesAndGML2() throws {
        let outer = "0 0 10 0 10 10 0 10 0 0", hole = "2 2 3 2 3 3 2 2"
        let page = try read(
            feature(
                "<gml:Polygon><gml:exterior><gml:LinearRing><gml:posList>\(outer)</gml:posList></gml:LinearRing></gml:exterior><gml:interior><gml:LinearRing><gml:posList>\(hole)</gml:posList></gml:LinearRing></gml:interior></gml:Polygon>"
            )
                + feature(
                    "<gml:Surface><gml:patches><gml:PolygonPatch><gml:exterior><gml:LinearRing><gml:posList>\(outer)</gml:posList></gml:LinearRing></gml:exterior></gml:PolygonPatch></gml:patches></gml:Surface>",
                    id: "t.2")
                + feature(
                    "<gml:MultiSurface><gml:surfaceMember><gml:Polygon><gml:exterior><gml:LinearRing><gml:posList>\(outer)</gml:posList></gml:LinearRing></gml:exterior></gml:Polygon></gml:surfaceMember><gml:surfaceMember><gml:Polygon><gml:exterior><gml:LinearRing><gml:pos>20 20</gml:pos><gml:pos>30 20</gml:pos><gml:pos>30 30</gml:pos><gml:pos>20 20</gml:pos></gml:LinearRing></gml:exterior></gml:Polygon></gml:surfaceMember></gml:MultiSurface>",
                    id: "t.3")
                + feature(
                    "<gml:MultiPolygon><gml:polygonMember><gml:Polygon><gml:outerBoundaryIs><gml:LinearRing><gml:coordinates cs=\";\" ts=\"|\">0;0|10;0|10;10|0;0</gml:coordinates></gml:LinearRing></gml:outerBoundaryIs><gml:innerBoundaryIs><gml:LinearRing><gml:coordinates>2,2 3,2 3,3 2,2</gml:coordinates></gml:LinearRing></gml:innerBoundaryIs></gml:Polygon></gml:polygonMember></gml:MultiPolygon>",
                    id: "t.4")
                + feature(
                    "<gml:Polygon><gml:exterior><gml:Ring><gml:curveMember><gml:LineString><gml:posList>0 0 10 0 10 10</gml:posList></gml:LineString></gml:curveMember><gml:curveMember><gml:LineString><gml:posList>10 10 0 10 0 0</gml:posList></gml:LineString></gml:curveMember></gml:Ring></gml:exterior></gml:Polygon>",
                    id: "t.5"))
        guard case let .polygon(rings)? = geometry(page, 0) else { Issue.record("not a polygon"); return }
        #expect(rings.count == 2 && rings[0].count == 5 && rings[1].count == 4)
        guard case let .polygon(patch)? = geometry(page, 1) else { Issue.record("not a polygon"); return }
        #expect(patch == [rings[0]])
        guard case let .multiPolygon(parts)? = geometry(page, 2) else { Issue.record("not a multipolygon"); return }
        #expect(parts.count == 2 && parts[1][0].count == 4)
        guard case let .polygon(gml2)? = geometry(page, 3) else { Issue.record("GML 2 multipolygon of one: a polygon"); return }
        #expect(gml2.count == 2 && gml2[0].count == 4)
        guard case let .polygon(ring)? = geometry(page, 4) else { Issue.record("not a polygon"); return }
        #expect(ring[0].count == 5)  // curve members joined
    }

    @Test func multiPointsAndGML2Coord() throws {
        let page = try read(
            feature(
                "<gml:MultiPoint><gml:pointMember><gml:Point><gml:pos>1 2</gml:pos></gml:Point></gml:pointMember><gml:pointMember><gml:Point><gml:pos>3 4</gml:pos></gml:Point></gml:pointMember></gml:MultiPoint>"
            )
                + feature("<gml:Point><gml:coord><gml:X>5</gml:X><gml:Y>6</gml:Y></gml:coord></gml:Point>", id: "t.2"))
        #expect(geometry(page, 0) == .multiPoint([.init(1, 2), .init(3, 4)]))
        #expect(geometry(page, 1) == .point(x: 5, y: 6))
    }

    @Test func valuesNullsAndInferredColumns() throws {
        let page = try read(
            feature(
                "<gml:Point><gml:pos>1 2</gml:pos></gml:Point>",
                properties: "<ms:name>Oak &amp; ash</ms:name><ms:value>2.5</ms:value><ms:count>3</ms:count>")
                + feature("", id: "t.2", properties: "<ms:name xsi:nil=\"true\"/><ms:value></ms:value><ms:count>  </ms:count>"))
        let name = page.batch.columns[0], value = page.batch.columns[1], count = page.batch.columns[2]
        #expect(name.string(0) == "Oak & ash" && value.double(0) == 2.5 && count.int64(0) == 3)
        #expect(name.isNull(1) && value.isNull(1) && count.isNull(1))  // xsi:nil and empty elements
        #expect(geometry(page, 1) == nil)

        let inferred = try read(
            feature("<gml:Point><gml:pos>1 2</gml:pos></gml:Point>", properties: "<ms:a>7</ms:a><ms:b>x</ms:b>"), fields: [])
        #expect(inferred.batch.columns.map(\.field.name) == ["a", "b"])  // the geometry property is no column
        #expect(inferred.batch.columns[0].int64(0) == 7)

        #expect(throws: FeatureCacheError.self) {
            try read(feature("<gml:Point><gml:pos>1 2</gml:pos></gml:Point>", properties: "<ms:count>many</ms:count>"))
        }
    }

    @Test func malformedDocumentsAreParseErrors() {
        for bad in [
            feature("<gml:Point><gml:pos>1 x</gml:pos></gml:Point>"), feature("<gml:Point><gml:pos>1 2 3</gml:pos></gml:Point>"),
            "<wfs:member><ms:t>",
        ] {
            #expect(throws: FeatureCacheError.self) { try read(bad) }
        }
        #expect(throws: FeatureCacheError.self) { try read("", root: "") }
        #expect(throws: FeatureCacheError.self) { try read("", root: "<html><body>proxy error</body></html>") }
        do {
            _ = try read(
                "",
                root:
                    "<ows:ExceptionReport xmlns:ows=\"http://www.opengis.net/ows/1.1\"><ows:Exception exceptionCode=\"X\"/></ows:ExceptionReport>"
            )
            Issue.record("an exception report is not features")
        } catch {
            #expect(error.code == .service)
        }
    }

    @Test func entityDeclarationsAreRefusedAtOnce() {
        var laughs = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">"
        for level in 1...9 {
            laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
        }
        laughs += "]><wfs:FeatureCollection \(Self.wfs20)>&lol9;</wfs:FeatureCollection>"
        let external =
            "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY secret SYSTEM \"file:///etc/passwd\">]><wfs:FeatureCollection \(Self.wfs20)>&secret;</wfs:FeatureCollection>"
        let parameter =
            "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY % remote SYSTEM \"http://127.0.0.1:9/x.dtd\"> %remote;]><wfs:FeatureCollection \(Self.wfs20)/>"
        for document in [laughs, external, parameter] {
            do {
                _ = try read("", root: document)
                Issue.record("a document declaring entities was read")
            } catch {
                #expect(error.code == .parse && error.message.contains("declares entities"), "\(error.message)")
            }
        }
        // An undeclared entity is not expanded from anywhere either.
        #expect(throws: FeatureCacheError.self) {
            try read("", root: "<wfs:FeatureCollection \(Self.wfs20)>&nope;</wfs:FeatureCollection>")
        }
    }

    @Test func externalDTDsAreNotLoadedAndNestingIsLimited() throws {
        // A DOCTYPE naming an external DTD is parsed without fetching it.
        let page = try read(
            "", root: "<?xml version=\"1.0\"?><!DOCTYPE x SYSTEM \"http://127.0.0.1:9/never.dtd\"><wfs:FeatureCollection \(Self.wfs20)/>")
        #expect(page.batch.count == 0)
        let deep = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        do {
            _ = try read("", root: "<wfs:FeatureCollection \(Self.wfs20)>\(deep)</wfs:FeatureCollection>")
            Issue.record("300 levels were read")
        } catch {
            #expect(error.message.contains("nested deeper"))
        }
    }
}
