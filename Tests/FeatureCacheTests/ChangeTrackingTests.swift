// SPDX-License-Identifier: Apache-2.0
@testable import FCArcGIS
@testable import FCData
@testable import FCSupport
@testable import FCTables
@testable import FCTransport
import Testing

/// ArcGIS change tracking: the layer metadata proven on the recorded hosted
/// layer (shared/fixtures/arcgis-edits: `capabilities "Query,ChangeTracking"`,
/// `serverGens`), the `extractChanges` answer read as the vendor's REST API
/// reference documents it (no recording of one exists), and every answer
/// that is not whole refused before anything is applied.
@Suite struct ChangeTrackingTests {
    private let what = "the extractChanges answer"

    private func recordedLayer() throws -> TableMetadata {
        let path = "arcgis-edits/maplibre-arcgis-points-layer-info.json"
        return try ArcGISLayerInfo.parse(try JSONValue.parse(try Fixtures.bytes(path)), url: path)
    }

    private func source() -> ArcGISLayerSource {
        ArcGISLayerSource(
            layerURL: RequestURL(base: "https://example.com/arcgis/rest/services/Points/FeatureServer/0"),
            context: ClientContext(), statistics: StatisticsCounter())
    }

    private func parse(_ text: String, since: Int64 = 100) throws(FeatureCacheError) -> SourceChanges {
        try ArcGISLayerSource.parseChanges(
            try JSONValue.parse(Array(text.utf8)), layer: 0, since: since, objectIdField: "FID", what: what)
    }

    @Test func theRecordedLayerTracksChanges() throws {
        let metadata = try recordedLayer()
        #expect(metadata.sourceFacts["server_gen"] == "649144")
        #expect(metadata.sourceFacts["min_server_gen"] == "318897")
        #expect(source().changeGeneration(metadata) == "649144")
    }

    @Test func aLayerWithoutTheCapabilityDoesNot() throws {
        var metadata = try recordedLayer()
        metadata.sourceFacts["capabilities"] = "Query"
        #expect(source().changeGeneration(metadata) == nil)
    }

    @Test func theServiceOfALayer() throws {
        let (service, layer) = try #require(
            ArcGISLayerSource.service(of: RequestURL(base: "https://h/arcgis/rest/services/S/FeatureServer/3/")))
        #expect(service.base == "https://h/arcgis/rest/services/S/FeatureServer")
        #expect(layer == 3)
        #expect(ArcGISLayerSource.service(of: RequestURL(base: "https://h/arcgis/rest/services/S/FeatureServer")) == nil)
    }

    /// The ids form (`returnIdsOnly=true`).
    @Test func idsAnswer() throws {
        let changes = try parse(
            """
            {"layerServerGens":[{"id":0,"serverGen":120}],
             "edits":[{"id":0,"objectIds":{"adds":[7,3],"updates":[5],"deletes":[9,2]}},
                      {"id":1,"objectIds":{"adds":[44],"updates":[],"deletes":[]}}]}
            """)
        #expect(changes == SourceChanges(generation: "120", upserted: [3, 5, 7], deleted: [2, 9]))
    }

    /// The features form: the ids are read from the object-id field (any case).
    @Test func featuresAnswer() throws {
        let changes = try parse(
            """
            {"layerServerGens":[{"id":0,"serverGen":101}],
             "edits":[{"id":0,"features":{"adds":[{"attributes":{"fid":11,"Name":"a"},"geometry":{"x":1,"y":2}}],
                                          "updates":[{"attributes":{"FID":12}}],"deleteIds":[13]}}]}
            """)
        #expect(changes == SourceChanges(generation: "101", upserted: [11, 12], deleted: [13]))
    }

    /// No edits entry for the layer: nothing changed, the generation moves on.
    @Test func nothingChanged() throws {
        #expect(try parse(#"{"layerServerGens":[{"id":0,"serverGen":100}],"edits":[]}"#).upserted.isEmpty)
    }

    /// Named both changed and deleted: read by id, which settles it.
    @Test func changedAndDeletedIsReadAgain() throws {
        let changes = try parse(
            #"{"layerServerGens":[{"id":0,"serverGen":130}],"edits":[{"id":0,"objectIds":{"adds":[],"updates":[4],"deletes":[4]}}]}"#)
        #expect(changes.upserted == [4] && changes.deleted.isEmpty)
    }

    @Test(arguments: [
        #"{"edits":[]}"#,  // no generation
        #"{"layerServerGens":[{"id":1,"serverGen":120}],"edits":[]}"#,  // not this layer's
        #"{"layerServerGens":[{"id":0,"serverGen":"120"}],"edits":[]}"#,  // not a number
        #"{"layerServerGens":[{"id":0,"serverGen":99}],"edits":[]}"#,  // goes back
        #"{"layerServerGens":[{"id":0,"serverGen":120}],"edits":[{"id":0}]}"#,  // neither form
        #"{"layerServerGens":[{"id":0,"serverGen":120}],"edits":[{"id":0,"objectIds":{"adds":["7"]}}]}"#,
        #"{"layerServerGens":[{"id":0,"serverGen":120}],"edits":[{"id":0,"objectIds":{"deletes":7}}]}"#,
        #"{"layerServerGens":[{"id":0,"serverGen":120}],"edits":[{"id":0,"features":{"adds":[{"attributes":{}}]}}]}"#,
        #"[1,2]"#,
    ])
    func answersThatAreNotWholeAreRefused(text: String) {
        let outcome = Result { () throws(FeatureCacheError) in try parse(text) }
        guard case let .failure(error) = outcome else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(error.code == .parse)
        #expect(error.message.hasPrefix(what))
    }
}
