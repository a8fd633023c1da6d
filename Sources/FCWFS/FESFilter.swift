// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Where clauses as OGC Filter Encoding: FES 2.0 (WFS 2.0, `fes:` and
/// `ValueReference`), Filter 1.1 (WFS 1.1, `ogc:` and `PropertyName`, with the
/// arithmetic FES 2.0 dropped) or Filter 1.0 (WFS 1.0: as 1.1 without
/// `matchCase`, `escape` for the LIKE escape character, boxes as `gml:Box`).
/// Returns the filter's body (without the
/// `<Filter>` element, so a spatial operator can join it under one `And`), or nil
/// for what the version cannot say.
public struct FESFilter: WhereDialect {
    public enum Version: Sendable {
        case fes20, filter11, filter10

        var prefix: String { self == .fes20 ? "fes" : "ogc" }
        var namespace: String { self == .fes20 ? "http://www.opengis.net/fes/2.0" : "http://www.opengis.net/ogc" }
        var propertyElement: String { self == .fes20 ? "ValueReference" : "PropertyName" }
    }

    let version: Version

    /// A complete `<Filter>` document with its namespace.
    public static func document(_ expression: WhereExpression, version: Version) -> String? {
        translate(expression, version: version).map {
            "<\(version.prefix):Filter xmlns:\(version.prefix)=\"\(version.namespace)\">\($0)</\(version.prefix):Filter>"
        }
    }

    public static func translate(_ expression: WhereExpression, version: Version) -> String? {
        expression.rendered(in: FESFilter(version: version))
    }

    /// Every literal is text in a `<Literal>`, dates and timestamps as ISO 8601.
    package func number(_ digits: String) -> String { element("Literal", digits) }
    package func text(_ value: String) -> String { element("Literal", Self.escape(value)) }
    package func boolean(_ value: Bool) -> String { element("Literal", value ? "true" : "false") }
    package func date(_ iso: String) -> String { element("Literal", iso) }
    package func timestamp(_ iso: String) -> String { element("Literal", iso) }

    package func field(_ name: String) -> String { element(version.propertyElement, Self.escape(name)) }

    package func negate(_ operand: String) -> String? { nil }

    /// Filter 1.0 and 1.1 only: FES 2.0 dropped arithmetic; none has a modulo.
    package func arithmetic(_ op: WhereExpression.Arithmetic, _ a: String, _ b: String) -> String? {
        let names: [WhereExpression.Arithmetic: String] = [.add: "Add", .subtract: "Sub", .multiply: "Mul", .divide: "Div"]
        guard version != .fes20, let name = names[op] else { return nil }
        return element(name, a + b)
    }

    package func compare(_ op: WhereExpression.Comparison, _ a: String, _ b: String) -> String {
        let names: [WhereExpression.Comparison: String] = [
            .equal: "PropertyIsEqualTo", .notEqual: "PropertyIsNotEqualTo", .less: "PropertyIsLessThan",
            .lessOrEqual: "PropertyIsLessThanOrEqualTo", .greater: "PropertyIsGreaterThan",
            .greaterOrEqual: "PropertyIsGreaterThanOrEqualTo",
        ]
        return element(names[op]!, a + b, attributes: version == .filter10 ? "" : " matchCase=\"true\"")
    }

    package func and(_ terms: [String]) -> String { element("And", terms.joined()) }
    package func or(_ terms: [String]) -> String { element("Or", terms.joined()) }
    package func not(_ operand: String) -> String { element("Not", operand) }
    package func isNull(_ operand: String, negated: Bool) -> String { not(element("PropertyIsNull", operand), negated) }

    /// FES has no IN: an Or of equalities (one equality stands alone).
    package func inList(_ operand: String, _ members: [String], negated: Bool) -> String {
        let equalities = members.map { compare(.equal, operand, $0) }
        return not(equalities.count == 1 ? equalities[0] : or(equalities), negated)
    }

    package func between(_ operand: String, _ low: String, _ high: String, negated: Bool) -> String {
        let bounds = element("LowerBoundary", low) + element("UpperBoundary", high)
        return not(element("PropertyIsBetween", operand + bounds), negated)
    }

    package func like(_ operand: String, pattern: String, negated: Bool) -> String {
        // FES 2.0 and Filter 1.1 name the escape character `escapeChar`; Filter 1.0 `escape`, without `matchCase`.
        let escapeAttributes = version == .filter10 ? "escape=\"\\\"" : "escapeChar=\"\\\" matchCase=\"true\""
        let attributes = " wildCard=\"%\" singleChar=\"_\" " + escapeAttributes
        return not(element("PropertyIsLike", operand + element("Literal", Self.escape(pattern)), attributes: attributes), negated)
    }

    /// `test`, or its negation when `negated`.
    private func not(_ test: String, _ negated: Bool) -> String { negated ? not(test) : test }

    private func element(_ name: String, _ content: String, attributes: String = "") -> String {
        "<\(version.prefix):\(name)\(attributes)>\(content)</\(version.prefix):\(name)>"
    }

    /// XML character escaping for text and attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
