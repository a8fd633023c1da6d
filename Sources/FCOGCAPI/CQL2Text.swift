// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Where clauses as OGC CQL2 text (basic CQL2, advanced comparison operators,
/// arithmetic): what OGC API - Features servers take in `filter`. Returns nil for
/// anything CQL2 cannot say (string functions, CAST, EXTRACT, ||), which then
/// stays local (see `WherePushdown`).
public struct CQL2Text: WhereDialect {
    public static func translate(_ expression: WhereExpression) -> String? {
        expression.rendered(in: CQL2Text())
    }

    package func number(_ digits: String) -> String { digits }
    package func text(_ value: String) -> String { Self.quoted(value) }
    package func boolean(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }
    package func date(_ iso: String) -> String { "DATE('\(iso)')" }
    package func timestamp(_ iso: String) -> String { "TIMESTAMP('\(iso)')" }

    /// A property name, double-quoted when it is not a plain identifier.
    package func field(_ name: String) -> String {
        let plain =
            name.unicodeScalars.allSatisfy { $0 == "_" || ($0.value < 128 && (($0.properties.isAlphabetic) || ("0"..."9").contains($0))) }
            && !(name.first.map { ("0"..."9").contains($0) } ?? true)
        return plain ? name : "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }

    package func negate(_ operand: String) -> String? { "-(\(operand))" }
    package func arithmetic(_ op: WhereExpression.Arithmetic, _ a: String, _ b: String) -> String? { "(\(a) \(op.rawValue) \(b))" }
    package func compare(_ op: WhereExpression.Comparison, _ a: String, _ b: String) -> String { "\(a) \(op.rawValue) \(b)" }
    package func and(_ terms: [String]) -> String { "(" + terms.joined(separator: " AND ") + ")" }
    package func or(_ terms: [String]) -> String { "(" + terms.joined(separator: " OR ") + ")" }
    package func not(_ operand: String) -> String { "NOT (\(operand))" }
    package func isNull(_ operand: String, negated: Bool) -> String { "\(operand) IS \(Self.not(negated))NULL" }

    package func inList(_ operand: String, _ members: [String], negated: Bool) -> String {
        "\(operand) \(Self.not(negated))IN (\(members.joined(separator: ", ")))"
    }

    package func between(_ operand: String, _ low: String, _ high: String, negated: Bool) -> String {
        "\(operand) \(Self.not(negated))BETWEEN \(low) AND \(high)"
    }

    package func like(_ operand: String, pattern: String, negated: Bool) -> String {
        "\(operand) \(Self.not(negated))LIKE \(Self.quoted(pattern))"
    }

    private static func not(_ negated: Bool) -> String { negated ? "NOT " : "" }
    static func quoted(_ text: String) -> String { "'" + text.replacingAll("'", with: "''") + "'" }
}
