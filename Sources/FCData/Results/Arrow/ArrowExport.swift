// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A result as Arrow record batches (the Arrow C data interface's layouts, not
/// its C structs: the C API wraps these in `ArrowArrayStream`). One record batch
/// per result part; columns are the object id, every result field with its true
/// type, and the geometry as WKB with GeoArrow metadata.
///
/// What is shared and what is copied: a batch taken whole (a populate's pages)
/// shares int64, date, double and validity buffers and the WKB bytes with the
/// store. Copied, because the layouts differ: strings (the store ends each value
/// with a NUL for C callers, Arrow wants them back to back), booleans (stored as
/// 0/1 integers, Arrow packs bits), 16- and 32-bit integers and single floats
/// (stored widened), date-only text (→ days), point offsets (implied by the
/// store, explicit in Arrow). Rows picked out of a batch (a query answered by
/// the cache) are gathered into new buffers.
public final class ArrowExport: Sendable {
    public let columns: [ArrowColumnSpec]
    package let result: FeatureResult
    private let sources: [ArrowColumnSource]

    /// Plans the schema: each field's type from its service type, widened where
    /// the values say it must be (see `ArrowColumnPlanner`).
    public init(_ result: FeatureResult) {
        self.result = result
        var specs: [ArrowColumnSpec] = []
        var sources: [ArrowColumnSource] = []
        var names = Set<String>()
        func unique(_ name: String) -> String {
            var candidate = name
            while names.contains(candidate.lowercased()) { candidate += "_" }
            names.insert(candidate.lowercased())
            return candidate
        }
        for field in result.fields { names.insert(field.name.lowercased()) }
        if !result.fields.contains(where: { $0.type == .oid }) {
            // OGC API and WFS ids, or ArcGIS out fields without the object id field.
            names.remove("object_id")
            specs.append(ArrowColumnSpec(name: unique("object_id"), type: .int64, nullable: false))
            sources.append(.objectId)
        }
        let planner = ArrowColumnPlanner(result)
        for (index, field) in result.fields.enumerated() {
            specs.append(
                ArrowColumnSpec(
                    name: field.name, type: planner.type(ofField: index),
                    nullable: field.type != .oid))
            sources.append(.field(index))
        }
        if result.includesGeometry {
            specs.append(
                ArrowColumnSpec(
                    name: unique("geometry"), type: .wkb, nullable: true,
                    metadata: [
                        ("ARROW:extension:name", "geoarrow.wkb"),
                        ("ARROW:extension:metadata", Self.geoArrowMetadata(result.spatialReference)),
                    ]))
            sources.append(.geometry)
        }
        columns = specs
        self.sources = sources
    }

    private init(_ result: FeatureResult, columns: [ArrowColumnSpec], sources: [ArrowColumnSource]) {
        self.result = result
        self.columns = columns
        self.sources = sources
    }

    /// A page of a stream in the columns of `schema` (the export of the
    /// stream's first page), in its order (pages of inferred fields list them
    /// in the order their features did): each column of the type this page's
    /// values need, written as the schema's where that holds every value
    /// (int16 into int32, any number into float64 that holds it exactly,
    /// anything but a date or geometry into text); a schema column the page
    /// lacks is NULL. `.protocol` when it cannot be: a column the schema lacks,
    /// or values its type cannot hold (the service's pages disagree; an Arrow
    /// stream's schema is given before its batches, and nothing is changed
    /// to fit).
    public convenience init(_ result: FeatureResult, following schema: ArrowExport) throws(FeatureCacheError) {
        let own = ArrowExport(result)
        var place: [String: Int] = [:]
        for (index, column) in own.columns.enumerated() { place[column.name] = index }
        if let extra = own.columns.first(where: { column in !schema.columns.contains { $0.name == column.name } }) {
            throw FeatureCacheError(
                .protocol,
                "a page has a column \(extra.name) the stream's schema, from its first page, lacks "
                    + "(\(schema.columns.map(\.name).joined(separator: ", "))): the service's pages disagree on its fields")
        }
        var sources: [ArrowColumnSource] = []
        for theirs in schema.columns {
            guard let index = place[theirs.name] else {
                sources.append(.absent)
                continue
            }
            let mine = own.columns[index]
            // An integer page of a float column (GeoJSON writes 24.0 as 24): exact within ±2^53.
            let exactDoubles =
                if mine.type == .int64, theirs.type == .float64, case .field(let field) = own.sources[index] {
                    ArrowColumnPlanner(result).integersAreExactDoubles(ofField: field)
                } else { false }
            guard Self.widens(mine.type, into: theirs.type) || exactDoubles else {
                throw FeatureCacheError(
                    .protocol,
                    "column \(mine.name) of a page needs \(mine.type.format), which the stream's schema, from its first page, "
                        + "gives as \(theirs.type.format): the service's pages disagree on its type")
            }
            sources.append(own.sources[index])
        }
        self.init(result, columns: schema.columns, sources: sources)
    }

