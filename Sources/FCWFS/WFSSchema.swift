// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// A feature type's schema from DescribeFeatureType (XML Schema): the attribute
/// fields with types and nullability, and the geometry property with its type.
package struct WFSSchema: Sendable {
    package var fields: [FieldInfo] = []
    package var geometryProperty: String?
    package var geometryType: GeometryType = .none
    /// The geometry property's GML type as the schema names it, without its
    /// prefix ("MultiSurfacePropertyType"): single and multi parts, which
    /// `geometryType` does not tell apart.
    package var geometryPropertyType: String?
    /// The schema's target namespace (the feature type's namespace).
    package var targetNamespace = ""

    package init() {}

    /// Reads the schema of `typeName` (prefix optional). Servers answer with the
    /// element and its complex type, an inline anonymous type, several types at
    /// once (ArcGIS), or only the complex type (some GeoServers).
    package static func parse(_ bytes: [UInt8], typeName: String) throws(FeatureCacheError) -> WFSSchema {
        let root = try XMLElement.parse(bytes, what: "WFS DescribeFeatureType")
        if let exception = WFSException(root) { throw exception.error(status: 200) }
        guard root.name == "schema" else {
            throw FeatureCacheError(.parse, "DescribeFeatureType did not answer with an XML schema (root element '\(root.name)')")
        }
        let local = typeName.split(separator: ":").last.map(String.init) ?? typeName
        let elements = root.children("element")
        let complexTypes = root.children("complexType")
        var type: XMLElement? = nil
        if let element = elements.first(where: { $0.attribute("name") == local }) ?? (elements.count == 1 ? elements.first : nil) {
            if let inline = element.child("complexType") {
                type = inline
            } else if let typeRef = element.attribute("type") {
                let typeLocal = Self.localPart(typeRef)
                type = complexTypes.first { $0.attribute("name") == typeLocal }
            }
        }
        type =
            type ?? complexTypes.first { $0.attribute("name") == local + "Type" || $0.attribute("name") == local + "FeatureType" }
            ?? (complexTypes.count == 1 ? complexTypes.first : nil)
        guard let type else {
            throw FeatureCacheError(
                .service,
                "the DescribeFeatureType schema has no element or type for '\(typeName)' (it defines: \(elements.compactMap { $0.attribute("name") }.prefix(10).joined(separator: ", ")))"
            )
        }
        var schema = WFSSchema()
        schema.targetNamespace = root.attribute("targetNamespace") ?? ""
        for property in type.descendants("element") {
            guard let name = property.attribute("name") ?? property.attribute("ref").map(Self.localPart) else { continue }
            let nullable = property.attribute("nillable") == "true" || property.attribute("minOccurs") == "0"
            let typeRef = property.attribute("type") ?? property.descendant("restriction")?.attribute("base") ?? ""
            let typeLocal = Self.localPart(typeRef)
            // A property without a type that refers to a GML element (`ref="gml:Point"`) is typed by it.
            let geometryName = typeLocal.isEmpty ? (property.attribute("ref").map(Self.localPart) ?? "") : typeLocal
            if let geometry = Self.geometryType(geometryName) {
                if schema.geometryProperty == nil {
                    schema.geometryProperty = name
                    schema.geometryType = geometry
                    schema.geometryPropertyType = geometryName
                }
                continue
            }
            var field = FieldInfo(name: name, type: Self.fieldType(typeLocal), nullable: nullable)
            if let maxLength = property.descendant("maxLength")?.attribute("value").flatMap(Int32.init) { field.length = maxLength }
            schema.fields.append(field)
        }
        return schema
    }

    static func localPart(_ qualified: String) -> String {
        qualified.split(separator: ":").last.map(String.init) ?? qualified
    }

    /// The table geometry type of a GML property type or element (its local
    /// name); nil for a non-geometry type.
    static func geometryType(_ name: String) -> GeometryType? {
        switch name {
        case "PointPropertyType", "Point": return .point
        case "MultiPointPropertyType", "MultiPoint": return .multipoint
        case "LineStringPropertyType", "CurvePropertyType", "MultiLineStringPropertyType", "MultiCurvePropertyType",
            "LineString", "MultiLineString", "Curve", "MultiCurve":
            return .polyline
        case "PolygonPropertyType", "SurfacePropertyType", "MultiPolygonPropertyType", "MultiSurfacePropertyType",
            "Polygon", "MultiPolygon", "Surface", "MultiSurface":
            return .polygon
        case "GeometryPropertyType", "GeometryAssociationType", "MultiGeometryPropertyType", "_Geometry", "AbstractGeometry":
            return .unknown
        default: return nil
        }
    }

    /// The field type of an XML Schema simple type.
    static func fieldType(_ typeLocal: String) -> FieldType {
        switch typeLocal {
        case "int", "integer", "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger",
            "unsignedInt", "unsignedShort":
            return .integer
        case "short", "byte", "unsignedByte": return .smallInteger
        case "long", "unsignedLong": return .bigInteger
        case "double", "decimal": return .double
        case "float": return .single
        case "boolean": return .boolean
        case "date": return .dateOnly
        case "dateTime": return .date
        case "time": return .timeOnly
        default: return .string
        }
    }
}
