// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A value in a where clause: SQL's NULL, numbers, text, booleans and instants
/// (DATE/TIMESTAMP literals and date fields, as epoch milliseconds, UTC).
public enum WhereValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
    case boolean(Bool)
    case timestamp(Int64)
}

/// The parsed form of a where clause (the SQL-92 subset of ArcGIS "standardized
/// queries"). Field names are kept as written and resolved case-insensitively.
public indirect enum WhereExpression: Sendable, Equatable {
    public enum Comparison: String, Sendable {
        case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }
    public enum Arithmetic: String, Sendable { case add = "+", subtract = "-", multiply = "*", divide = "/", modulo = "%" }
    public enum CastType: String, Sendable {
        case integer = "INTEGER", double = "DOUBLE", text = "VARCHAR", date = "DATE", timestamp = "TIMESTAMP"
    }
    public enum DatePart: String, Sendable, CaseIterable {
        case year = "YEAR", month = "MONTH", day = "DAY", hour = "HOUR", minute = "MINUTE", second = "SECOND"
    }

    case literal(WhereValue)
    case field(String)
    case negate(WhereExpression)
    case arithmetic(Arithmetic, WhereExpression, WhereExpression)
    case concat(WhereExpression, WhereExpression)
    case compare(Comparison, WhereExpression, WhereExpression)
    /// Two or more terms, flat: `a AND b AND c` is one node, so a clause of
    /// 100,000 ORed terms is one level deep, not 100,000.
    case and([WhereExpression])
    case or([WhereExpression])
    case not(WhereExpression)
    case isNull(WhereExpression, negated: Bool)
    case inList(WhereExpression, [WhereExpression], negated: Bool)
    case between(WhereExpression, WhereExpression, WhereExpression, negated: Bool)
    case like(WhereExpression, WhereExpression, escape: Character?, negated: Bool)
    /// UPPER, LOWER, TRIM/LTRIM/RTRIM, CHAR_LENGTH, SUBSTRING, POSITION, CONCAT, ABS,
    /// CEILING, FLOOR, ROUND, MOD, POWER, COALESCE, CURRENT_DATE, CURRENT_TIMESTAMP.
    case function(String, [WhereExpression])
    case cast(WhereExpression, CastType)
    case extract(DatePart, WhereExpression)

    /// Every field name the expression reads.
    public var fieldNames: [String] {
        var names: [String] = []
        visit { if case let .field(name) = $0 { names.append(name) } }
        return names
    }

    private func visit(_ body: (WhereExpression) -> Void) {
        body(self)
        switch self {
        case .literal, .field: break
        case let .negate(a), let .not(a), let .isNull(a, _), let .cast(a, _), let .extract(_, a): a.visit(body)
        case let .arithmetic(_, a, b), let .concat(a, b), let .compare(_, a, b), let .like(a, b, _, _):
            a.visit(body); b.visit(body)
        case let .and(terms), let .or(terms): terms.forEach { $0.visit(body) }
        case let .inList(a, list, _): a.visit(body); list.forEach { $0.visit(body) }
        case let .between(a, b, c, _): a.visit(body); b.visit(body); c.visit(body)
        case let .function(_, arguments): arguments.forEach { $0.visit(body) }
        }
    }
}

extension WhereExpression {
    /// `terms` joined by AND: nil for none, the term itself for one, one flat
    /// node otherwise (terms that are ANDs themselves are spliced in).
    package static func conjunction(_ terms: [WhereExpression]) -> WhereExpression? {
        var flat: [WhereExpression] = []
        for term in terms {
            if case let .and(inner) = term { flat += inner } else { flat.append(term) }
        }
        return flat.count <= 1 ? flat.first : .and(flat)
    }

    /// The top-level AND-terms (the expression itself when it is no AND).
    package var conjuncts: [WhereExpression] {
        if case let .and(terms) = self { return terms }
        return [self]
    }
}
