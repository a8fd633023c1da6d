// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// Checks an edit against the table's schema before it is accepted, with a
/// message naming the field: it exists and the client may write it (not the
/// object id, a GlobalID, a read-only or server-computed field), the value's
/// type, range, length, nullability and domain; the geometry's type and Z/M.
package struct EditValidator {
    package let metadata: TableMetadata

    package init(metadata: TableMetadata) { self.metadata = metadata }

    /// The draft's values, each checked and normalized to its field's type,
    /// by field index; and its geometry, checked and in the table's system.
    package func check(
        _ draft: FeatureDraft, adding: Bool
    ) throws(FeatureCacheError) -> (values: [Int: AttributeValue], geometry: VertexGeometry?) {
        var values: [Int: AttributeValue] = [:]
        for (name, value) in draft.values {
            guard let index = metadata.fields.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
                let known = metadata.fields.prefix(20).map(\.name).joined(separator: ", ")
                throw .invalidArgument("the table has no field '\(name)' (fields: \(known))")
            }
            values[index] = try check(value, for: metadata.fields[index])
        }
        if adding {
            for (index, field) in metadata.fields.enumerated()
            where values[index] == nil && !field.nullable && field.defaultValue == nil && isWritable(field) {
                throw .invalidArgument("field '\(field.name)' may not be NULL: a new feature needs a value for it")
            }
        }
        var geometry: VertexGeometry? = nil
        if let wkb = draft.geometry {
            geometry = try check(wkb, in: draft.geometryReference, adding: adding)
        } else if draft.clearsGeometry, metadata.geometryType != .none {
            throw .invalidArgument("a feature of a \(metadata.geometryType) table cannot lose its geometry")
        }
        return (values, geometry)
    }

    /// Whether the client may write a field at all.
    private func isWritable(_ field: FieldInfo) -> Bool {
        field.editable && field.type != .oid && field.type != .globalID
            && field.name.lowercased() != metadata.objectIdField?.lowercased()
            && field.name.lowercased() != metadata.globalIdField?.lowercased()
    }

    /// One value, normalized to what its field stores (an integral double in
    /// an integer field becomes an integer; a date is epoch milliseconds).
    package func check(_ value: AttributeValue, for field: FieldInfo) throws(FeatureCacheError) -> AttributeValue {
        guard isWritable(field) else {
            let why =
                field.type == .oid || field.name.lowercased() == metadata.objectIdField?.lowercased()
                ? "it holds the object id, which the service gives"
                : field.type == .globalID ? "it holds the GlobalID, which the service gives" : "the service marks it read-only"
            throw .invalidArgument("field '\(field.name)' cannot be edited: \(why)")
        }
        if value.isNull {
            guard field.nullable else { throw .invalidArgument("field '\(field.name)' may not be NULL") }
            return .null
        }
        let normalized = try typed(value, field)
        if let domain = field.domain, !domain.allows(normalized) {
            throw .invalidArgument("\(normalized) is not in the domain '\(domain.name)' of field '\(field.name)'\(Self.describe(domain))")
        }
        return normalized
    }

    private func typed(_ value: AttributeValue, _ field: FieldInfo) throws(FeatureCacheError) -> AttributeValue {
        func mismatch() -> FeatureCacheError {
            .invalidArgument("field '\(field.name)' (\(field.type)) cannot take \(value)")
        }
        switch field.type {
        case .smallInteger, .integer, .bigInteger, .date:
            let integer: Int64
            switch value {
            case let .integer(v): integer = v
            case let .double(v):
                guard v.rounded() == v, let exact = Int64(exactly: v) else { throw mismatch() }
                integer = exact
            default: throw mismatch()
            }
            let range: ClosedRange<Int64> =
                field.type == .smallInteger
                ? Int64(Int16.min)...Int64(Int16.max)
                : field.type == .integer ? Int64(Int32.min)...Int64(Int32.max) : Int64.min...Int64.max
            guard range.contains(integer) else {
                throw .invalidArgument(
                    "\(integer) is out of the range of field '\(field.name)' (\(field.type): \(range.lowerBound)…\(range.upperBound))")
            }
            return .integer(integer)
        case .single, .double:
            guard let number = value.number, !value.isBoolean else { throw mismatch() }
            guard number.isFinite else { throw .invalidArgument("field '\(field.name)' cannot take \(number)") }
            if field.type == .single, abs(number) > Double(Float.greatestFiniteMagnitude) {
                throw .invalidArgument("\(number) is out of the range of field '\(field.name)' (single precision)")
            }
            return .double(number)
        case .boolean:
            guard case .boolean = value else { throw mismatch() }
            return value
        case .string, .guid, .dateOnly, .timeOnly, .timestampOffset, .xml, .unknown:
            guard case let .text(text) = value else {
                // A schema that says nothing (.unknown) takes any scalar.
                if field.type == .unknown { return value }
                throw mismatch()
            }
            if field.length > 0, text.count > Int(field.length) {
                throw .invalidArgument("field '\(field.name)' holds at most \(field.length) characters (got \(text.count))")
            }
            return value
        case .oid, .globalID, .geometry, .blob, .raster:
            throw .invalidArgument("field '\(field.name)' (\(field.type)) cannot be edited here")
        }
    }

    private static func describe(_ domain: FieldDomain) -> String {
        switch domain {
        case let .codedValues(_, codes):
            let listed = codes.prefix(12).map { "\($0.code) \($0.name)" }.joined(separator: ", ")
            return " (\(listed)\(codes.count > 12 ? ", …" : ""))"
        case let .range(_, low, high):
            return " (\(JSONNumberText.shortest(low))…\(JSONNumberText.shortest(high)))"
        }
    }

    /// The geometry, checked against the table's type and dimensions and
    /// projected to the table's system when it comes in another.
    package func check(_ wkb: [UInt8], in reference: SpatialReference?, adding: Bool) throws(FeatureCacheError) -> VertexGeometry {
        guard metadata.geometryType != .none else { throw .invalidArgument("the table has no geometry") }
        if !adding, !metadata.editing.allowsGeometryUpdates {
            throw FeatureCacheError(.unsupported, "the service does not allow geometry updates (allowGeometryUpdates is false)")
        }
        var geometry = try VertexGeometry(wkb: wkb)
        let expected = metadata.geometryType
        guard geometry.tableType == expected || (expected == .unknown && geometry.tableType != .unknown) else {
            throw .invalidArgument("a \(geometry.type) cannot be stored in a \(expected) table")
        }
        guard !geometry.isEmpty else { throw .invalidArgument("the geometry is empty") }
        let layout = geometry.layout
        if metadata.hasZ, !layout.hasZ { throw .invalidArgument("the table has Z values: the geometry needs them") }
        if !metadata.hasZ, layout.hasZ { throw .invalidArgument("the table has no Z values: the geometry has them") }
        if !metadata.hasM, layout.hasM { throw .invalidArgument("the table has no M values: the geometry has them") }
        if metadata.hasM, !layout.hasM, metadata.editing.requiresMValues {
            throw .invalidArgument(
                "the table has M values and the service takes no geometry without them (allowUpdateWithoutMValues is false)")
        }
        if let reference, let transform = try Projection.transform(from: reference, to: metadata.spatialReference) {
            let stride = geometry.stride
            var box = BoundingBox()
            for index in geometry.paths.indices {
                for start in Swift.stride(from: 0, to: geometry.paths[index].count, by: stride) {
                    let (x, y) = transform(geometry.paths[index][start], geometry.paths[index][start + 1])
                    guard x.isFinite, y.isFinite else {
                        throw .invalidArgument("the geometry has no place in the table's spatial reference")
                    }
                    geometry.paths[index][start] = x
                    geometry.paths[index][start + 1] = y
                    box.add(x, y)
                }
            }
            geometry.box = box
        }
        return geometry
    }
}

extension AttributeValue {
    fileprivate var isBoolean: Bool { if case .boolean = self { return true } else { return false } }
}
