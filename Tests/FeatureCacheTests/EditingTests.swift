// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCWFS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// What editing reads, proven against recorded layers (Fixtures/arcgis-edits,
/// copied from shared/fixtures with their SOURCE.md and licences): which layers
/// are editable and how, what the schema lets an edit write; the WKB a caller
/// gives; and the answer shapes users reported from real servers.
@Suite struct EditingTests {
    private func layer(_ name: String) throws -> TableMetadata {
        let path = "arcgis-edits/\(name)"
        return try ArcGISLayerInfo.parse(try JSONValue.parse(try Fixtures.bytes(path)), url: path)
    }

    private func point(_ x: Double, _ y: Double, m: Double? = nil) -> [UInt8] {
        var writer = WKBWriter()
        writer.header(.point, VertexLayout(hasM: m != nil))
        writer.vertex(x, y, m.map { [$0] }?[...] ?? [])
        return writer.bytes
    }

    /// A versioned ArcGIS Server 10.71 layer: editable, no rollback, no client
    /// GlobalIDs, M required on updates; per-field editable flags and domains.
    @Test func recordedWaterNetworkLayer() throws {
        let metadata = try layer("terriajs-Water_Network-FeatureServer-2-layer.json")
        let editing = metadata.editing
        #expect(editing.canAdd && editing.canUpdate && editing.canDelete)
        #expect(!editing.supportsRollback && !editing.supportsGlobalIds)
        #expect(editing.requiresMValues)
        let validator = EditValidator(metadata: metadata)
        let material = try #require(metadata.field(named: "material"))
        #expect(try validator.check(.text("AC"), for: material) == .text("AC"))
        #expect(throws: FeatureCacheError.self) { try validator.check(.text("Unobtainium"), for: material) }
        do {
            _ = try validator.check(.text("XX"), for: material)
        } catch {
            #expect(error.message.contains("piPipeMaterial") && error.message.contains("'material'"))
        }
        // diameter is editable:false in the recording (a calculated field), whatever its domain.
        let diameter = try #require(metadata.field(named: "diameter"))
        #expect(throws: FeatureCacheError.self) { try validator.check(.double(1), for: diameter) }
        let enabled = try #require(metadata.field(named: "enabled"))
        #expect(try validator.check(.double(1), for: enabled) == .integer(1))  // coded 0/1, a smallint
        #expect(throws: FeatureCacheError.self) { try validator.check(.integer(2), for: enabled) }
        // allowUpdateWithoutMValues false: a point without M is refused, with M taken.
        var draft = FeatureDraft()
        draft.geometry = point(-9_800_000, 5_100_000)
        #expect(throws: FeatureCacheError.self) { try validator.check(draft, adding: false) }
        draft.geometry = point(-9_800_000, 5_100_000, m: 12)
        #expect(try validator.check(draft, adding: false).geometry?.layout.hasM == true)
    }

    /// An ArcGIS Online layer whose capabilities say Query only, yet every edit
    /// flag is set: read-only.
    @Test func recordedQueryOnlyLayerIsReadOnly() throws {
        let metadata = try layer("terriajs-act-veg-map-FeatureServer-0-layer.json")
        #expect(!metadata.editing.isEditable)
        #expect(metadata.arcgisCapabilities == ["Query"])
        #expect(metadata.editing.declared == "capabilities: Query")
    }

    /// The object id is FID; an ordinary integer field is called OBJECTID: the
    /// name is no evidence, the type and objectIdField are.
    @Test func recordedLayerWithAnOrdinaryOBJECTIDField() throws {
        var metadata = try layer("maplibre-arcgis-points-layer-info.json")
        #expect(!metadata.editing.isEditable)
        #expect(metadata.objectIdField == "FID")
        let validator = EditValidator(metadata: metadata)
        #expect(try validator.check(.integer(7), for: try #require(metadata.field(named: "OBJECTID"))) == .integer(7))
        let fid = try #require(metadata.field(named: "FID"))
        do {
            _ = try validator.check(.integer(7), for: fid)
            Issue.record("FID was writable")
        } catch {
            #expect(error.message.contains("object id"))
        }
        metadata.editing.canAdd = true
        #expect(EditValidator(metadata: metadata).metadata.editing.canAdd)
    }

    // MARK: - The caller's WKB

    @Test func wkbRoundTripsWithZAndM() throws {
        var writer = WKBWriter()
        writer.header(.lineString, VertexLayout(hasZ: true, hasM: true))
        writer.uint32(2)
        writer.vertex(1, 2, [3, .nan])
        writer.vertex(4, 5, [6, 7])
        let geometry = try VertexGeometry(wkb: writer.bytes)
        #expect(geometry.type == .lineString && geometry.layout == VertexLayout(hasZ: true, hasM: true))
        #expect(geometry.wkb == writer.bytes)
        #expect(geometry.box.xmin == 1 && geometry.box.ymax == 5)
    }

