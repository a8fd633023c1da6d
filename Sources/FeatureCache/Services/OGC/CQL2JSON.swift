// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables

/// Where clauses as OGC CQL2-JSON (`{"op": "=", "args": [{"property": "a"}, 1]}`),
/// for servers that take a filter by POST or `filter-lang=cql2-json`. nil for
/// what CQL2 cannot say, as `CQL2Text`.
public enum CQL2JSON {
    public static func translate(_ expression: WhereExpression) -> String? {
        switch expression {
        case let .literal(value): return literal(value)
        case let .field(name): return "{\"property\":\(string(name))}"
        case let .negate(a): return translate(a).map { "{\"op\":\"*\",\"args\":[-1,\($0)]}" }
        case let .arithmetic(op, a, b): return operation(op.rawValue, [a, b])
        case let .compare(op, a, b): return operation(op.rawValue, [a, b])
        case let .and(terms): return operation("and", terms)
        case let .or(terms): return operation("or", terms)
        case let .not(a): return operation("not", [a])
        case let .isNull(a, negated):
            let test = operation("isNull", [a])
            return not(test, negated)
        case let .inList(a, list, negated):
            guard let x = translate(a) else { return nil }
            let members = list.compactMap(translate)
            guard members.count == list.count else { return nil }
            let test = "{\"op\":\"in\",\"args\":[\(x),[\(members.joined(separator: ","))]]}"
            return not(test, negated)
        case let .between(a, low, high, negated):
            let test = operation("between", [a, low, high])
            return not(test, negated)
        case let .like(a, pattern, escape, negated):
            guard let x = translate(a), case let .literal(.text(text)) = pattern,
                let converted = LikeText.withBackslashEscape(text, escape: escape)
            else { return nil }
            let test = "{\"op\":\"like\",\"args\":[\(x),\(string(converted))]}"
            return not(test, negated)
        case .concat, .function, .cast, .extract:
            return nil
        }
    }

    /// `test`, or its negation when `negated`.
    private static func not(_ test: String?, _ negated: Bool) -> String? {
        negated ? test.map { "{\"op\":\"not\",\"args\":[\($0)]}" } : test
    }

    private static func operation(_ op: String, _ arguments: [WhereExpression]) -> String? {
        let translated = arguments.compactMap(translate)
        guard translated.count == arguments.count else { return nil }
        return "{\"op\":\(string(op)),\"args\":[\(translated.joined(separator: ","))]}"
    }

    private static func literal(_ value: WhereValue) -> String? {
        switch value {
        case .null: return nil
        case let .integer(v): return String(v)
        case let .double(v): return v.isFinite ? String(v) : nil
        case let .text(t): return string(t)
        case let .boolean(v): return v ? "true" : "false"
        case let .timestamp(ms):
            return ms % 86_400_000 == 0 ? "{\"date\":\"\(DateText.isoDate(ms))\"}" : "{\"timestamp\":\"\(DateText.isoTimestamp(ms))\"}"
        }
    }

    static func string(_ text: String) -> String {
        var writer = GeoJSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
