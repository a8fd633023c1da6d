// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Every real layer resource in the fixtures loads; spot checks against the files.
@Suite struct ArcGISMetadataTests {
    static let metadataFiles = Fixtures.files(in: "arcgis-rest", suffix: "metadata.json")
    static let allJSONFiles = Fixtures.files(in: "arcgis-rest", suffix: ".json")

    private func load(_ path: String) throws -> TableMetadata {
        try ArcGISLayerInfo.parse(try JSONValue.parse(try Fixtures.bytes(path)), url: path)
    }

    @Test func thereAreFixtures() {
        #expect(Self.metadataFiles.count == 9)
        #expect(Self.allJSONFiles.count >= 35)
    }

    @Test(arguments: metadataFiles)
    func everyRealLayerResourceLoads(path: String) throws {
        let metadata = try load(path)
        #expect(!metadata.name.isEmpty)
        #expect(!metadata.fields.isEmpty)
        #expect(metadata.geometryType == .point || metadata.geometryType == .polygon)
        #expect(metadata.objectIdField != nil, "an OID field in \(path)")
        #expect(metadata.spatialReference != nil)
        #expect(metadata.maxRecordCount > 0)
        #expect(!metadata.fields.contains { $0.type == .unknown }, "unknown field type in \(path)")
    }

    /// Query pages, id lists and counts are JSON the scanner reads (their features
    /// are read by the query readers).
    @Test(arguments: allJSONFiles)
    func everyRecordedResponseIsValidJSON(path: String) throws {
        _ = try JSONValue.parse(try Fixtures.bytes(path))
    }

    @Test func cookCountyPointsOfInterest() throws {
        let metadata = try load("arcgis-rest/us-il-cook/metadata.json")
        #expect(metadata.name == "Point of Interest")
        #expect(metadata.spatialReference == SpatialReference(wkid: 3435))
        #expect(metadata.fields.count == 32)
        #expect(metadata.objectIdField == "OBJECTID")
        #expect(metadata.displayField == "NAME")
        #expect(metadata.minScale == 35000)
        #expect(metadata.maxRecordCount == 1000)  // not given: the ArcGIS default
        #expect(!metadata.arcgisSupportsPagination)
        #expect(metadata.field(named: "last_edit")?.type == .date)
        #expect(metadata.field(named: "CITY_ID")?.alias == "City")
        #expect(metadata.extent?.xmin == 1003477.096)
    }

    @Test func webMercatorWithLatestWkidAndPagination() throws {
        let metadata = try load("arcgis-rest/us-il-chicago/metadata.json")
        #expect(metadata.spatialReference?.wkid == 102100)
        #expect(metadata.spatialReference?.effectiveWkid == 3857)
        #expect(metadata.arcgisSupportsPagination)
        #expect(metadata.maxRecordCount == 100000)
        #expect(metadata.arcgisCurrentVersion == 10.81)
        #expect(metadata.sourceFacts["current_version"] == "10.81")
    }

    @Test func wktOnlySpatialReference() throws {
        let metadata = try load("arcgis-rest/us-mi-kent/us-mi-kent-metadata.json")
        #expect(metadata.spatialReference?.wkid == 0)
        #expect(metadata.spatialReference?.wkt?.hasPrefix("PROJCS[\"NAD_1983_StatePlane_Michigan_South") == true)
        #expect(metadata.geometryType == .polygon)
    }

    @Test func recordedErrorBodyBecomesAServiceError() throws {
        let response = HTTPResponse(status: 200, body: try Fixtures.bytes("arcgis-rest/us-mi-kent/us-mi-kent-statistics.json"))
        let request = HTTPRequest(url: "https://h/x/query?f=json")
        #expect {
            _ = try ArcGISResponse.decode(response, request: request)
        } throws: { error in
            guard let error = error as? FeatureCacheError else { return false }
            return error.code == .service && error.serviceCode == 400 && error.message.contains("Unable to complete operation")
        }
    }

    @Test func htmlAndHTTPErrorsAreNamed() throws {
        let request = HTTPRequest(url: "https://h/x?f=json&token=secret")
        let html = HTTPResponse(status: 200, headers: [("Content-Type", "text/html")], body: Array("<html>Login</html>".utf8))
        #expect {
            _ = try ArcGISResponse.decode(html, request: request)
        } throws: { error in
            let error = error as! FeatureCacheError
            return error.code == .parse && error.message.contains("<html>Login") && !error.message.contains("secret")
        }
        let denied = HTTPResponse(status: 403, body: Array(#"{"error":{"code":403,"message":"You do not have permissions"}}"#.utf8))
        #expect {
            _ = try ArcGISResponse.decode(denied, request: request)
        } throws: { error in
            let error = error as! FeatureCacheError
            return error.code == .http && error.httpStatus == 403 && error.serviceCode == 403
        }
    }

    @Test func aServiceRootIsNotALayer() throws {
        let json = try JSONValue.parse(Array(#"{"layers":[{"id":0,"name":"Trees"},{"id":3,"name":"Roads"}]}"#.utf8))
        #expect {
            _ = try ArcGISLayerInfo.parse(json, url: "https://h/FeatureServer")
        } throws: { error in
            let error = error as! FeatureCacheError
            return error.code == .invalidArgument && error.message.contains("0 Trees, 3 Roads")
        }
    }

    @Test(arguments: [
        (#"[]"#, "must be a JSON object"),
        (#"{"name":"x"}"#, "no 'fields' array"),
        (#"{"fields":"OBJECTID"}"#, "no 'fields' array"),
        (#"{"fields":[{"type":"esriFieldTypeString"}]}"#, "field 0 has no name"),
        (#"{"fields":[{"name":"A"}]}"#, "field 'A' has no type"),
        (#"{"type":"Group Layer","name":"g"}"#, "is a 'Group Layer'"),
    ])
    func layerResourcesOfTheWrongShapeAreNamed(text: String, expected: String) throws {
        let json = try JSONValue.parse(Array(text.utf8))
        do {
            _ = try ArcGISLayerInfo.parse(json, url: "https://h/FeatureServer/0")
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
            #expect(error.code == .parse || error.code == .unsupported)
        }
    }

    @Test func emptyExtentsAndUnknownFieldTypesDoNotFailTheLoad() throws {
        let text =
            #"{"name":"E","fields":[{"name":"F","type":"esriFieldTypeFuture"}],"#
            + #""extent":{"xmin":"NaN","ymin":"NaN","xmax":"NaN","ymax":"NaN","spatialReference":{"wkid":4326}}}"#
        let metadata = try ArcGISLayerInfo.parse(try JSONValue.parse(Array(text.utf8)), url: "u")
        #expect(metadata.fields.first?.type == .unknown)
        #expect(metadata.extent?.isValid == false)
        #expect(metadata.spatialReference?.wkid == 4326)
    }
}