    @Test func hostileWKBIsRefusedWithItsOffset() {
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("cut short", Array(point(1, 2).prefix(13))),
            ("a bad byte order", [7] + Array(point(1, 2).dropFirst())),
            ("type 99", [1, 99, 0, 0, 0] + [UInt8](repeating: 0, count: 16)),
            ("a count larger than the bytes", [1, 2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F]),
            ("bytes after the geometry", point(1, 2) + [0]),
            ("a collection", [1, 7, 0, 0, 0, 0, 0, 0, 0]),
            ("an infinite coordinate", point(.infinity, 2)),
            ("a multipoint holding a line", [1, 4, 0, 0, 0, 1, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0]),
        ]
        for (what, bytes) in cases {
            do {
                _ = try VertexGeometry(wkb: bytes)
                Issue.record("\(what) was read")
            } catch {
                #expect(error.code == .invalidArgument, "\(what)")
            }
        }
    }

    // MARK: - The answers users reported

    private func edits(_ kinds: [EditKind], globalIds: Bool = false) -> [LocalEdit] {
        kinds.enumerated().map { index, kind in
            var edit = LocalEdit(objectId: kind == .add ? -Int64(index + 1) : Int64(index + 1), kind: kind)
            if globalIds, kind == .add { edit.globalId = "{6B1D2C3E-0000-4000-8000-00000000000\(index)}" }
            return edit
        }
    }

    /// Esri/offline-editor-js#463: a refused update, the other arrays empty.
    @Test func refusedUpdateWithEmptyArrays() throws {
        let json = try JSONValue.parse(
            Array(
                #"{"addResults":[],"updateResults":[{"objectId":612276,"success":false,"error":{"code":1005,"description":"True curve update not allowed."}}],"deleteResults":[]}"#
                    .utf8))
        let sent = edits([.add, .update])
        let outcomes = ArcGISEditAnswer.outcomes(
            of: json, adds: [sent[0]], updates: [sent[1]], deletes: [], useGlobalIds: false, rolledBack: true,
            metadata: TableMetadata(name: "t"))
        #expect(outcomes.count == 2)
        #expect(outcomes[0].error?.message.contains("rolled back") == true)
        #expect(outcomes[1].error?.serviceCode == 1005)
    }

    /// Esri/arcgis-rest-js#790: one add applied, one refused without an objectId.
    @Test func refusedAddWithoutObjectId() throws {
        let json = try JSONValue.parse(
            Array(
                #"{"addResults":[{"objectId":617,"success":true},{"success":false,"error":{"code":-2147217395,"description":"Setting of Value for depth failed."}}]}"#
                    .utf8))
        let sent = edits([.add, .add])
        let outcomes = ArcGISEditAnswer.outcomes(
            of: json, adds: sent, updates: [], deletes: [], useGlobalIds: false, rolledBack: false, metadata: TableMetadata(name: "t"))
        #expect(outcomes[0].serverObjectId == 617 && outcomes[0].error == nil)
        #expect(outcomes[1].error?.serviceCode == -2147217395 && outcomes[1].serverObjectId == nil)
    }

    /// Esri/solution.js#734: ArcGIS Online answers GlobalIDs without braces, in any order.
    @Test func globalIdsWithoutBraces() throws {
        let json = try JSONValue.parse(
            Array(
                #"{"addResults":[{"objectId":12,"globalId":"6b1d2c3e-0000-4000-8000-000000000001","success":true},{"objectId":11,"globalId":"6b1d2c3e-0000-4000-8000-000000000000","success":true}]}"#
                    .utf8))
        let sent = edits([.add, .add], globalIds: true)
        let outcomes = ArcGISEditAnswer.outcomes(
            of: json, adds: sent, updates: [], deletes: [], useGlobalIds: true, rolledBack: true, metadata: TableMetadata(name: "t"))
        #expect(outcomes.map(\.serverObjectId) == [11, 12])
    }

    // MARK: - WFS-T answers of a server that refuses edits (Fixtures/wfs-transaction)

    private func wfsOutcomes(_ answer: String, _ edits: [LocalEdit]) throws -> [EditOutcome] {
        var metadata = TableMetadata(name: "checked_inspections")
        metadata.spatialReference = SpatialReference(wkid: 4326)
        let transaction = WFSTransaction(tableVersion: .v110, typeName: "checked_inspections", schema: WFSSchema(), metadata: metadata)
        return try transaction.outcomes(
            of: edits, answer: try Fixtures.bytes("wfs-transaction/\(answer)"), status: 200,
            identity: FeatureIdentity(numericSuffixes: true))
    }

    /// QGIS Server 3.22's 1.0 answer to a refused transaction is Status ERROR
    /// (not in the standard) naming the failed handles: each refused with the
    /// server's message, never read as success.
    @Test func recordedQGISRefusalNamesTheFailedEdits() throws {
        let edits = [LocalEdit(objectId: -2, kind: .add), LocalEdit(objectId: 5, kind: .update)]
        for answer in ["qgis-3.22-refused-1.0.xml", "qgis-3.22-refused-1.1.xml"] {
            let outcomes = try wfsOutcomes(answer, edits)
            #expect(outcomes.map(\.error?.code) == [.service, .service], "\(answer)")
            #expect(outcomes[1].error?.message.contains("inspector_named") == true, "\(answer)")
        }
    }

    /// Without rollback (PARTIAL): the insert the answer does not name landed
    /// under the id it gives; the named ones are refused.
    @Test func recordedQGISPartialAnswerLandsTheUnnamed() throws {
        let edits = [LocalEdit(objectId: -1, kind: .add), LocalEdit(objectId: -2, kind: .add), LocalEdit(objectId: 5, kind: .update)]
        let outcomes = try wfsOutcomes("qgis-3.22-partial-1.0.xml", edits)
        #expect(outcomes[0].error == nil && outcomes[0].serverObjectId == 204 && outcomes[0].serverId == "checked_inspections.204")
        #expect(outcomes[1].error?.code == .service && outcomes[2].error?.code == .service)
    }
}
