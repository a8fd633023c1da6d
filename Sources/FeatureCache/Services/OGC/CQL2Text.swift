// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables

/// Where clauses as OGC CQL2 text (basic CQL2, advanced comparison operators,
/// arithmetic): what OGC API - Features servers take in `filter`. Returns nil for
/// anything CQL2 cannot say (string functions, CAST, EXTRACT, ||), which then
/// stays local (see `WherePushdown`).
public enum CQL2Text {
    public static func translate(_ expression: WhereExpression) -> String? {
        switch expression {
        case let .literal(value): return literal(value)
        case let .field(name): return property(name)
        case let .negate(a): return translate(a).map { "-(\($0))" }
        case let .arithmetic(op, a, b):
            guard let x = translate(a), let y = translate(b) else { return nil }
            return "(\(x) \(op.rawValue) \(y))"
        case let .compare(op, a, b):
            guard let x = translate(a), let y = translate(b) else { return nil }
            return "\(x) \(op.rawValue) \(y)"
        case let .and(terms): return joined(terms, "AND")
        case let .or(terms): return joined(terms, "OR")
        case let .not(a): return translate(a).map { "NOT (\($0))" }
        case let .isNull(a, negated): return translate(a).map { "\($0) IS \(negated ? "NOT " : "")NULL" }
        case let .inList(a, list, negated):
            guard let x = translate(a) else { return nil }
            let members = list.compactMap(translate)
            guard members.count == list.count else { return nil }
            return "\(x) \(negated ? "NOT " : "")IN (\(members.joined(separator: ", ")))"
        case let .between(a, low, high, negated):
            guard let x = translate(a), let l = translate(low), let h = translate(high) else { return nil }
            return "\(x) \(negated ? "NOT " : "")BETWEEN \(l) AND \(h)"
        case let .like(a, pattern, escape, negated):
            guard let x = translate(a), case let .literal(.text(text)) = pattern,
                let converted = LikeText.withBackslashEscape(text, escape: escape)
            else { return nil }
            return "\(x) \(negated ? "NOT " : "")LIKE \(quoted(converted))"
        case .concat, .function, .cast, .extract:
            return nil
        }
    }

    /// `(a AND b AND c)`; nil when any term cannot be said.
    private static func joined(_ terms: [WhereExpression], _ keyword: String) -> String? {
        var parts: [String] = []
        parts.reserveCapacity(terms.count)
        for term in terms {
            guard let part = translate(term) else { return nil }
            parts.append(part)
        }
        return "(" + parts.joined(separator: " \(keyword) ") + ")"
    }

    static func literal(_ value: WhereValue) -> String? {
        switch value {
        case .null: return nil  // CQL2 has no NULL literal outside IS NULL
        case let .integer(v): return String(v)
        case let .double(v): return v.isFinite ? String(v) : nil
        case let .text(t): return quoted(t)
        case let .boolean(v): return v ? "TRUE" : "FALSE"
        case let .timestamp(ms):
            return ms % 86_400_000 == 0 ? "DATE('\(DateText.isoDate(ms))')" : "TIMESTAMP('\(DateText.isoTimestamp(ms))')"
        }
    }

    /// A property name, double-quoted when it is not a plain identifier.
    static func property(_ name: String) -> String {
        let plain =
            name.unicodeScalars.allSatisfy { $0 == "_" || ($0.value < 128 && (($0.properties.isAlphabetic) || ("0"..."9").contains($0))) }
            && !(name.first.map { ("0"..."9").contains($0) } ?? true)
        return plain ? name : "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingAll("'", with: "''") + "'" }
}
