// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// One feature as a one-row batch in the table's layout (its fields in order),
/// the form the cache stores it in; and the values of a cached row.
package enum EditedRow {
    /// The values of a cached row, one per field of `fields` (NULL where the
    /// row's batch has no such column).
    package static func values(of batch: FeatureBatch, row: Int, fields: [FieldInfo]) -> [AttributeValue] {
        fields.map { field in
            batch.columnIndex(named: field.name).map { batch.columns[$0].value(row) } ?? .null
        }
    }

    /// The WKB of a cached row, nil when it has none.
    package static func geometry(of batch: FeatureBatch, row: Int) -> [UInt8]? {
        let wkb = batch.geometry.wkb(row)
        return wkb.isEmpty ? nil : Array(wkb)
    }

    /// A one-row batch: `values` per field of the table, the object id (put in
    /// the object-id field too when the table has one), the geometry.
    package static func make(
        values: [AttributeValue], geometry: [UInt8]?, box: BoundingBox?, objectId: Int64, metadata: TableMetadata
    ) throws(FeatureCacheError) -> FeatureBatch {
        let builder = BatchBuilder(fields: metadata.fields, objectIdField: metadata.objectIdField)
        let oidField = metadata.objectIdField?.lowercased()
        for (index, column) in builder.columns.enumerated() {
            let value = metadata.fields[index].name.lowercased() == oidField ? .integer(objectId) : values[index]
            switch value {
            case .null: column.appendNull()
            case let .integer(v): try column.appendInteger(v)
            case let .double(v): try column.appendDouble(v)
            case let .boolean(v): try column.appendBoolean(v)
            case let .text(v):
                if column.kind == .string || column.kind == nil { column.appendText(v) } else { try column.appendTextToTypedColumn(v) }
            }
        }
        if let geometry {
            var bounds = box ?? BoundingBox()
            if box == nil {
                let shape = try VertexGeometry(wkb: geometry)
                bounds = shape.box
            }
            builder.geometry.appendWKB(geometry, bounds)
        } else {
            builder.geometry.appendNull()
        }
        builder.endRow(objectId: objectId, everyColumnFilled: true)
        return builder.finish()
    }

    /// The same row under another object id (an add the service numbered).
    package static func renumbered(
        _ batch: FeatureBatch, to objectId: Int64, metadata: TableMetadata
    ) throws(FeatureCacheError) -> FeatureBatch {
        try make(
            values: values(of: batch, row: 0, fields: metadata.fields), geometry: geometry(of: batch, row: 0),
            box: nil, objectId: objectId, metadata: metadata)
    }
}
