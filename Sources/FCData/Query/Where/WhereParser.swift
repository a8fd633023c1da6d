// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Parses where clauses by recursive descent. Precedence, loosest first: OR, AND,
/// NOT, predicates (comparison, IS [NOT] NULL, [NOT] IN, [NOT] BETWEEN,
/// [NOT] LIKE … [ESCAPE]), + - ||, * / %, unary minus. Errors name the position
/// (1-based character of the clause) and what was expected there.
///
/// Input controls recursion here, so it is bounded: AND and OR chains are flat
/// lists (any length), and everything else that nests — parentheses, NOT, unary
/// minus, function calls, chains of + - * / || — may nest `maxDepth` levels.
/// Deeper clauses fail with FC_E_INVALID_ARGUMENT naming the limit, before any
/// stack is at risk in the parser, the evaluator or the server translators.
public struct WhereParser {
    /// How deep a clause's expression tree may be.
    public static let maxDepth = 100

    private let tokens: [WhereToken]
    private var index = 0
    /// The depth of the tree being built at the current token.
    private var depth = 0

    package static let reserved: Set<String> = [
        "AND", "OR", "NOT", "IN", "IS", "NULL", "BETWEEN", "LIKE", "ESCAPE", "TRUE",
        "FALSE", "DATE", "TIMESTAMP", "CAST", "AS", "EXTRACT", "FROM", "FOR",
        "CURRENT_DATE", "CURRENT_TIMESTAMP",
    ]
    package static let functions: [String: ClosedRange<Int>] = [
        "UPPER": 1...1, "LOWER": 1...1, "TRIM": 1...1, "LTRIM": 1...1, "RTRIM": 1...1, "CHAR_LENGTH": 1...1,
        "CHARACTER_LENGTH": 1...1, "SUBSTRING": 2...3, "POSITION": 2...2, "CONCAT": 2...16, "ABS": 1...1,
        "CEILING": 1...1, "CEIL": 1...1, "FLOOR": 1...1, "ROUND": 1...2, "MOD": 2...2, "POWER": 2...2, "COALESCE": 1...16,
    ]

    /// Parses a where clause; an empty clause is nil (every feature).
    public static func parse(_ text: String) throws(FeatureCacheError) -> WhereExpression? {
        let tokens = try WhereLexer.tokens(text)
        if tokens.count == 1 { return nil }
        var parser = WhereParser(tokens: tokens)
        let expression = try parser.orExpression()
        guard parser.current.kind == .end else { throw parser.expected("AND, OR or the end of the clause") }
        return expression
    }

    private init(tokens: [WhereToken]) { self.tokens = tokens }

    // MARK: - Tokens

    private var current: WhereToken { tokens[index] }

    private func expected(_ what: String) -> FeatureCacheError {
        FeatureCacheError(.invalidArgument, "where clause: expected \(what) at position \(current.offset + 1), found \(current.describe)")
    }

    private mutating func take(keyword: String) -> Bool {
        guard current.keyword == keyword else { return false }
        index += 1
        return true
    }

    private mutating func take(symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        index += 1
        return true
    }

    private mutating func require(symbol: String) throws(FeatureCacheError) {
        guard take(symbol: symbol) else { throw expected("'\(symbol)'") }
    }

    private mutating func require(keyword: String) throws(FeatureCacheError) {
        guard take(keyword: keyword) else { throw expected(keyword) }
    }

    /// One level deeper (undone by `ascend`); fails past `maxDepth`.
    private mutating func descend() throws(FeatureCacheError) {
        depth += 1
        guard depth <= Self.maxDepth else {
            throw FeatureCacheError(
                .invalidArgument,
                "where clause: nested deeper than \(Self.maxDepth) levels at position \(current.offset + 1) (parentheses, NOT, functions and chains of arithmetic each count)"
            )
        }
    }

    private mutating func ascend(_ levels: Int = 1) { depth -= levels }

    // MARK: - Boolean structure

    private mutating func orExpression() throws(FeatureCacheError) -> WhereExpression {
        try chain("OR", WhereExpression.or) { (parser) throws(FeatureCacheError) in try parser.andExpression() }
    }

    private mutating func andExpression() throws(FeatureCacheError) -> WhereExpression {
        try chain("AND", WhereExpression.and) { (parser) throws(FeatureCacheError) in try parser.notExpression() }
    }

