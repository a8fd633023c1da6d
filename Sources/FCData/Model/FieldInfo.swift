// SPDX-License-Identifier: Apache-2.0
import FCSupport

extension FieldType {
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

extension GeometryType {
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
