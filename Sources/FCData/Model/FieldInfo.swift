// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Field types across services. Raw values are the C ABI's `FC_FIELD_TYPE_*`.
public enum FieldType: Int32, Sendable, CaseIterable {
    case unknown = 0
    case oid = 1
    case smallInteger = 2
    case integer = 3
    case bigInteger = 4
    case single = 5
    case double = 6
    case string = 7
    case date = 8
    case dateOnly = 9
    case timeOnly = 10
    case timestampOffset = 11
    case guid = 12
    case globalID = 13
    case geometry = 14
    case blob = 15
    case raster = 16
    case xml = 17
    /// GeoJSON/OGC `true`/`false` properties (no ArcGIS field type maps here).
    case boolean = 18

    /// The type for an ArcGIS `esriFieldType…` name; `.unknown` for a name this
    /// version does not know (the table still loads).
    public init(esriName: String) {
        switch esriName {
        case "esriFieldTypeOID": self = .oid
        case "esriFieldTypeSmallInteger": self = .smallInteger
        case "esriFieldTypeInteger": self = .integer
        case "esriFieldTypeBigInteger": self = .bigInteger
        case "esriFieldTypeSingle": self = .single
        case "esriFieldTypeDouble": self = .double
        case "esriFieldTypeString": self = .string
        case "esriFieldTypeDate": self = .date
        case "esriFieldTypeDateOnly": self = .dateOnly
        case "esriFieldTypeTimeOnly": self = .timeOnly
        case "esriFieldTypeTimestampOffset": self = .timestampOffset
        case "esriFieldTypeGUID": self = .guid
        case "esriFieldTypeGlobalID": self = .globalID
        case "esriFieldTypeGeometry": self = .geometry
        case "esriFieldTypeBlob": self = .blob
        case "esriFieldTypeRaster": self = .raster
        case "esriFieldTypeXML": self = .xml
        default: self = .unknown
        }
    }
}

/// One attribute field of a table's schema.
public struct FieldInfo: Sendable, Equatable {
    public var name: String
    public var alias: String
    public var type: FieldType
    public var nullable: Bool
    public var editable: Bool
    /// Maximum length of string fields, 0 when not given.
    public var length: Int32
    /// An integer field (`.bigInteger`) declared only as a JSON Schema
    /// "number", which integers are too: stored as integers while the values
    /// are written as integers, widened to doubles (never cut) by the first
    /// written with a fraction or an exponent.
    public var widensToDouble = false
    /// The values an edit may write beyond the type's (ArcGIS domains); nil = any.
    public var domain: FieldDomain?
    /// A default the service gives new features (ArcGIS `defaultValue`); nil = none.
    public var defaultValue: AttributeValue?

    public init(name: String, alias: String? = nil, type: FieldType, nullable: Bool = true, editable: Bool = false, length: Int32 = 0) {
        self.name = name
        self.alias = alias ?? name
        self.type = type
        self.nullable = nullable
        self.editable = editable
        self.length = length
    }
}

/// Geometry types of tables. Raw values are the C ABI's `FC_GEOMETRY_TYPE_*`.
public enum GeometryType: Int32, Sendable {
    case none = 0
    case point = 1
    case multipoint = 2
    case polyline = 3
    case polygon = 4
    case envelope = 5
    case multipatch = 6
    case unknown = 7

    public init(esriName: String?) {
        switch esriName {
        case nil, "": self = .none
        case "esriGeometryPoint": self = .point
        case "esriGeometryMultipoint": self = .multipoint
        case "esriGeometryPolyline": self = .polyline
        case "esriGeometryPolygon": self = .polygon
        case "esriGeometryEnvelope": self = .envelope
        case "esriGeometryMultiPatch": self = .multipatch
        default: self = .unknown
        }
    }
}
