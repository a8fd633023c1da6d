// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCOGCAPI
@testable import FCWFS
@testable import FCSupport
@testable import FCData
import Testing

/// Local projection between any two systems (PROJ, offline), checked against
/// PROJ's own command-line tool on the same points: the expected coordinates
/// were printed by `cs2cs -f %.6f EPSG:4326 <target>` (PROJ 9.1.1, Debian 12,
/// input as latitude longitude; EPSG:3035's output is northing first and is
/// written here easting first, as the library orders axes).
@Suite struct ProjectionTests {
    /// (target wkid, longitude, latitude, x, y).
    static let cs2cs: [(Int32, Double, Double, Double, Double)] = [
        (25832, 9.0, 50.0, 500000.000000, 5538630.702744),  // ETRS89 / UTM 32N
        (25832, 7.5, 53.5, 400504.549507, 5928940.793459),
        (25832, 12.0, 47.5, 725931.392042, 5265092.548956),
        (2154, 2.35, 48.85, 652301.564831, 6861302.725900),  // RGF93 / Lambert-93
        (27700, -0.1276, 51.5072, 530043.194981, 180358.208620),  // British National Grid
        (2913, -122.68, 45.52, 7643413.021576, 683215.008279),  // Oregon North, international feet
        (3035, 9.0, 50.0, 4249298.599372, 2987999.019002),  // ETRS89 / LAEA Europe (northing first in EPSG)
        (3035, 2.35, 48.85, 3760536.822902, 2888771.020950),
        (102100, 9.0, 50.0, 1001875.417139, 6446275.841017),  // Esri's Web Mercator (EPSG:3857)
        (102100, -122.68, 45.52, -13656675.130519, 5703759.727614),
        (102719, -78.64, 35.78, 2106778.014158, 739010.262766),  // Esri: NC State Plane, US feet
    ]

    @Test(arguments: cs2cs)
    func forwardAgreesWithCS2CS(_ point: (Int32, Double, Double, Double, Double)) throws {
        let (wkid, lon, lat, x, y) = point
        let transform = try #require(try Projection.transform(from: 4326, to: wkid))
        let (u, v) = transform(lon, lat)
        // 1 mm (a foot's third of that for the systems in feet: stricter, not looser).
        #expect(abs(u - x) < 0.001 && abs(v - y) < 0.001, "EPSG:4326 → \(wkid): (\(u), \(v)), cs2cs (\(x), \(y))")
    }

    /// (source wkid, x, y, longitude, latitude): the points above taken back by
    /// `cs2cs -f %.12f <source> EPSG:4326` (not exactly where they started: the
    /// LAEA inverse is a series, and without the OSTN15 grid, which Debian does
    /// not ship and the library never downloads, EPSG:27700 goes through a
    /// Helmert transformation that is not its own inverse).
    static let cs2csInverse: [(Int32, Double, Double, Double, Double)] = [
        (25832, 500000.000000, 5538630.702744, 9.000000000000, 49.999999999997),
        (25832, 400504.549507, 5928940.793459, 7.500000000001, 53.500000000003),
        (25832, 725931.392042, 5265092.548956, 12.000000000002, 47.500000000002),
        (2154, 652301.564831, 6861302.725900, 2.350000000006, 48.850000000004),
        (27700, 530043.194981, 180358.208620, -0.127599987502, 51.507199995396),
        (2913, 7643413.021576, 683215.008279, -122.680000000001, 45.520000000000),
        (3035, 4249298.599372, 2987999.019002, 9.000000000001, 49.999999996902),
        (3035, 3760536.822902, 2888771.020950, 2.349999999996, 48.849999996588),
        (102100, 1001875.417139, 6446275.841017, 8.999999999996, 49.999999999999),
        (102100, -13656675.130519, 5703759.727614, -122.680000000002, 45.520000000003),
        (102719, 2106778.014158, 739010.262766, -78.639999999999, 35.780000000001),
    ]

    @Test(arguments: cs2csInverse)
    func inverseAgreesWithCS2CSWithin1e9Degrees(_ point: (Int32, Double, Double, Double, Double)) throws {
        let (wkid, x, y, lon, lat) = point
        let transform = try #require(try Projection.transform(from: wkid, to: 4326))
        let (u, v) = transform(x, y)
        #expect(abs(u - lon) < 1e-9 && abs(v - lat) < 1e-9, "\(wkid) → EPSG:4326: (\(u), \(v)), cs2cs (\(lon), \(lat))")
    }