    /// `term (keyword term)*` as one flat node of any length, one level deep.
    private mutating func chain(
        _ keyword: String, _ node: ([WhereExpression]) -> WhereExpression,
        _ term: (inout WhereParser) throws(FeatureCacheError) -> WhereExpression
    ) throws(FeatureCacheError) -> WhereExpression {
        let first = try term(&self)
        guard current.keyword == keyword else { return first }
        try descend()
        defer { ascend() }
        var terms = [first]
        while take(keyword: keyword) { terms.append(try term(&self)) }
        return node(terms)
    }

    private mutating func notExpression() throws(FeatureCacheError) -> WhereExpression {
        if take(keyword: "NOT") {
            try descend()
            defer { ascend() }
            return .not(try notExpression())
        }
        return try predicate()
    }

    private mutating func predicate() throws(FeatureCacheError) -> WhereExpression {
        let left = try additive()
        if case let .symbol(symbol) = current.kind, let comparison = WhereExpression.Comparison(rawValue: symbol) {
            index += 1
            return .compare(comparison, left, try additive())
        }
        if take(keyword: "IS") {
            let negated = take(keyword: "NOT")
            try require(keyword: "NULL")
            return .isNull(left, negated: negated)
        }
        let negated = take(keyword: "NOT")
        if take(keyword: "IN") {
            try require(symbol: "(")
            var list = [try additive()]
            while take(symbol: ",") { list.append(try additive()) }
            try require(symbol: ")")
            return .inList(left, list, negated: negated)
        }
        if take(keyword: "BETWEEN") {
            let low = try additive()
            try require(keyword: "AND")
            return .between(left, low, try additive(), negated: negated)
        }
        if take(keyword: "LIKE") {
            let pattern = try additive()
            var escape: Character? = nil
            if take(keyword: "ESCAPE") {
                guard case let .string(text) = current.kind, text.count == 1 else { throw expected("a one-character escape string") }
                escape = text.first
                index += 1
            }
            return .like(left, pattern, escape: escape, negated: negated)
        }
        if negated { throw expected("IN, BETWEEN or LIKE after NOT") }
        return left
    }

    // MARK: - Values

    private mutating func additive() throws(FeatureCacheError) -> WhereExpression {
        // Each operator of a chain puts the left side one level deeper.
        var chain = 0
        defer { ascend(chain) }
        var left = try multiplicative()
        while true {
            if isAdditiveOperator { try descend(); chain += 1 }
            if take(symbol: "+") {
                left = .arithmetic(.add, left, try multiplicative())
            } else if take(symbol: "-") {
                left = .arithmetic(.subtract, left, try multiplicative())
            } else if take(symbol: "||") {
                left = .concat(left, try multiplicative())
            } else {
                return left
            }
        }
    }

    private var isAdditiveOperator: Bool {
        current.kind == .symbol("+") || current.kind == .symbol("-") || current.kind == .symbol("||")
    }

    private var isMultiplicativeOperator: Bool {
        current.kind == .symbol("*") || current.kind == .symbol("/") || current.kind == .symbol("%")
    }

    private mutating func multiplicative() throws(FeatureCacheError) -> WhereExpression {
        var chain = 0
        defer { ascend(chain) }
        var left = try unary()
        while true {
            if isMultiplicativeOperator { try descend(); chain += 1 }
            if take(symbol: "*") {
                left = .arithmetic(.multiply, left, try unary())
            } else if take(symbol: "/") {
                left = .arithmetic(.divide, left, try unary())
            } else if take(symbol: "%") {
                left = .arithmetic(.modulo, left, try unary())
            } else {
                return left
            }
        }
    }

    private mutating func unary() throws(FeatureCacheError) -> WhereExpression {
        let negative = take(symbol: "-")
        guard negative || take(symbol: "+") else { return try primary() }
        try descend()
        defer { ascend() }
        let operand = try unary()
        guard negative else { return operand }
        switch operand {  // fold literals, so -9223372036854775808 and -1.5 stay literals
        case let .literal(.integer(value)): return .literal(.integer(0 &- value))
        case let .literal(.double(value)): return .literal(.double(-value))
        default: return .negate(operand)
        }
    }

