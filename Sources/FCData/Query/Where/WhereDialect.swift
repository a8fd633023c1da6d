// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A language a server takes where clauses in (CQL2 text, CQL2-JSON, OGC Filter
/// Encoding): how each part of a `WhereExpression` is written, given its
/// operands already written. `WhereExpression.rendered(in:)` walks the tree;
/// a part the dialect cannot say is nil, and so is every clause holding it,
/// which then stays local (`WherePushdown`).
package protocol WhereDialect {
    /// A literal number, as `String(_:)` writes it.
    func number(_ digits: String) -> String
    func text(_ value: String) -> String
    func boolean(_ value: Bool) -> String
    /// An ISO 8601 date (`2024-05-01`) or timestamp (`2024-05-01T10:00:00Z`).
    func date(_ iso: String) -> String
    func timestamp(_ iso: String) -> String
    func field(_ name: String) -> String
    func negate(_ operand: String) -> String?
    func arithmetic(_ op: WhereExpression.Arithmetic, _ a: String, _ b: String) -> String?
    func compare(_ op: WhereExpression.Comparison, _ a: String, _ b: String) -> String
    /// Two or more terms.
    func and(_ terms: [String]) -> String
    func or(_ terms: [String]) -> String
    func not(_ operand: String) -> String
    func isNull(_ operand: String, negated: Bool) -> String
    func inList(_ operand: String, _ members: [String], negated: Bool) -> String
    func between(_ operand: String, _ low: String, _ high: String, negated: Bool) -> String
    /// `pattern`: `%` and `_` wildcards, `\` the escape character.
    func like(_ operand: String, pattern: String, negated: Bool) -> String
}

extension WhereExpression {
    /// The expression in `dialect`; nil when any part of it cannot be said there
    /// (string functions, CAST, EXTRACT and `||` have no server dialect).
    package func rendered(in dialect: some WhereDialect) -> String? {
        func all(_ operands: [WhereExpression]) -> [String]? {
            var written: [String] = []
            written.reserveCapacity(operands.count)
            for operand in operands {
                guard let part = operand.rendered(in: dialect) else { return nil }
                written.append(part)
            }
            return written
        }
        switch self {
        case let .literal(value):
            switch value {
            case .null: return nil  // no dialect has a NULL literal outside IS NULL
            case let .integer(v): return dialect.number(String(v))
            case let .double(v): return v.isFinite ? dialect.number(String(v)) : nil
            case let .text(t): return dialect.text(t)
            case let .boolean(v): return dialect.boolean(v)
            case let .timestamp(ms):
                return ms % 86_400_000 == 0 ? dialect.date(DateText.isoDate(ms)) : dialect.timestamp(DateText.isoTimestamp(ms))
            }
        case let .field(name): return dialect.field(name)
        case let .negate(a): return a.rendered(in: dialect).flatMap(dialect.negate)
        case let .arithmetic(op, a, b):
            guard let x = all([a, b]) else { return nil }
            return dialect.arithmetic(op, x[0], x[1])
        case let .compare(op, a, b): return all([a, b]).map { dialect.compare(op, $0[0], $0[1]) }
        case let .and(terms): return all(terms).map(dialect.and)
        case let .or(terms): return all(terms).map(dialect.or)
        case let .not(a): return a.rendered(in: dialect).map(dialect.not)
        case let .isNull(a, negated): return a.rendered(in: dialect).map { dialect.isNull($0, negated: negated) }
        case let .inList(a, list, negated):
            guard let x = a.rendered(in: dialect), let members = all(list) else { return nil }
            return dialect.inList(x, members, negated: negated)
        case let .between(a, low, high, negated):
            return all([a, low, high]).map { dialect.between($0[0], $0[1], $0[2], negated: negated) }
        case let .like(a, pattern, escape, negated):
            guard let x = a.rendered(in: dialect), case let .literal(.text(text)) = pattern,
                let converted = LikeText.withBackslashEscape(text, escape: escape)
            else { return nil }
            return dialect.like(x, pattern: converted, negated: negated)
        case .concat, .function, .cast, .extract:
            return nil
        }
    }
}
