// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Reads an ArcGIS REST layer (or table) resource, `…/FeatureServer/<id>?f=json`,
/// into `TableMetadata`.
package enum ArcGISLayerInfo {
    package static func parse(_ json: JSONValue, url: String) throws(FeatureCacheError) -> TableMetadata {
        guard json.isObject else {
            throw FeatureCacheError.parse("\(url): a layer resource must be a JSON object")
        }
        if json["fields"] == nil, let layers = json["layers"]?.array {
            // A service root instead of a layer: say which layers there are.
            let names = layers.prefix(10).compactMap { layer -> String? in
                guard let id = layer["id"]?.int else { return nil }
                return "\(id) \(layer["name"]?.string ?? "")"
            }
            throw FeatureCacheError.invalidArgument(
                "\(url) is a feature service, not a layer: append /<layer id> (layers: \(names.joined(separator: ", ")))")
        }
        let type = json["type"]?.string ?? ""
        guard let fieldList = json["fields"]?.array else {
            if !type.isEmpty, type != "Feature Layer", type != "Table" {
                throw FeatureCacheError(.unsupported, "\(url) is a '\(type)', not a feature layer or table")
            }
            throw FeatureCacheError.parse("\(url): the layer resource has no 'fields' array")
        }

        var metadata = TableMetadata(name: json["name"]?.string ?? "")
        if !type.isEmpty { metadata.setArcGIS(.layerType, type) }
        metadata.description = json["description"]?.string ?? ""
        metadata.displayField = json["displayField"]?.string ?? ""
        metadata.geometryType = GeometryType(esriName: json["geometryType"]?.string)
        metadata.fields = try fieldList.enumerated().map { index, field throws(FeatureCacheError) in
            try parseField(field, index: index, url: url)
        }
        // An empty name (what a layer without one may write) is no name: ordering
        // by it would send "orderByFields= ASC".
        metadata.objectIdField =
            json["objectIdField"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            ?? metadata.fields.first { $0.type == .oid }?.name
        metadata.globalIdField =
            json["globalIdField"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            ?? metadata.fields.first { $0.type == .globalID }?.name
        if let extent = json["extent"], extent.isObject {
            metadata.extent = parseEnvelope(extent)
        }
        metadata.spatialReference =
            metadata.extent?.spatialReference
            ?? json["sourceSpatialReference"].flatMap(parseSpatialReference)
            ?? json["spatialReference"].flatMap(parseSpatialReference)
        if let count = json["maxRecordCount"]?.int, count > 0 {
            metadata.maxRecordCount = Int(count)
        }
        metadata.minScale = json["minScale"]?.double ?? 0
        metadata.maxScale = json["maxScale"]?.double ?? 0
        metadata.hasZ = json["hasZ"]?.bool ?? false
        metadata.hasM = json["hasM"]?.bool ?? false
        metadata.setArcGIS(.capabilities, list(json["capabilities"]?.string).joined(separator: ","))
        metadata.editing = parseEditing(json, metadata: metadata)
        // Editor-tracking fields are the server's to write, whatever their flag says.
        let tracking =
            json["editFieldsInfo"].map { info in
                ["creationDateField", "creatorField", "editDateField", "editorField"].compactMap { info[$0]?.string?.lowercased() }
            } ?? []
        for index in metadata.fields.indices where tracking.contains(metadata.fields[index].name.lowercased()) {
            metadata.fields[index].editable = false
        }
        metadata.setArcGIS(.supportedQueryFormats, list(json["supportedQueryFormats"]?.string).joined(separator: ","))
        let pages = json["advancedQueryCapabilities"]?["supportsPagination"]?.bool ?? json["supportsPagination"]?.bool ?? false
        metadata.setArcGIS(.supportsPagination, String(pages))
        // currentVersion is a number, but some servers write it as a string.
        if let version = json["currentVersion"]?.double ?? json["currentVersion"]?.string.flatMap(Double.init) {
            metadata.setArcGIS(.currentVersion, String(version))
        }
        metadata.dataVersion = dataVersion(json)
        if let generations = serverGens(json) {
            metadata.setArcGIS(.serverGen, String(generations.current))
            if let oldest = generations.oldest { metadata.setArcGIS(.minServerGen, String(oldest)) }
        }
        return metadata
    }

    /// When the layer's data last changed, from `editingInfo`: `lastEditDate`
    /// (any edit, schema ones included) and `dataLastEditDate` (hosted layers)
    /// together, so a change of either counts. A recorded hosted layer
    /// (maplibre points) has a `lastEditDate` later than both other dates: the
    /// one alone could miss what the other sees. Layers with change tracking
    /// (the same recording: `capabilities "Query,ChangeTracking"`) also count
    /// their edits in `serverGens.serverGen`, which moves with every edit even
    /// within one millisecond. nil without any of them.
    static func dataVersion(_ layer: JSONValue) -> String? {
        let info = layer["editingInfo"]
        let last = info?["lastEditDate"]?.int, data = info?["dataLastEditDate"]?.int
        let generation = serverGens(layer)?.current
        guard last != nil || data != nil || generation != nil else { return nil }
        let dates = "lastEditDate=\(last.map(String.init) ?? "")&dataLastEditDate=\(data.map(String.init) ?? "")"
        return generation.map { dates + "&serverGen=\($0)" } ?? dates
    }

    /// The layer's change-tracking generations (`serverGens`), as the
    /// recorded hosted layer gives them; nil without a whole-number `serverGen`.
    static func serverGens(_ layer: JSONValue) -> (current: Int64, oldest: Int64?)? {
        guard let current = layer["serverGens"]?["serverGen"]?.int else { return nil }
        return (current, layer["serverGens"]?["minServerGen"]?.int)
    }

    /// What the layer lets a client change. Only `capabilities` says whether
    /// it is editable: a recorded read-only layer ("Query") still advertises
    /// `allowGeometryUpdates` and every `supports…` flag. Servers before 10.1
    /// wrote "Editing" alone for add, update and delete.
    static func parseEditing(_ json: JSONValue, metadata: TableMetadata) -> EditCapabilities {
        let listed = metadata.arcgisCapabilities
        let capabilities = Set(listed.map { $0.lowercased() })
        var editing = EditCapabilities()
        if !listed.isEmpty { editing.declared = "capabilities: " + listed.joined(separator: ",") }
        let legacy = capabilities.contains("editing") && capabilities.isDisjoint(with: ["create", "update", "delete"])
        editing.canAdd = legacy || capabilities.contains("create")
        editing.canUpdate = legacy || capabilities.contains("update")
        editing.canDelete = legacy || capabilities.contains("delete")
        editing.allowsGeometryUpdates = json["allowGeometryUpdates"]?.bool ?? true
        editing.supportsGlobalIds = (json["supportsApplyEditsWithGlobalIds"]?.bool ?? false) && metadata.globalIdField != nil
        editing.supportsRollback = json["supportsRollbackOnFailureParameter"]?.bool ?? false
        editing.requiresMValues = metadata.hasM && json["allowUpdateWithoutMValues"]?.bool == false
        editing.editDateField = json["editFieldsInfo"]?["editDateField"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        return editing
    }

    /// An ArcGIS attribute domain: `codedValue` (codes with names) or `range`.
    /// Anything else (an `inherited` domain, a type this version does not
    /// know) is no domain: the service still checks its own.
    static func parseDomain(_ json: JSONValue?) -> FieldDomain? {
        guard let json, json.isObject else { return nil }
        let name = json["name"]?.string ?? ""
        switch json["type"]?.string {
        case "codedValue":
            guard let values = json["codedValues"]?.array else { return nil }
            let codes = values.prefix(100_000).compactMap { entry -> (code: AttributeValue, name: String)? in
                guard let code = entry["code"].flatMap(attributeValue) else { return nil }
                return (code, entry["name"]?.string ?? "")
            }
            return .codedValues(name: name, codes: codes)
        case "range":
            guard let range = json["range"]?.array, range.count == 2, let low = range[0].double, let high = range[1].double else {
                return nil
            }
            return .range(name: name, min: low, max: high)
        default:
            return nil
        }
    }

    /// A JSON scalar as an attribute value (integers stay integers).
    static func attributeValue(_ json: JSONValue) -> AttributeValue? {
        if json.isNull { return .null }
        if let text = json.string { return .text(text) }
        if let flag = json.bool { return .boolean(flag) }
        if let integer = json.int, Double(integer) == json.double { return .integer(integer) }
        if let number = json.double { return .double(number) }
        return nil
    }

    private static func parseField(_ field: JSONValue, index: Int, url: String) throws(FeatureCacheError) -> FieldInfo {
        guard let name = field["name"]?.string, !name.isEmpty else {
            throw FeatureCacheError.parse("\(url): field \(index) has no name")
        }
        guard let typeName = field["type"]?.string else {
            throw FeatureCacheError.parse("\(url): field '\(name)' has no type")
        }
        let type = FieldType(esriName: typeName)
        var info = FieldInfo(
            name: name,
            alias: field["alias"]?.string.flatMap { $0.isEmpty ? nil : $0 },
            type: type,
            nullable: field["nullable"]?.bool ?? (type != .oid),
            editable: field["editable"]?.bool ?? false,
            length: Int32(clamping: field["length"]?.int ?? 0))
        info.domain = parseDomain(field["domain"])
        info.defaultValue = field["defaultValue"].flatMap(attributeValue).flatMap { $0.isNull ? nil : $0 }
        return info
    }

    static func parseSpatialReference(_ json: JSONValue) -> SpatialReference? {
        guard json.isObject else { return nil }
        let wkid = Int32(clamping: json["wkid"]?.int ?? 0)
        let latest = Int32(clamping: json["latestWkid"]?.int ?? 0)
        let wkt = json["wkt"]?.string
        if wkid == 0, latest == 0, wkt == nil { return nil }
        return SpatialReference(wkid: wkid, latestWkid: latest, wkt: wkt)
    }

    /// An extent; ArcGIS writes empty extents with nulls or "NaN" strings.
    static func parseEnvelope(_ json: JSONValue) -> Envelope? {
        func coordinate(_ key: String) -> Double? {
            if let value = json[key]?.double { return value }
            if json[key]?.string == "NaN" { return .nan }
            return nil
        }
        guard let xmin = coordinate("xmin"), let ymin = coordinate("ymin"),
            let xmax = coordinate("xmax"), let ymax = coordinate("ymax")
        else { return nil }
        return Envelope(
            xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax,
            spatialReference: json["spatialReference"].flatMap(parseSpatialReference))
    }

    /// "Query, Create,Update" → ["Query", "Create", "Update"] (also how the
    /// facts kept in `sourceFacts` read back: ArcGISLayerFact.swift).
    static func list(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }
    }
}
