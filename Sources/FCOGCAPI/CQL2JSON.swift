// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// Where clauses as OGC CQL2-JSON (`{"op": "=", "args": [{"property": "a"}, 1]}`),
/// for servers that take a filter by POST or `filter-lang=cql2-json`. nil for
/// what CQL2 cannot say, as `CQL2Text`.
public struct CQL2JSON: WhereDialect {
    public static func translate(_ expression: WhereExpression) -> String? {
        expression.rendered(in: CQL2JSON())
    }

    package func number(_ digits: String) -> String { digits }
    package func text(_ value: String) -> String { Self.string(value) }
    package func boolean(_ value: Bool) -> String { value ? "true" : "false" }
    package func date(_ iso: String) -> String { "{\"date\":\"\(iso)\"}" }
    package func timestamp(_ iso: String) -> String { "{\"timestamp\":\"\(iso)\"}" }

    package func field(_ name: String) -> String { "{\"property\":\(Self.string(name))}" }
    package func negate(_ operand: String) -> String? { operation("*", ["-1", operand]) }
    package func arithmetic(_ op: WhereExpression.Arithmetic, _ a: String, _ b: String) -> String? { operation(op.rawValue, [a, b]) }
    package func compare(_ op: WhereExpression.Comparison, _ a: String, _ b: String) -> String { operation(op.rawValue, [a, b]) }
    package func and(_ terms: [String]) -> String { operation("and", terms) }
    package func or(_ terms: [String]) -> String { operation("or", terms) }
    package func not(_ operand: String) -> String { operation("not", [operand]) }
    package func isNull(_ operand: String, negated: Bool) -> String { not(operation("isNull", [operand]), negated) }

    package func inList(_ operand: String, _ members: [String], negated: Bool) -> String {
        not(operation("in", [operand, "[" + members.joined(separator: ",") + "]"]), negated)
    }

    package func between(_ operand: String, _ low: String, _ high: String, negated: Bool) -> String {
        not(operation("between", [operand, low, high]), negated)
    }

    package func like(_ operand: String, pattern: String, negated: Bool) -> String {
        not(operation("like", [operand, Self.string(pattern)]), negated)
    }

    /// `test`, or its negation when `negated`.
    private func not(_ test: String, _ negated: Bool) -> String { negated ? not(test) : test }

    private func operation(_ op: String, _ arguments: [String]) -> String {
        "{\"op\":\(Self.string(op)),\"args\":[\(arguments.joined(separator: ","))]}"
    }

    static func string(_ text: String) -> String {
        var writer = GeoJSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
