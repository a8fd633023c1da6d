// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Issue 14: the filter box order decided by what the server counts, and an
/// empty answer to a box whose order nothing proved checked with the axes swapped.
@Suite struct WFSAxisEvidenceTests {
    /// A WFS 1.1 server with one point type, whose `count(box)` says how many
    /// features a BBOX (as sent) holds.
    private static func server(extent: String, count: @escaping @Sendable ([Double]) -> Int) -> RequestTransport {
        RequestTransport { request, _ in
            let url = request.url
            let body: String
            if url.contains("REQUEST=GetCapabilities") {
                body = """
                    <wfs:WFS_Capabilities version="1.1.0" xmlns:wfs="http://www.opengis.net/wfs" xmlns:ows="http://www.opengis.net/ows">
                    <wfs:FeatureTypeList><wfs:FeatureType><wfs:Name>t</wfs:Name><wfs:DefaultSRS>EPSG:4326</wfs:DefaultSRS>
                    <ows:WGS84BoundingBox>\(extent)</ows:WGS84BoundingBox></wfs:FeatureType></wfs:FeatureTypeList></wfs:WFS_Capabilities>
                    """
            } else if url.contains("REQUEST=DescribeFeatureType") {
                body = """
                    <xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:gml="http://www.opengis.net/gml" targetNamespace="urn:t">
                    <xsd:element name="t" type="tType"/><xsd:complexType name="tType"><xsd:complexContent>
                    <xsd:extension base="gml:AbstractFeatureType"><xsd:sequence><xsd:element name="geom" type="gml:PointPropertyType"/>
                    <xsd:element name="n" type="xsd:int"/></xsd:sequence></xsd:extension></xsd:complexContent></xsd:complexType></xsd:schema>
                    """
            } else {
                let bbox = (try? RequestURL(parsing: url))?.value(of: "BBOX") ?? ""
                let corners = bbox.split(separator: ",").prefix(4).compactMap { Double($0) }
                // Hits or not, the count; the features themselves are never needed here.
                body =
                    #"<wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs" numberOfFeatures="\#(url.contains("RESULTTYPE=hits") ? count(corners) : 0)"/>"#
            }
            return .success(HTTPResponse(status: 200, headers: [("Content-Type", "text/xml")], body: Array(body.utf8)))
        }
    }

    private static let base = "https://example.test/wfs?VERSION=1.1.0"

    @Test func theLoadKeepsTheOrderTheServerFindsFeaturesWith() async throws {
        // Reads boxes lon,lat (as QGIS Server does): only x in -123..-122 finds anything.
        let transport = Self.server(
            extent: "<ows:LowerCorner>-122.75 45.43</ows:LowerCorner><ows:UpperCorner>-122.5 45.6</ows:UpperCorner>"
        ) { corners in
            corners.count == 4 && corners[0] < -100 ? 7 : 0
        }
        let table = try FeatureTable.wfs(url: Self.base, typeName: "t", context: ClientContext(transport: transport))
        try await table.load()
        var query = QueryParameters()
        query.geometry = .envelope(
            Envelope(xmin: -122.7, ymin: 45.5, xmax: -122.6, ymax: 45.55, spatialReference: SpatialReference(wkid: 4326)))
        _ = try await table.populate(query, clearCache: true)
        let sent = transport.requests.last.flatMap { try? RequestURL(parsing: $0.url).value(of: "BBOX") }
        #expect(sent?.hasPrefix("-122.7,45.5,") == true)  // lon,lat, against the 1.1 standard's lat,lon
    }

    @Test func anEmptyAnswerWhoseSwappedBoxHoldsFeaturesFails() async throws {
        // A world extent: both orders find features at load, so nothing is proven.
        let transport = Self.server(extent: "<ows:LowerCorner>-180 -90</ows:LowerCorner><ows:UpperCorner>180 90</ows:UpperCorner>") {
            corners in
            corners.count == 4 && (corners[0] <= -100 || corners[1] <= -100) ? 3 : 0
        }
        let table = try FeatureTable.wfs(url: Self.base, typeName: "t", context: ClientContext(transport: transport))
        try await table.load()
        var query = QueryParameters()
        query.geometry = .envelope(
            Envelope(xmin: -122.7, ymin: 45.5, xmax: -122.6, ymax: 45.55, spatialReference: SpatialReference(wkid: 4326)))
        await #expect {
            _ = try await table.populate(query, clearCache: true)
        } throws: { error in
            let error = error as! FeatureCacheError
            return error.code == .service && error.message.contains("with its axes swapped the server counts 3")
        }
        #expect(table.cachedFeatureCount == 0)
        // Said explicitly, the empty answer stands.
        try table.setAxisOrder(.swap, forFilters: true)
        let result = try await table.populate(query, clearCache: true)
        #expect(result.count == 0)
    }
}
