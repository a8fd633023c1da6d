// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables

/// Where clauses as OGC Filter Encoding: FES 2.0 (WFS 2.0, `fes:` and
/// `ValueReference`), Filter 1.1 (WFS 1.1, `ogc:` and `PropertyName`, with the
/// arithmetic FES 2.0 dropped) or Filter 1.0 (WFS 1.0: as 1.1 without
/// `matchCase`, `escape` for the LIKE escape character, boxes as `gml:Box`).
/// Returns the filter's body (without the
/// `<Filter>` element, so a spatial operator can join it under one `And`), or nil
/// for what the version cannot say.
public enum FESFilter {
    public enum Version: Sendable {
        case fes20, filter11, filter10

        var prefix: String { self == .fes20 ? "fes" : "ogc" }
        var namespace: String { self == .fes20 ? "http://www.opengis.net/fes/2.0" : "http://www.opengis.net/ogc" }
        var propertyElement: String { self == .fes20 ? "ValueReference" : "PropertyName" }
    }

    /// A complete `<Filter>` document with its namespace.
    public static func document(_ expression: WhereExpression, version: Version) -> String? {
        translate(expression, version: version).map {
            "<\(version.prefix):Filter xmlns:\(version.prefix)=\"\(version.namespace)\">\($0)</\(version.prefix):Filter>"
        }
    }

    public static func translate(_ expression: WhereExpression, version v: Version) -> String? {
        let p = v.prefix
        func element(_ name: String, _ children: [WhereExpression], attributes: String = "") -> String? {
            let parts = children.compactMap { translate($0, version: v) }
            guard parts.count == children.count else { return nil }
            return "<\(p):\(name)\(attributes)>\(parts.joined())</\(p):\(name)>"
        }
        /// `test`, or its negation when `negated`.
        func not(_ test: String?, _ negated: Bool) -> String? { negated ? test.map { "<\(p):Not>\($0)</\(p):Not>" } : test }
        switch expression {
        case let .literal(value):
            return literal(value).map { "<\(p):Literal>\(escape($0))</\(p):Literal>" }
        case let .field(name):
            return "<\(p):\(v.propertyElement)>\(escape(name))</\(p):\(v.propertyElement)>"
        case let .compare(op, a, b):
            let names: [WhereExpression.Comparison: String] = [
                .equal: "PropertyIsEqualTo", .notEqual: "PropertyIsNotEqualTo", .less: "PropertyIsLessThan",
                .lessOrEqual: "PropertyIsLessThanOrEqualTo", .greater: "PropertyIsGreaterThan",
                .greaterOrEqual: "PropertyIsGreaterThanOrEqualTo",
            ]
            return element(names[op]!, [a, b], attributes: v == .filter10 ? "" : " matchCase=\"true\"")
        case let .and(terms): return element("And", terms)
        case let .or(terms): return element("Or", terms)
        case let .not(a): return element("Not", [a])
        case let .isNull(a, negated):
            let test = element("PropertyIsNull", [a])
            return not(test, negated)
        case let .inList(a, list, negated):
            // FES has no IN: an Or of equalities (one equality stands alone).
            let equalities = list.map { WhereExpression.compare(.equal, a, $0) }
            let test =
                equalities.count == 1
                ? translate(equalities[0], version: v)
                : element("Or", equalities)
            return not(test, negated)
        case let .between(a, low, high, negated):
            guard let x = translate(a, version: v), let l = translate(low, version: v), let h = translate(high, version: v) else {
                return nil
            }
            let test =
                "<\(p):PropertyIsBetween>\(x)<\(p):LowerBoundary>\(l)</\(p):LowerBoundary><\(p):UpperBoundary>\(h)</\(p):UpperBoundary></\(p):PropertyIsBetween>"
            return not(test, negated)
        case let .like(a, pattern, escapeCharacter, negated):
            guard let x = translate(a, version: v), case let .literal(.text(text)) = pattern,
                let converted = LikeText.withBackslashEscape(text, escape: escapeCharacter)
            else { return nil }
            // FES 2.0 and Filter 1.1 name the escape character `escapeChar`; Filter 1.0 `escape`, without `matchCase`.
            let attributes = v == .filter10 ? "escape=\"\\\"" : "escapeChar=\"\\\" matchCase=\"true\""
            let test =
                "<\(p):PropertyIsLike wildCard=\"%\" singleChar=\"_\" \(attributes)>\(x)<\(p):Literal>\(escape(converted))</\(p):Literal></\(p):PropertyIsLike>"
            return not(test, negated)
        case let .arithmetic(op, a, b):
            guard v != .fes20, op != .modulo else { return nil }
            let names: [WhereExpression.Arithmetic: String] = [.add: "Add", .subtract: "Sub", .multiply: "Mul", .divide: "Div"]
            return element(names[op]!, [a, b])
        case .negate, .concat, .function, .cast, .extract:
            return nil
        }
    }

    private static func literal(_ value: WhereValue) -> String? {
        switch value {
        case .null: return nil
        case let .integer(v): return String(v)
        case let .double(v): return v.isFinite ? String(v) : nil
        case let .text(t): return t
        case let .boolean(v): return v ? "true" : "false"
        case let .timestamp(ms): return ms % 86_400_000 == 0 ? DateText.isoDate(ms) : DateText.isoTimestamp(ms)
        }
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
