// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Table metadata, fields and attribute values in a cache file, field by field
/// (no reflection: what is written is what this file says).
package enum MetadataCodec {
    // MARK: - Values

    package static func write(_ value: AttributeValue, to out: inout BinaryWriter) {
        switch value {
        case .null: out.u8(0)
        case let .integer(number): out.u8(1); out.i64(number)
        case let .double(number): out.u8(2); out.f64(number)
        case let .text(text): out.u8(3); out.string(text)
        case let .boolean(flag): out.u8(4); out.bool(flag)
        }
    }

    package static func readValue(_ input: inout BinaryReader) throws(FeatureCacheError) -> AttributeValue {
        switch try input.u8() {
        case 0: return .null
        case 1: return .integer(try input.i64())
        case 2: return .double(try input.f64())
        case 3: return .text(try input.string())
        case 4: return .boolean(try input.bool())
        case let other: throw input.corrupt("value kind \(other)")
        }
    }

    // MARK: - Fields

    package static func write(_ field: FieldInfo, to out: inout BinaryWriter) {
        out.string(field.name)
        out.string(field.alias)
        out.i32(field.type.rawValue)
        out.bool(field.nullable)
        out.bool(field.editable)
        out.i32(field.length)
        out.bool(field.widensToDouble)
        switch field.domain {
        case nil: out.u8(0)
        case let .codedValues(name, codes)?:
            out.u8(1)
            out.string(name)
            out.u32(UInt32(codes.count))
            for code in codes {
                write(code.code, to: &out)
                out.string(code.name)
            }
        case let .range(name, low, high)?:
            out.u8(2)
            out.string(name)
            out.f64(low)
            out.f64(high)
        }
        out.bool(field.defaultValue != nil)
        if let value = field.defaultValue { write(value, to: &out) }
    }

    package static func readField(_ input: inout BinaryReader) throws(FeatureCacheError) -> FieldInfo {
        let name = try input.string()
        let alias = try input.string()
        let typeCode = try input.i32()
        guard let type = FieldType(rawValue: typeCode) else { throw input.corrupt("field type \(typeCode)") }
        var field = FieldInfo(
            name: name, alias: alias, type: type, nullable: try input.bool(), editable: try input.bool(), length: try input.i32())
        field.widensToDouble = try input.bool()
        switch try input.u8() {
        case 0: break
        case 1:
            let name = try input.string()
            let count = Int(try input.u32())
            guard count <= input.remaining / 5 else { throw input.corrupt("\(count) coded values cannot fit") }
            var codes: [(code: AttributeValue, name: String)] = []
            for _ in 0..<count { codes.append((try readValue(&input), try input.string())) }
            field.domain = .codedValues(name: name, codes: codes)
        case 2: field.domain = .range(name: try input.string(), min: try input.f64(), max: try input.f64())
        case let other: throw input.corrupt("domain kind \(other)")
        }
        if try input.bool() { field.defaultValue = try readValue(&input) }
        return field
    }

    // MARK: - Table metadata

    package static func write(_ reference: SpatialReference?, to out: inout BinaryWriter) {
        out.bool(reference != nil)
        guard let reference else { return }
        out.i32(reference.wkid)
        out.i32(reference.latestWkid)
        out.optionalString(reference.wkt)
    }

    package static func readReference(_ input: inout BinaryReader) throws(FeatureCacheError) -> SpatialReference? {
        guard try input.bool() else { return nil }
        return SpatialReference(wkid: try input.i32(), latestWkid: try input.i32(), wkt: try input.optionalString())
    }

    package static func write(_ metadata: TableMetadata, to out: inout BinaryWriter) {
        out.string(metadata.name)
        out.string(metadata.description)
        out.u32(UInt32(metadata.fields.count))
        for field in metadata.fields { write(field, to: &out) }
        out.i32(metadata.geometryType.rawValue)
        write(metadata.spatialReference, to: &out)
        out.bool(metadata.extent != nil)
        if let extent = metadata.extent {
            for value in [extent.xmin, extent.ymin, extent.xmax, extent.ymax] { out.f64(value) }
            write(extent.spatialReference, to: &out)
        }
        out.optionalString(metadata.objectIdField)
        out.optionalString(metadata.globalIdField)
        out.string(metadata.displayField)
        out.int(metadata.maxRecordCount)
        out.bool(metadata.maxRecordCountDeclared)
        out.f64(metadata.minScale)
        out.f64(metadata.maxScale)
        out.bool(metadata.hasZ)
        out.bool(metadata.hasM)
        let editing = metadata.editing
        for flag in [
            editing.canAdd, editing.canUpdate, editing.canDelete, editing.allowsGeometryUpdates, editing.supportsGlobalIds,
            editing.supportsRollback, editing.requiresMValues,
        ] { out.bool(flag) }
        out.optionalString(editing.editDateField)
        out.int(editing.maxEditsPerRequest)
        out.string(editing.declared)
        // Sorted: one table gives one file, whatever the dictionary's order.
        out.u32(UInt32(metadata.sourceFacts.count))
        for (name, value) in metadata.sourceFacts.sorted(by: { $0.key < $1.key }) {
            out.string(name)
            out.string(value)
        }
        out.optionalString(metadata.dataVersion)
    }

    /// Table metadata as format `version` wrote it. Format 1 kept five ArcGIS
    /// facts in fields of their own (capabilities, pagination, query formats,
    /// service version, layer type, which WFS and OGC API tables filled in their
    /// way); they are read into `sourceFacts` under the names the `kind`'s
    /// source reports them by (its service kind's raw value, from the identity).
    package static func readMetadata(
        _ input: inout BinaryReader, version: UInt32, kind: Int32?
    ) throws(FeatureCacheError) -> TableMetadata {
        var metadata = TableMetadata(name: try input.string())
        metadata.description = try input.string()
        let fieldCount = Int(try input.u32())
        guard fieldCount <= input.remaining / 16 else { throw input.corrupt("\(fieldCount) fields cannot fit") }
        for _ in 0..<fieldCount { metadata.fields.append(try readField(&input)) }
        let geometryCode = try input.i32()
        guard let geometryType = GeometryType(rawValue: geometryCode) else { throw input.corrupt("geometry type \(geometryCode)") }
        metadata.geometryType = geometryType
        metadata.spatialReference = try readReference(&input)
        if try input.bool() {
            let xmin = try input.f64(), ymin = try input.f64(), xmax = try input.f64(), ymax = try input.f64()
            metadata.extent = Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, spatialReference: try readReference(&input))
        }
        metadata.objectIdField = try input.optionalString()
        metadata.globalIdField = try input.optionalString()
        metadata.displayField = try input.string()
        metadata.maxRecordCount = try input.int(limit: Int(Int32.max))
        metadata.maxRecordCountDeclared = try input.bool()
        metadata.minScale = try input.f64()
        metadata.maxScale = try input.f64()
        metadata.hasZ = try input.bool()
        metadata.hasM = try input.bool()
        let capabilities = version == 1 ? try input.strings() : []
        var editing = EditCapabilities()
        editing.canAdd = try input.bool()
        editing.canUpdate = try input.bool()
        editing.canDelete = try input.bool()
        editing.allowsGeometryUpdates = try input.bool()
        editing.supportsGlobalIds = try input.bool()
        editing.supportsRollback = try input.bool()
        editing.requiresMValues = try input.bool()
        editing.editDateField = try input.optionalString()
        editing.maxEditsPerRequest = try input.int(limit: Int(Int32.max))
        if version == 1 {
            let pagination = try input.bool()
            let formats = try input.strings()
            let serviceVersion = try input.f64()
            let layerType = try input.string()
            metadata.sourceFacts = formatOneFacts(
                kind: kind, capabilities: capabilities, pagination: pagination, formats: formats, version: serviceVersion,
                layerType: layerType)
            if kind == ServiceKind.arcgis.rawValue, !capabilities.isEmpty {
                editing.declared = "capabilities: " + capabilities.joined(separator: ",")
            }
        } else {
            editing.declared = try input.string()
            let count = Int(try input.u32())
            guard count <= input.remaining / 8 else { throw input.corrupt("\(count) source facts cannot fit") }
            for _ in 0..<count {
                let name = try input.string()
                metadata.sourceFacts[name] = try input.string()
            }
        }
        metadata.editing = editing
        metadata.dataVersion = try input.optionalString()
        return metadata
    }

    /// Format 1's protocol fields as the facts the kind's source now reports
    /// (the names of FCArcGIS's `ArcGISLayerFact`, FCWFS's `WFSTypeFact`,
    /// FCOGCAPI's `item_type`); this table of names is frozen with format 1.
    private static func formatOneFacts(
        kind: Int32?, capabilities: [String], pagination: Bool, formats: [String], version: Double, layerType: String
    ) -> [String: String] {
        var facts: [String: String] = [:]
        switch kind {
        case ServiceKind.arcgis.rawValue?:
            facts["capabilities"] = capabilities.joined(separator: ",")
            facts["supports_pagination"] = String(pagination)
            facts["supported_query_formats"] = formats.joined(separator: ",")
            if version != 0 { facts["current_version"] = String(version) }
            if !layerType.isEmpty { facts["layer_type"] = layerType }
        case ServiceKind.wfs.rawValue?:
            facts["output_formats"] = formats.joined(separator: ",")
            facts["version"] = version == 2 ? "2.0.0" : version == 1.1 ? "1.1.0" : "1.0.0"
        case ServiceKind.ogcFeatures.rawValue?:
            facts["item_type"] = layerType == "Table" ? "record" : "feature"
        default: break
        }
        return facts
    }
}