    /// Oregon North in feet as an ArcGIS layer gives it when it gives WKT only
    /// (Esri's WKT1, from `projinfo -o WKT1_ESRI EPSG:2913`); cs2cs took the same
    /// WKT as its CRS: `cs2cs -f %.6f EPSG:4326 '<this WKT>'` and back.
    static let oregonNorthWKT =
        #"PROJCS["NAD_1983_HARN_StatePlane_Oregon_North_FIPS_3601_Feet_Intl",GEOGCS["GCS_North_American_1983_HARN",DATUM["D_North_American_1983_HARN",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic"],PARAMETER["False_Easting",8202099.738],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",-120.5],PARAMETER["Standard_Parallel_1",46.0],PARAMETER["Standard_Parallel_2",44.3333333333333],PARAMETER["Latitude_Of_Origin",43.6666666666667],UNIT["foot",0.3048]]"#

    @Test func aLayerWithWKTOnlyProjectsAsCS2CSDoes() throws {
        let layer = SpatialReference(wkid: 0, wkt: Self.oregonNorthWKT)
        let forward = try #require(try Projection.transform(from: .wgs84, to: layer))
        let (x, y) = forward(-122.68, 45.52)
        #expect(abs(x - 7643413.021576) < 0.001 && abs(y - 683215.008279) < 0.001)
        let inverse = try #require(try Projection.transform(from: layer, to: .wgs84))
        let (lon, lat) = inverse(7643413.021576, 683215.008279)
        #expect(abs(lon - -122.680000000001) < 1e-9 && abs(lat - 45.520000000000) < 1e-9)
        #expect(forward.label.contains("NAD_1983_HARN_StatePlane_Oregon_North"), "the WKT is named by its name: \(forward.label)")
        let description = try #require(try Projection.describe(layer))
        #expect(!description.isGeographic && !description.northFirst && description.authorityCode == nil)
        // PROJ reads Esri's WKT1 and writes WKT2 under the EPSG name it recognises.
        #expect(description.wkt2.hasPrefix("PROJCRS[\"NAD83(HARN) / Oregon North (ft)\""), "\(description.wkt2.prefix(60))")
        #expect(description.wkt2.contains("LENGTHUNIT[\"foot\",0.3048"))
    }

    /// A real layer that gives its system as Esri WKT only (Kent County, Michigan,
    /// recorded: Fixtures/arcgis-rest/us-mi-kent, Michigan South in international
    /// feet): its first parcel's first vertex taken to lon/lat as `cs2cs -f %.12f
    /// '<the recorded WKT>' EPSG:4326` does.
    @Test func aRecordedWKTOnlyLayerProjectsAsCS2CSDoes() throws {
        let page = try JSONValue.parse(Fixtures.bytes("arcgis-rest/us-mi-kent/us-mi-kent-0.json"))
        let wkt = try #require(page["spatialReference"]?["wkt"]?.string)
        let layer = SpatialReference(wkid: 0, wkt: wkt)
        let transform = try #require(try Projection.transform(from: layer, to: .wgs84))
        let (lon, lat) = transform(12745374.032152027, 656587.5843799561)
        #expect(abs(lon - -85.786502145447) < 1e-9 && abs(lat - 43.292923570997) < 1e-9, "(\(lon), \(lat))")
        let description = try #require(try Projection.describe(layer))
        #expect(!description.isGeographic && description.wkt2.contains("LENGTHUNIT[\"foot\",0.3048"))
    }

    @Test func onlyWKTIsTakenAsWKT() throws {
        // PROJ reads PROJ strings (whose +init= names files) and URLs too: what a
        // service sends as WKT must be WKT.
        for text in [
            "+proj=longlat +init=/etc/passwd:x", "https://example.org/crs", "EPSG:4326", "[GEOGCS]",
            String(repeating: "A", count: 40) + "[", "GEOGCS[" + String(repeating: "x", count: Projection.maxWKTLength),
        ] {
            let error = #expect(throws: FeatureCacheError.self) { try Projection.describe(SpatialReference(wkid: 0, wkt: text)) }
            #expect(error?.code == .unsupported && error?.message.contains("not WKT") == true, "\(text.prefix(30))")
        }
        #expect(try Projection.describe(SpatialReference(wkid: 0, wkt: "  \n" + Self.oregonNorthWKT)) != nil)
    }