    /// Whether values planned as `page` are written exactly as `schema`.
    static func widens(_ page: ArrowType, into schema: ArrowType) -> Bool {
        switch (page, schema) {
        case _ where page == schema: true
        case (.int16, .int32), (.int16, .int64), (.int32, .int64): true
        case (.int16, .float64), (.int32, .float64), (.float32, .float64): true
        case (.int16, .utf8), (.int32, .utf8), (.int64, .utf8), (.float32, .utf8), (.float64, .utf8), (.boolean, .utf8),
            (.date32, .utf8):
            true
        default: false
        }
    }

    /// The number of record batches.
    public var batchCount: Int { result.parts.count }

    /// Record batch `index`: its row count and one array per column. FC_E_LIMIT
    /// when a column's data passes Arrow's 2 GiB limit for 32-bit offsets.
    public func batch(_ index: Int) throws(FeatureCacheError) -> (length: Int, columns: [ArrowColumnData]) {
        let part = result.parts[index]
        var arrays: [ArrowColumnData] = []
        arrays.reserveCapacity(columns.count)
        for (spec, source) in zip(columns, sources) {
            let writer = ArrowColumnWriter(batch: part.batch, rows: part.rows, length: part.count)
            switch source {
            case .objectId: arrays.append(writer.objectIds())
            case .field(let field):
                let mapped = Int(part.columnMap[field])
                arrays.append(try writer.values(mapped < 0 ? nil : part.batch.columns[mapped], as: spec.type))
            case .geometry: arrays.append(try writer.geometry())
            case .absent: arrays.append(writer.allNull(spec.type))
            }
        }
        return (part.count, arrays)
    }

    /// GeoArrow's extension metadata: the CRS as PROJJSON (what GeoArrow
    /// recommends, and GeoPandas and GDAL read; its `id` keeps the EPSG or Esri
    /// code); when PROJ cannot describe it, the authority code ("EPSG:…",
    /// "ESRI:…") or the WKT the service gave; none for an unknown CRS.
    package static func geoArrowMetadata(_ reference: SpatialReference?) -> String {
        guard let reference else { return "{}" }
        if let description = try? Projection.describe(reference), !description.projJSON.isEmpty {
            return "{\"crs\":\(description.projJSON),\"crs_type\":\"projjson\"}"
        }
        let wkid = reference.effectiveWkid
        if wkid > 0 {
            let authority = wkid >= 100_000 ? "ESRI" : "EPSG"
            return "{\"crs\":\"\(authority):\(wkid)\",\"crs_type\":\"authority_code\"}"
        }
        if let wkt = reference.wkt, !wkt.isEmpty { return "{\"crs\":\(JSONStringText.quoted(wkt))}" }
        return "{}"
    }
}

/// The Arrow types a result column takes.
public enum ArrowType: Sendable, Equatable {
    case int16, int32, int64, float32, float64, boolean, utf8, date32, timestampMilliseconds, wkb

    /// The type's format string in the Arrow C data interface.
    public var format: String {
        switch self {
        case .int16: "s"
        case .int32: "i"
        case .int64: "l"
        case .float32: "f"
        case .float64: "g"
        case .boolean: "b"
        case .utf8: "u"
        case .date32: "tdD"
        case .timestampMilliseconds: "tsm:UTC"
        case .wkb: "z"
        }
    }
}

/// One column of the schema.
public struct ArrowColumnSpec: Sendable {
    public let name: String
    public let type: ArrowType
    public let nullable: Bool
    /// Field metadata, in order (GeoArrow's extension name and metadata).
    public let metadata: [(key: String, value: String)]

    package init(name: String, type: ArrowType, nullable: Bool, metadata: [(key: String, value: String)] = []) {
        self.name = name
        self.type = type
        self.nullable = nullable
        self.metadata = metadata
    }
}

/// One column of one record batch: the Arrow buffers (validity first, then the
/// type's value or offset and data buffers) and what keeps them alive.
public struct ArrowColumnData: @unchecked Sendable {
    public let length: Int
    public let nullCount: Int
    public let buffers: [UnsafeRawPointer?]
    /// Batches whose storage the buffers borrow and `ArrowBuffer`s they own:
    /// hold these until the consumer releases the array.
    public let owners: [AnyObject]
}

package enum ArrowColumnSource: Sendable {
    case objectId
    case field(Int)
    case geometry
    /// A column of the stream's schema this page lacks: NULL.
    case absent
}