    private mutating func primary() throws(FeatureCacheError) -> WhereExpression {
        let token = current
        switch token.kind {
        case let .integer(value): index += 1; return .literal(.integer(value))
        case let .number(value): index += 1; return .literal(.double(value))
        case let .string(text): index += 1; return .literal(.text(text))
        case let .quotedIdentifier(name): index += 1; return .field(name)
        case .symbol("("):
            index += 1
            try descend()
            defer { ascend() }
            let inner = try orExpression()
            try require(symbol: ")")
            return inner
        case let .identifier(name):
            let word = name.uppercased()
            index += 1
            switch word {
            case "NULL": return .literal(.null)
            case "TRUE": return .literal(.boolean(true))
            case "FALSE": return .literal(.boolean(false))
            case "DATE", "TIMESTAMP":
                guard case let .string(text) = current.kind else { throw expected("a quoted \(word) literal") }
                guard let milliseconds = DateText.epochMilliseconds(text), word == "TIMESTAMP" || text.count == 10 else {
                    throw expected("a \(word == "DATE" ? "'YYYY-MM-DD'" : "'YYYY-MM-DD hh:mm:ss'") literal")
                }
                index += 1
                return .literal(.timestamp(milliseconds))
            case "CURRENT_DATE", "CURRENT_TIMESTAMP":
                return .function(word, [])
            case "CAST":
                try descend()
                defer { ascend() }
                try require(symbol: "(")
                let value = try orExpression()
                try require(keyword: "AS")
                guard let typeName = current.keyword else { throw expected("a type") }
                index += 1
                let type: WhereExpression.CastType
                switch typeName {
                case "INTEGER", "INT", "SMALLINT", "BIGINT": type = .integer
                case "DOUBLE", "FLOAT", "REAL", "NUMERIC", "DECIMAL": type = .double
                case "VARCHAR", "CHAR", "TEXT", "STRING": type = .text
                case "DATE": type = .date
                case "TIMESTAMP": type = .timestamp
                default: index -= 1; throw expected("INTEGER, DOUBLE, VARCHAR, DATE or TIMESTAMP")
                }
                if take(symbol: "(") {  // VARCHAR(20), DECIMAL(10,2): sizes are accepted and ignored
                    while !take(symbol: ")") {
                        guard current.kind != .end else { throw expected("')'") }
                        index += 1
                    }
                }
                try require(symbol: ")")
                return .cast(value, type)
            case "EXTRACT":
                try descend()
                defer { ascend() }
                try require(symbol: "(")
                guard let partName = current.keyword, let part = WhereExpression.DatePart(rawValue: partName) else {
                    throw expected("YEAR, MONTH, DAY, HOUR, MINUTE or SECOND")
                }
                index += 1
                try require(keyword: "FROM")
                let value = try additive()
                try require(symbol: ")")
                return .extract(part, value)
            default:
                break
            }
            if current.kind == .symbol("("), let arity = Self.functions[word] {
                index += 1
                try descend()
                defer { ascend() }
                let arguments = try functionArguments(word)
                guard arity.contains(arguments.count) else {
                    throw FeatureCacheError(
                        .invalidArgument,
                        "where clause: \(word) takes \(arity.lowerBound == arity.upperBound ? "\(arity.lowerBound)" : "\(arity.lowerBound) to \(arity.upperBound)") arguments, not \(arguments.count) (position \(token.offset + 1))"
                    )
                }
                return .function(word == "CEIL" ? "CEILING" : word == "CHARACTER_LENGTH" ? "CHAR_LENGTH" : word, arguments)
            }
            guard !Self.reserved.contains(word) else {
                index -= 1
                throw expected("a value, a field or '('")
            }
            if current.kind == .symbol("(") {
                throw FeatureCacheError(.invalidArgument, "where clause: unknown function \(name) at position \(token.offset + 1)")
            }
            return .field(name)
        default:
            throw expected("a value, a field or '('")
        }
    }

    /// Arguments after `(`: a comma list, or SQL-92's keyword forms
    /// SUBSTRING(s FROM i [FOR n]) and POSITION(x IN s).
    private mutating func functionArguments(_ name: String) throws(FeatureCacheError) -> [WhereExpression] {
        if take(symbol: ")") { return [] }
        var arguments = [try additive()]
        if name == "SUBSTRING", take(keyword: "FROM") {
            arguments.append(try additive())
            if take(keyword: "FOR") { arguments.append(try additive()) }
        } else if name == "POSITION", take(keyword: "IN") {
            arguments.append(try additive())
        } else {
            while take(symbol: ",") { arguments.append(try orExpression()) }
        }
        try require(symbol: ")")
        return arguments
    }
}