    @Test func descriptionsTellWhatRequestsNeed() throws {
        let wgs84 = try #require(try Projection.describe(.wgs84))
        #expect(wgs84.isGeographic && wgs84.northFirst && wgs84.authorityCode == "EPSG:4326")
        let laea = try #require(try Projection.describe(SpatialReference(wkid: 3035)))
        #expect(!laea.isGeographic && laea.northFirst, "EPSG:3035 is northing first")
        let utm = try #require(try Projection.describe(SpatialReference(wkid: 32610)))
        #expect(!utm.isGeographic && !utm.northFirst && utm.name == "WGS 84 / UTM zone 10N")
        #expect(utm.projJSON.contains(#""id":{"authority":"EPSG","code":32610}"#) && !utm.projJSON.contains("\n"))
        #expect(try Projection.describe(SpatialReference(wkid: 0)) == nil)
        let unreadable = #expect(throws: FeatureCacheError.self) {
            try Projection.describe(SpatialReference(wkid: 0, wkt: "LOCAL_CS[nonsense"))
        }
        #expect(unreadable?.code == .unsupported)
    }

    @Test func namesEsriCodesThroughTheEsriAuthority() throws {
        #expect(try Projection.crsName(25832) == "EPSG:25832")
        #expect(try Projection.crsName(102719) == "ESRI:102719")
        #expect(try Projection.crsName(102100) == "EPSG:3857")
        let error = #expect(throws: FeatureCacheError.self) { try Projection.transform(from: 4326, to: 999_999) }
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("999999") == true)
    }

    @Test func projectedPairsBetweenTwoProjectedSystems() throws {
        // UTM 32N → LAEA Europe goes through PROJ directly, not through degrees here.
        let transform = try #require(try Projection.transform(from: 25832, to: 3035))
        let (u, v) = transform(500000.000000, 5538630.702744)
        #expect(abs(u - 4249298.599372) < 0.001 && abs(v - 2987999.019002) < 0.001)
    }

    @Test func envelopesAreDensifiedSoCurvedEdgesAreNotClipped() throws {
        // A lon/lat box over Europe in LAEA (centred on 10°E): parallels bend, so the
        // middle of the southern edge lies 238 km south of its corners.
        let box = Envelope(xmin: -10, ymin: 35, xmax: 30, ymax: 60, spatialReference: .wgs84)
        let projected = try box.projected(to: 3035)
        let transform = try #require(try Projection.transform(from: 4326, to: 3035))
        let corners = [(-10.0, 35.0), (30.0, 35.0)].map { transform($0.0, $0.1) }
        let middleOfSouthEdge = transform(10, 35)
        #expect(middleOfSouthEdge.1 < min(corners[0].1, corners[1].1) - 200_000, "the edge bends")
        #expect(projected.ymin <= middleOfSouthEdge.1, "the densified box holds the edge's middle")
        #expect(projected.spatialReference?.wkid == 3035)
    }

    @Test func manyTasksShareOneOperation() async throws {
        let transform = try #require(try Projection.transform(from: 4326, to: 25832))
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    transform.withPointFunction { point in
                        (0..<2_000).allSatisfy { i in
                            let (x, y) = point(9.0, 50.0 + Double((i + task) % 10) * 1e-9)
                            return abs(x - 500000) < 0.01 && y.isFinite
                        }
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test func aBatchOfPointsIsProjectedInOneCallAsPointByPoint() throws {
        let json =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[9.0,50.0]},"properties":{}},{"type":"Feature","id":2,"geometry":{"type":"Point","coordinates":[7.5,53.5]},"properties":{}}]}"#
        let batch = try Array(json.utf8).withUnsafeBytes { try GeoJSONReader.read($0, identity: FeatureIdentity()).batch }
        #expect(batch.geometry.isPointsOnly)
        let transform = try #require(try Projection.transform(from: 4326, to: 25832))
        let moved = batch.mappingCoordinates(transform)
        #expect(moved.geometry.isPointsOnly && moved.count == 2)
        for (row, (lon, lat)) in [(9.0, 50.0), (7.5, 53.5)].enumerated() {
            let (x, y) = transform(lon, lat)
            let box = moved.geometry.box(row)
            #expect(box.xmin == x && box.ymin == y)
        }
        #expect(abs(moved.geometry.box(0).xmin - 500000) < 0.001 && abs(moved.geometry.box(1).ymin - 5928940.793459) < 0.001)
    }

    @Test func bulkArraysMatchPointByPoint() throws {
        let transform = try #require(try Projection.transform(from: 4326, to: 2154))
        var xy: [Double] = [2.35, 48.85, -1.5, 43.5, 7.7, 48.58]
        xy.withUnsafeMutableBufferPointer { transform.transform($0.baseAddress!, count: 3) }
        for i in 0..<3 {
            let (u, v) = transform([2.35, -1.5, 7.7][i], [48.85, 43.5, 48.58][i])
            #expect(u == xy[2 * i] && v == xy[2 * i + 1])
        }
    }
}
