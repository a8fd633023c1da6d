// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// A WFS-T `Transaction` document and what its answer says.
///
/// Version: a table read through WFS 1.0 or 1.1 sends 1.0.0 transactions,
/// whose GML 2 coordinates are x,y in every system — QGIS Server 3.22 reads
/// the `gml:pos` of a 1.1.0 insert as x y even under
/// `urn:ogc:def:crs:EPSG::4326`, where GML 3.1 means latitude first (it stored
/// (45.5, -122.6) for a point sent as `45.5 -122.6`), so the one unambiguous
/// encoding is used wherever the server offers it. A WFS 2.0 table sends 2.0.0
/// with GML 3.2 in the axis order of the CRS's definition.
/// Each insert carries a `handle` (its local id); the answer's insert results
/// are matched by it (QGIS Server lists them in reverse order), else by place.
package struct WFSTransaction {
    let version: WFSVersion
    let typeName: String
    let schema: WFSSchema
    let metadata: TableMetadata
    let wkid: Int32
    let srsName: String
    let northFirst: Bool

    package init(tableVersion: WFSVersion, typeName: String, schema: WFSSchema, metadata: TableMetadata) {
        version = tableVersion == .v200 ? .v200 : .v100
        self.typeName = typeName
        self.schema = schema
        self.metadata = metadata
        wkid = metadata.spatialReference?.effectiveWkid ?? 4326
        srsName = version == .v100 ? "EPSG:\(wkid)" : "urn:ogc:def:crs:EPSG::\(wkid)"
        northFirst = version == .v200 && WFSCRS.isNorthFirst(wkid)
    }

    private var wfs: String { version.isV2 ? "http://www.opengis.net/wfs/2.0" : "http://www.opengis.net/wfs" }
    private var gml: String { version.isV2 ? "http://www.opengis.net/gml/3.2" : "http://www.opengis.net/gml" }
    private var filter: String { version.isV2 ? "http://www.opengis.net/fes/2.0" : "http://www.opengis.net/ogc" }
    private var localName: String { typeName.split(separator: ":").last.map(String.init) ?? typeName }

    static func handle(_ edit: LocalEdit) -> String { "fc\(edit.objectId)" }

    /// The document for these edits; `serviceId` gives an update's or delete's feature id.
    package func document(_ edits: [LocalEdit], serviceId: (LocalEdit) -> String?) throws(FeatureCacheError) -> String {
        let f = version.isV2 ? "fes" : "ogc"
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        xml += "<wfs:Transaction service=\"WFS\" version=\"\(version.rawValue)\" xmlns:wfs=\"\(wfs)\" xmlns:gml=\"\(gml)\""
        xml += " xmlns:\(f)=\"\(filter)\" xmlns:ft=\"\(FESFilter.escape(schema.targetNamespace))\">"
        for edit in edits {
            switch edit.kind {
            case .add:
                guard let row = edit.current else { continue }
                xml += "<wfs:Insert handle=\"\(Self.handle(edit))\"><ft:\(localName)>"
                xml += try properties(row, only: nil, geometry: true)
                xml += "</ft:\(localName)></wfs:Insert>"
            case .update:
                guard let row = edit.current, let id = serviceId(edit) else {
                    throw FeatureCacheError(.invalidState, "feature \(edit.objectId) has no WFS feature id to update")
                }
                xml += "<wfs:Update typeName=\"ft:\(localName)\" handle=\"\(Self.handle(edit))\">"
                xml += try updateProperties(row, edit: edit)
                xml += "<\(f):Filter>\(idFilter(id))</\(f):Filter></wfs:Update>"
            case .delete:
                guard let id = serviceId(edit) else {
                    throw FeatureCacheError(.invalidState, "feature \(edit.objectId) has no WFS feature id to delete")
                }
                xml +=
                    "<wfs:Delete typeName=\"ft:\(localName)\" handle=\"\(Self.handle(edit))\"><\(f):Filter>\(idFilter(id))</\(f):Filter></wfs:Delete>"
            }
        }
        return xml + "</wfs:Transaction>"
    }

    private func idFilter(_ id: String) -> String {
        version.isV2 ? "<fes:ResourceId rid=\"\(FESFilter.escape(id))\"/>" : "<ogc:FeatureId fid=\"\(FESFilter.escape(id))\"/>"
    }

    /// A new feature's values in the schema's order, the geometry where the schema has it.
    private func properties(_ row: FeatureBatch, only: Set<String>?, geometry: Bool) throws(FeatureCacheError) -> String {
        let values = EditedRow.values(of: row, row: 0, fields: metadata.fields)
        var xml = ""
        if geometry, let property = schema.geometryProperty, let shape = try shape(of: row) {
            xml += "<ft:\(property)>\(self.geometry(shape))</ft:\(property)>"
        }
        for (index, field) in metadata.fields.enumerated() where field.editable && !values[index].isNull {
            xml += "<ft:\(field.name)>\(text(values[index], field))</ft:\(field.name)>"
        }
        return xml
    }

    private func updateProperties(_ row: FeatureBatch, edit: LocalEdit) throws(FeatureCacheError) -> String {
        let values = EditedRow.values(of: row, row: 0, fields: metadata.fields)
        let changed = Set(edit.changedFields.map { $0.lowercased() })
        let name = version.isV2 ? "ValueReference" : "Name"
        var xml = ""
        if edit.geometryChanged, let property = schema.geometryProperty {
            let value = try shape(of: row).map { "<wfs:Value>\(geometry($0))</wfs:Value>" } ?? ""
            xml += "<wfs:Property><wfs:\(name)>\(property)</wfs:\(name)>\(value)</wfs:Property>"
        }
        for (index, field) in metadata.fields.enumerated() where changed.contains(field.name.lowercased()) {
            // No Value element sets NULL (WFS 1.x and 2.0 alike).
            let value = values[index].isNull ? "" : "<wfs:Value>\(text(values[index], field))</wfs:Value>"
            xml += "<wfs:Property><wfs:\(name)>\(field.name)</wfs:\(name)>\(value)</wfs:Property>"
        }
        return xml
    }

    private func shape(of row: FeatureBatch) throws(FeatureCacheError) -> VertexGeometry? {
        guard let wkb = EditedRow.geometry(of: row, row: 0) else { return nil }
        return try VertexGeometry(wkb: wkb)
    }

    private func text(_ value: AttributeValue, _ field: FieldInfo) -> String {
        switch value {
        case .null: return ""
        case let .integer(v): return field.type == .date ? DateText.isoTimestamp(v) : String(v)
        case let .double(v): return JSONNumberText.shortest(v)
        case let .boolean(v): return v ? "true" : "false"
        case let .text(v): return FESFilter.escape(v)
        }
    }

    // MARK: - GML

    private func geometry(_ shape: VertexGeometry) -> String {
        let dimensions = shape.layout.hasZ ? 3 : 2  // GML has no M
        let stride = shape.stride
        func coordinates(_ path: [Double]) -> String {
            var parts: [String] = []
            for start in Swift.stride(from: 0, to: path.count, by: stride) {
                var ordinates = [path[start], path[start + 1]]
                if northFirst { ordinates.swapAt(0, 1) }
                if dimensions == 3 { ordinates.append(path[start + 2]) }
                parts.append(ordinates.map { JSONNumberText.shortest($0) }.joined(separator: version.isV2 ? " " : ","))
            }
            return version.isV2
                ? "<gml:posList srsDimension=\"\(dimensions)\">\(parts.joined(separator: " "))</gml:posList>"
                : "<gml:coordinates decimal=\".\" cs=\",\" ts=\" \">\(parts.joined(separator: " "))</gml:coordinates>"
        }
        var counter = 0
        func open(_ name: String, top: Bool = false) -> String {
            counter += 1
            let id = version.isV2 ? " gml:id=\"fc.g\(counter)\"" : ""
            return "<gml:\(name)\(id)\(top ? " srsName=\"\(srsName)\"" : "")>"
        }
        func point(_ path: [Double], top: Bool) -> String {
            let inner = coordinates(path).replacingAll("posList", with: "pos")
            return open("Point", top: top) + inner + "</gml:Point>"
        }
        func line(_ path: [Double], top: Bool) -> String { open("LineString", top: top) + coordinates(path) + "</gml:LineString>" }
        func polygon(_ rings: ArraySlice<[Double]>, top: Bool) -> String {
            var xml = open("Polygon", top: top)
            for (index, ring) in rings.enumerated() {
                let boundary = version.isV2 ? (index == 0 ? "exterior" : "interior") : (index == 0 ? "outerBoundaryIs" : "innerBoundaryIs")
                xml += "<gml:\(boundary)>\(open("LinearRing"))\(coordinates(ring))</gml:LinearRing></gml:\(boundary)>"
            }
            return xml + "</gml:Polygon>"
        }
        func multi(_ name: String, _ member: String, _ parts: [String]) -> String {
            open(name, top: true) + parts.map { "<gml:\(member)>\($0)</gml:\(member)>" }.joined() + "</gml:\(name)>"
        }
        switch shape.type {
        case .point: return point(shape.paths[0], top: true)
        case .lineString: return line(shape.paths[0], top: true)
        case .polygon: return polygon(shape.paths[...], top: true)
        case .multiPoint: return multi("MultiPoint", "pointMember", shape.paths.map { point($0, top: false) })
        case .multiLineString:
            return version.isV2
                ? multi("MultiCurve", "curveMember", shape.paths.map { line($0, top: false) })
                : multi("MultiLineString", "lineStringMember", shape.paths.map { line($0, top: false) })
        case .multiPolygon, .geometryCollection:
            return version.isV2
                ? multi("MultiSurface", "surfaceMember", shape.polygons.map { polygon($0, top: false) })
                : multi("MultiPolygon", "polygonMember", shape.polygons.map { polygon($0, top: false) })
        }
    }

    // MARK: - The answer

    /// The service's refusal of one action, with its own message.
    static func refusal(_ message: String) -> FeatureCacheError {
        FeatureCacheError(.service, "the WFS refused this edit\(message.isEmpty ? "" : ": \(message)")")
    }

    /// What the answer says of each edit: applied (an insert with the id the
    /// service gave) or refused. A failed or exception answer refuses every
    /// edit (a transaction is all or nothing); an answer that cannot be read,
    /// or a partial one that does not say which edit failed, throws or leaves
    /// the edits in doubt.
    package func outcomes(
        of edits: [LocalEdit], answer body: [UInt8], status: Int, identity: FeatureIdentity
    ) throws(FeatureCacheError) -> [EditOutcome] {
        let root = try XMLElement.parse(body, what: "WFS Transaction response")
        if let exception = WFSException(root) {
            let error = exception.error(status: Int32(status))
            return edits.map { EditOutcome(objectId: $0.objectId, error: error) }
        }
        guard root.name == "WFS_TransactionResponse" || root.name == "TransactionResponse" else {
            throw FeatureCacheError.parse("the Transaction answer is a '\(root.name)' document, not a TransactionResponse")
        }
        // Actions the answer names as failed, by handle, with their message:
        // 1.1/2.0 `TransactionResults/Action locator=`, 1.0 `TransactionResult/
        // Locator` ("u5; a": QGIS Server lists every failed action's handle).
        var failed: [String: String] = [:]
        for action in root.child("TransactionResults")?.children("Action") ?? [] {
            if let locator = action.attribute("locator") { failed[locator] = action.childText("Message") }
        }
        if let result = root.child("TransactionResult"), let statusElement = result.child("Status") {
            // 1.0: SUCCESS, FAILED or PARTIAL - and QGIS Server writes ERROR:
            // anything but SUCCESS is no success.
            let outcome = statusElement.children.first?.name ?? ""
            let message = result.childText("Message")
            if outcome != "SUCCESS" {
                let named = result.childText("Locator").split(separator: ";").map { $0.trimmingCharacters(in: " \t\n\r") }
                    .filter { !$0.isEmpty }
                let handles = Set(edits.map(Self.handle))
                let known = named.filter(handles.contains)
                if known.isEmpty {
                    // No word on which: a whole refusal is every edit's; a part one leaves each in doubt.
                    let error =
                        outcome == "PARTIAL"
                        ? FeatureCacheError.protocol("the WFS applied the transaction in part without saying which edits: \(message)")
                        : FeatureCacheError(.service, "the WFS refused the transaction\(message.isEmpty ? "" : ": \(message)")")
                    return edits.map { EditOutcome(objectId: $0.objectId, error: error) }
                }
                for handle in known { failed[handle] = message }
                if outcome != "PARTIAL" {
                    // Named failures of an unfinished transaction: the others may or
                    // may not have landed (a server that does not roll back): in doubt.
                    let doubt = FeatureCacheError.protocol(
                        "the WFS answered \(outcome) naming other edits of this transaction as failed: whether this one landed is unknown")
                    return edits.map { edit in
                        let reason = failed[Self.handle(edit)]
                        return EditOutcome(objectId: edit.objectId, error: reason.map { Self.refusal($0) } ?? doubt)
                    }
                }
            }
        }
        // The summary's counts (1.1, 2.0) against what was sent: an Update or
        // Delete whose filter matched nothing (a feature another client deleted)
        // is no error in WFS, only a smaller count. Which edit it was is not
        // said: every edit of that kind is refused (sending an update or a
        // delete again is harmless).
        var shortKinds: [EditKind: String] = [:]
        if let summary = root.child("TransactionSummary") {
            for (kind, name) in [(EditKind.update, "totalUpdated"), (.delete, "totalDeleted"), (.add, "totalInserted")] {
                let sent = edits.count { $0.kind == kind }
                // Short beyond what the answer's named failures explain (they are refused on their own).
                let named = edits.count { $0.kind == kind && failed[Self.handle($0)] != nil }
                guard sent > 0, let text = summary.child(name)?.text, let done = Int(text), done < sent,
                    named == 0 || done != sent - named
                else { continue }
                shortKinds[kind] = "the WFS reports \(done) of the \(sent) \(kind.name)s of this transaction done (\(name))"
            }
        }
        // Insert results: (handle, feature id) pairs, in the answer's order.
        var inserted: [(handle: String?, id: String)] = []
        for result in root.children("InsertResult") {  // 1.0
            for id in result.children("FeatureId") { inserted.append((result.attribute("handle"), id.attribute("fid") ?? "")) }
        }
        for feature in root.child("InsertResults")?.children("Feature") ?? [] {  // 1.1, 2.0
            let id = feature.child("FeatureId")?.attribute("fid") ?? feature.child("ResourceId")?.attribute("rid") ?? ""
            inserted.append((feature.attribute("handle"), id))
        }
        let adds = edits.filter { $0.kind == .add }
        let byHandle = Dictionary(inserted.compactMap { entry in entry.handle.map { ($0, entry.id) } }, uniquingKeysWith: { a, _ in a })
        let byPlace = inserted.count == adds.count && byHandle.isEmpty
        return edits.map { edit in
            if let reason = failed[Self.handle(edit)] {
                return EditOutcome(objectId: edit.objectId, error: Self.refusal(reason))
            }
            if let short = shortKinds[edit.kind] {
                return EditOutcome(
                    objectId: edit.objectId,
                    error: edit.kind == .add
                        ? .protocol(short)  // in doubt: looked up before a retry
                        : FeatureCacheError(
                            .conflict, "\(short): feature \(edit.objectId) may have been deleted or changed on the service; refresh it"))
            }
            guard edit.kind == .add else { return EditOutcome(objectId: edit.objectId) }
            let id =
                byHandle[Self.handle(edit)] ?? (byPlace ? adds.firstIndex { $0.objectId == edit.objectId }.map { inserted[$0].id } : nil)
            guard let id, !id.isEmpty else {
                return EditOutcome(objectId: edit.objectId, error: .protocol("the Transaction answer gives no feature id for this insert"))
            }
            return EditOutcome(objectId: edit.objectId, serverObjectId: identity.objectId(for: id), serverId: id)
        }
    }
}
