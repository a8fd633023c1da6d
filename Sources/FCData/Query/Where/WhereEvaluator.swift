// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Evaluates a where clause over the rows of a batch, column by column: each
/// node yields a `WhereVector` for all the rows at once, comparisons of a column
/// with a constant run as typed loops, text is compared in place as bytes.
/// Semantics follow SQL (three-valued logic; NULL in, NULL out) with SQLite's
/// coercions where SQL-92 leaves it open: a text literal compared with a number
/// is read as a number when it is one (the seed's `Condition < '4'`), integer
/// division truncates, division by zero is NULL, LIKE is case-sensitive.
#if canImport(Glibc)
import Glibc
#endif

public struct WhereEvaluator {
    package let expression: WhereExpression
    /// Evaluation time, for CURRENT_DATE / CURRENT_TIMESTAMP.
    package let now: Int64

    public init(_ expression: WhereExpression, now: Int64? = nil) {
        self.expression = expression
        self.now = now ?? DateText.now
    }

    /// Checks every field name against a schema (case-insensitively).
    public static func validate(_ expression: WhereExpression, fields: [FieldInfo]) throws(FeatureCacheError) {
        let known = Set(fields.map { $0.name.lowercased() })
        for name in expression.fieldNames where !known.contains(name.lowercased()) {
            throw FeatureCacheError(
                .invalidArgument, "where clause: no field named '\(name)' (fields: \(fields.map(\.name).joined(separator: ", ")))")
        }
    }

    /// The rows (of `rows`, or all) for which the clause is true, ascending.
    public func select(_ batch: FeatureBatch, rows: [Int]? = nil) throws(FeatureCacheError) -> [Int] {
        if let rows, rows.isEmpty { return [] }
        guard batch.count > 0 else { return [] }
        return try outcome(expression, batch, rows, counting: false).rows
    }

    /// How many of the rows (of `rows`, or all) the clause is true for; the last
    /// comparison of a conjunction counts instead of listing its rows.
    public func count(_ batch: FeatureBatch, rows: [Int]? = nil) throws(FeatureCacheError) -> Int {
        if let rows, rows.isEmpty { return 0 }
        guard batch.count > 0 else { return 0 }
        return try outcome(expression, batch, rows, counting: true).count
    }

    // MARK: - Selection vectors

    /// The rows (of `rows`, nil = all of the batch) where `node` is TRUE,
    /// ascending, and how many; with `counting`, a typed comparison that decides
    /// last only counts and lists none. A conjunction narrows the rows term by
    /// term and a disjunction tries each term on the rows no earlier term took,
    /// so each comparison of a column with a constant runs as one typed loop
    /// over the rows still open, writing row numbers directly. Other nodes are
    /// evaluated as vectors (three-valued) and their TRUE rows taken. (AND is
    /// TRUE iff every term is, OR iff one is, so TRUE sets compose exactly.)
    private func outcome(
        _ node: WhereExpression, _ batch: FeatureBatch, _ rows: [Int]?,
        counting: Bool
    ) throws(FeatureCacheError) -> RowScan.Outcome {
        switch node {
        case let .and(terms) where !terms.isEmpty:
            var rows = rows
            for term in terms.dropLast() {
                let selected = try outcome(term, batch, rows, counting: false).rows
                if selected.isEmpty { return ([], 0) }
                rows = selected
            }
            return try outcome(terms[terms.count - 1], batch, rows, counting: counting)
        case let .or(terms) where !terms.isEmpty:
            var taken: [Int] = []
            var open = rows ?? Array(0..<batch.count)
            for term in terms {
                let hits = try outcome(term, batch, open, counting: false).rows
                guard !hits.isEmpty else { continue }
                taken = Self.union(taken, hits)
                open = Self.difference(open, hits)
                if open.isEmpty { break }
            }
            return (taken, taken.count)
        case let .compare(op, a, b):
            if let outcome = try typedComparison(op, a, b, batch, rows, counting: counting) { return outcome }
        case let .between(a, low, high, false):
            return try outcome(
                .and([.compare(.greaterOrEqual, a, low), .compare(.lessOrEqual, a, high)]), batch, rows,
                counting: counting)
        default:
            break
        }
        let list = rows ?? Array(0..<batch.count)
        let result = try evaluate(node, batch, list)
        var selected: [Int] = []
        switch result {
        case let .truth(values):
            for (i, value) in values.enumerated() where value == .yes { selected.append(list[i]) }
        default:
            for i in list.indices where result.value(i).truth == .yes { selected.append(list[i]) }
        }
        return (selected, selected.count)
    }

    /// A column compared with a constant, as a typed loop over the column's own
    /// storage, for exactly the pairs `compare` has typed paths for (so the
    /// answers are the same); nil for anything else. With `counting`, the rows
    /// are only counted, not listed.
    private func typedComparison(
        _ op: WhereExpression.Comparison, _ a: WhereExpression, _ b: WhereExpression,
        _ batch: FeatureBatch, _ rows: [Int]?, counting: Bool
    ) throws(FeatureCacheError) -> RowScan.Outcome? {
        var op = op
        var name: String
        var constant: WhereValue
        switch (a, b) {
        case let (.field(field), .literal(value)): (name, constant) = (field, value)
        case let (.literal(value), .field(field)): (name, constant, op) = (field, value, op.mirrored)
        default: return nil
        }
        guard let index = batch.columnIndex(named: name) else { return nil }
        let column = batch.columns[index]
        let scan = RowScan(rows: rows, count: batch.count, validity: column.validity, counting: counting)
        switch column.kind {
        case .int64 where column.field.type == .date:
            guard case let .integer(c) = constant else { return nil }
            return scan.integers(column.integers, op, c)
        case .int64, .boolean:
            if case let .integer(c) = constant { return scan.integers(column.integers, op, c) }
            guard let c = Self.numericConstant(constant) else { return nil }
            return column.integers.withUnsafeBufferPointer { v in scan.select { Self.test(op, Self.order(Double(v[$0]), c)) } }
        case .double:
            guard let c = Self.numericConstant(constant) else { return nil }
            return column.doubles.withUnsafeBufferPointer { v in
                switch op {
                case .equal: scan.select { Self.order(v[$0], c) == 0 }
                case .notEqual: scan.select { Self.order(v[$0], c) != 0 }
                case .less: scan.select { v[$0] < c }
                case .lessOrEqual: scan.select { Self.order(v[$0], c) <= 0 }
                case .greater: scan.select { v[$0] > c }
                case .greaterOrEqual: scan.select { Self.order(v[$0], c) >= 0 }
                }
            }
        case .string:
            guard case let .text(c) = constant else { return nil }
            return Array(c.utf8).withUnsafeBytes { target in
                scan.select { Self.test(op, Self.compareBytes(column.stringBytes($0), target)) }
            }
        }
    }

    /// -1, 0 or 1 as `compare` orders doubles (NaN, neither less nor greater, is 0).
    @inline(__always)
    private static func order(_ x: Double, _ c: Double) -> Int { x < c ? -1 : x > c ? 1 : 0 }

    /// Rows in both ascending lists, merged.
    private static func union(_ a: [Int], _ b: [Int]) -> [Int] {
        if a.isEmpty { return b }
        var merged: [Int] = []
        merged.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] {
                merged.append(a[i]); i += 1
            } else if b[j] < a[i] {
                merged.append(b[j]); j += 1
            } else {
                merged.append(a[i]); i += 1; j += 1
            }
        }
        merged.append(contentsOf: a[i...])
        merged.append(contentsOf: b[j...])
        return merged
    }

    /// The rows of ascending `a` not in ascending `b` (a subset of `a`).
    private static func difference(_ a: [Int], _ b: [Int]) -> [Int] {
        var rest: [Int] = []
        rest.reserveCapacity(a.count - b.count)
        var j = 0
        for row in a {
            while j < b.count, b[j] < row { j += 1 }
            if j < b.count, b[j] == row { continue }
            rest.append(row)
        }
        return rest
    }

    // MARK: - Nodes

    package func evaluate(_ node: WhereExpression, _ batch: FeatureBatch, _ rows: [Int]) throws(FeatureCacheError) -> WhereVector {
        let n = rows.count
        switch node {
        case let .literal(value):
            return .constant(value)
        case let .field(name):
            guard let index = batch.columnIndex(named: name) else {
                throw FeatureCacheError(.invalidArgument, "where clause: no field named '\(name)'")
            }
            return Self.vector(batch.columns[index], rows)
        case let .and(terms):
            // Each term only on the rows the terms before it left open (not false).
            return .truth(try shortCircuit(terms, decidedBy: .no, batch, rows))
        case let .or(terms):
            return .truth(try shortCircuit(terms, decidedBy: .yes, batch, rows))
        case let .not(a):
            return .truth(try truths(a, batch, rows).map { $0 == .unknown ? .unknown : .of($0 == .no) })
        case let .isNull(a, negated):
            let values = try evaluate(a, batch, rows)
            return .truth((0..<n).map { .of(values.value($0).isNull != negated) })
        case let .compare(op, a, b):
            return .truth(Self.compare(op, try evaluate(a, batch, rows), try evaluate(b, batch, rows), n))
        case let .between(a, low, high, negated):
            let value = try evaluate(a, batch, rows)
            let above = Self.compare(.greaterOrEqual, value, try evaluate(low, batch, rows), n)
            let below = Self.compare(.lessOrEqual, value, try evaluate(high, batch, rows), n)
            return .truth(
                (0..<n).map { i in
                    let both: Truth = above[i] == .no || below[i] == .no ? .no : (above[i] == .yes && below[i] == .yes ? .yes : .unknown)
                    return negated && both != .unknown ? .of(both == .no) : both
                })
        case let .inList(a, list, negated):
            let value = try evaluate(a, batch, rows)
            var result = [Truth](repeating: .no, count: n)
            for member in list {
                let equal = Self.compare(.equal, value, try evaluate(member, batch, rows), n)
                for i in 0..<n where result[i] != .yes {
                    if equal[i] == .yes { result[i] = .yes } else if equal[i] == .unknown { result[i] = .unknown }
                }
            }
            return .truth(negated ? result.map { $0 == .unknown ? .unknown : .of($0 == .no) } : result)
        case let .like(a, pattern, escape, negated):
            return .truth(try like(a, pattern, escape, negated, batch, rows))
        default:
            return try rowWise(node, batch, rows)
        }
    }

    /// AND (`decided` = false) or OR (`decided` = true) over `terms`, term by
    /// term: each is evaluated only on the rows no earlier term decided, and the
    /// loop ends when every row is decided. Iterative, so a clause of 100,000
    /// terms needs no deeper stack than one of two.
    private func shortCircuit(
        _ terms: [WhereExpression], decidedBy decided: Truth,
        _ batch: FeatureBatch, _ rows: [Int]
    ) throws(FeatureCacheError) -> [Truth] {
        var result = try truths(terms[0], batch, rows)
        // Positions in `rows` not yet decided.
        var open: [Int] = []
        open.reserveCapacity(result.count)
        for i in result.indices where result[i] != decided { open.append(i) }
        for term in terms.dropFirst() {
            guard !open.isEmpty else { break }
            let right = try truths(term, batch, open.count == rows.count ? rows : open.map { rows[$0] })
            var decidedAny = false
            for (j, i) in open.enumerated() {
                let r = right[j]
                if r == decided {
                    result[i] = decided
                    decidedAny = true
                } else if r == .unknown {
                    // Neither decides: unknown if either is unknown, else still undecided.
                    result[i] = .unknown
                }
            }
            if decidedAny { open.removeAll { result[$0] == decided } }
        }
        return result
    }

    private func truths(_ node: WhereExpression, _ batch: FeatureBatch, _ rows: [Int]) throws(FeatureCacheError) -> [Truth] {
        let vector = try evaluate(node, batch, rows)
        if case let .truth(values) = vector { return values }
        return (0..<rows.count).map { vector.value($0).truth }
    }

    /// A column's values for the rows, typed.
    package static func vector(_ column: Column, _ rows: [Int]) -> WhereVector {
        var valid: Bitmap? = nil
        if let validity = column.validity {
            var bits = Bitmap()
            bits.reserveCapacity(rows.count)
            for row in rows { bits.append(validity[row]) }
            valid = bits
        }
        switch column.kind {
        case .int64 where column.field.type == .date: return .timestamps(rows.map { column.integers[$0] }, valid: valid)
        case .int64, .boolean: return .integers(rows.map { column.integers[$0] }, valid: valid)
        case .double: return .doubles(rows.map { column.doubles[$0] }, valid: valid)
        case .string: return .textColumn(column, rows: rows)
        }
    }

    // MARK: - Comparison

    package static func compare(_ op: WhereExpression.Comparison, _ a: WhereVector, _ b: WhereVector, _ n: Int) -> [Truth] {
        // Typed fast paths: a column against a constant.
        if case let .constant(constant) = b {
            switch a {
            case let .integers(values, valid), let .timestamps(values, valid):
                if case let .integer(c) = constant {
                    return (0..<n).map { i in
                        valid.map { $0[i] } ?? true ? .of(test(op, values[i] < c ? -1 : values[i] > c ? 1 : 0)) : .unknown
                    }
                }
                if case .timestamps = a {
                } else if let c = numericConstant(constant) {
                    return (0..<n).map { i in
                        let x = Double(values[i])
                        return valid.map { $0[i] } ?? true ? .of(test(op, x < c ? -1 : x > c ? 1 : 0)) : .unknown
                    }
                }
            case let .doubles(values, valid):
                if let c = numericConstant(constant) {
                    return (0..<n).map { i in
                        valid.map { $0[i] } ?? true ? .of(test(op, values[i] < c ? -1 : values[i] > c ? 1 : 0)) : .unknown
                    }
                }
            case let .textColumn(column, rows):
                if case let .text(c) = constant {
                    return Array(c.utf8).withUnsafeBytes { target in
                        (0..<n).map { i in
                            column.isNull(rows[i]) ? .unknown : .of(test(op, compareBytes(column.stringBytes(rows[i]), target)))
                        }
                    }
                }
            default: break
            }
        }
        // A constant on the left: swap the sides, so the fast paths above apply.
        if case .constant = a, !b.isConstant { return compare(op.mirrored, b, a, n) }
        return (0..<n).map { i in
            guard let order = compareValues(a.value(i), b.value(i)) else { return .unknown }
            return .of(test(op, order))
        }
    }

    private static func numericConstant(_ value: WhereValue) -> Double? {
        switch value {
        case .integer, .double, .timestamp: return value.number
        case let .text(t): return Double(t.trimmingCharacters(in: " "))
        default: return nil
        }
    }

    @inline(__always)
    package static func test(_ op: WhereExpression.Comparison, _ order: Int) -> Bool {
        switch op {
        case .equal: order == 0
        case .notEqual: order != 0
        case .less: order < 0
        case .lessOrEqual: order <= 0
        case .greater: order > 0
        case .greaterOrEqual: order >= 0
        }
    }

    package static func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0 {
            let result = memcmp(a.baseAddress!, b.baseAddress!, common)
            if result != 0 { return result < 0 ? -1 : 1 }
        }
        return a.count < b.count ? -1 : a.count > b.count ? 1 : 0
    }

    /// -1, 0, 1, or nil when either side is NULL. Numbers compare as numbers, text
    /// as UTF-8 bytes; text that reads as a number (or an instant) compares with
    /// numbers (instants) as one; otherwise numbers sort before text.
    package static func compareValues(_ a: WhereValue, _ b: WhereValue) -> Int? {
        if a.isNull || b.isNull { return nil }
        switch (a, b) {
        case let (.integer(x), .integer(y)), let (.timestamp(x), .timestamp(y)), let (.integer(x), .timestamp(y)),
            let (.timestamp(x), .integer(y)):
            return x < y ? -1 : x > y ? 1 : 0
        case let (.text(x), .text(y)):
            return Array(x.utf8).withUnsafeBytes { xb in Array(y.utf8).withUnsafeBytes { yb in compareBytes(xb, yb) } }
        case let (.timestamp(x), .text(t)):
            guard let y = DateText.epochMilliseconds(t) else { return -1 }
            return x < y ? -1 : x > y ? 1 : 0
        case let (.text(t), .timestamp(y)):
            guard let x = DateText.epochMilliseconds(t) else { return 1 }
            return x < y ? -1 : x > y ? 1 : 0
        case (.text, _):
            guard let x = a.number, let y = b.number else { return 1 }
            return x < y ? -1 : x > y ? 1 : 0
        case (_, .text):
            guard let x = a.number, let y = b.number else { return -1 }
            return x < y ? -1 : x > y ? 1 : 0
        default:
            let x = a.number!, y = b.number!
            return x < y ? -1 : x > y ? 1 : 0
        }
    }

    // MARK: - LIKE

    private func like(
        _ a: WhereExpression, _ patternNode: WhereExpression, _ escape: Character?, _ negated: Bool,
        _ batch: FeatureBatch, _ rows: [Int]
    ) throws(FeatureCacheError) -> [Truth] {
        let n = rows.count
        let values = try evaluate(a, batch, rows)
        let patterns = try evaluate(patternNode, batch, rows)
        var compiled: LikePattern? = nil
        if case let .constant(value) = patterns {
            guard let text = value.text else { return [Truth](repeating: .unknown, count: n) }
            compiled = LikePattern(text, escape: escape)
        }
        // A text column against one pattern: the loop reads the column in place
        // (matching the vector per row copied its column and rows each time).
        if let compiled, case let .textColumn(column, columnRows) = values {
            let view = ColumnView(column)
            return withExtendedLifetime(column) {
                columnRows.map { row in view.isNull(row) ? .unknown : .of(compiled.matches(view.stringBytes(row)) != negated) }
            }
        }
        return (0..<n).map { i in
            let pattern = compiled ?? patterns.value(i).text.map { LikePattern($0, escape: escape) }
            guard let pattern, let text = values.value(i).text else { return .unknown }
            return .of(Array(text.utf8).withUnsafeBytes { pattern.matches($0) } != negated)
        }
    }

    // MARK: - Everything else, row by row over typed values

    private func rowWise(_ node: WhereExpression, _ batch: FeatureBatch, _ rows: [Int]) throws(FeatureCacheError) -> WhereVector {
        let n = rows.count
        switch node {
        case let .negate(a):
            let v = try evaluate(a, batch, rows)
            return Self.column(
                (0..<n).map { i in
                    switch v.value(i) {
                    case let .integer(x): return .integer(0 &- x)
                    case .null: return .null
                    case let other: return other.number.map { .double(-$0) } ?? .integer(0)
                    }
                })
        case let .arithmetic(op, a, b):
            let left = try evaluate(a, batch, rows), right = try evaluate(b, batch, rows)
            return Self.column((0..<n).map { Self.arithmetic(op, left.value($0), right.value($0)) })
        case let .concat(a, b):
            let left = try evaluate(a, batch, rows), right = try evaluate(b, batch, rows)
            return .texts(
                (0..<n).map { i in
                    guard let x = left.value(i).text, let y = right.value(i).text else { return nil }
                    return x + y
                })
        case let .cast(a, type):
            let v = try evaluate(a, batch, rows)
            return Self.column((0..<n).map { Self.cast(v.value($0), type) })
        case let .extract(part, a):
            let v = try evaluate(a, batch, rows)
            return Self.column(
                (0..<n).map { i in
                    let value = v.value(i)
                    let instant: Int64?
                    switch value {
                    case let .timestamp(t): instant = t
                    case let .text(t): instant = DateText.epochMilliseconds(t)
                    default: instant = nil
                    }
                    guard let instant else { return .null }
                    let civil = CivilTime(instant)
                    switch part {
                    case .year: return .integer(Int64(civil.year))
                    case .month: return .integer(Int64(civil.month))
                    case .day: return .integer(Int64(civil.day))
                    case .hour: return .integer(Int64(civil.hour))
                    case .minute: return .integer(Int64(civil.minute))
                    case .second: return .integer(Int64(civil.second))
                    }
                })
        case let .function(name, arguments):
            let vectors = try arguments.map { (argument: WhereExpression) throws(FeatureCacheError) -> WhereVector in
                try evaluate(argument, batch, rows)
            }
            if name == "UPPER" || name == "LOWER", vectors.count == 1, case let .textColumn(column, columnRows) = vectors[0] {
                return WhereFunctions.caseMapped(column, columnRows, upper: name == "UPPER")
            }
            return Self.column((0..<n).map { i in WhereFunctions.call(name, vectors.map { $0.value(i) }, now: now) })
        default:
            throw FeatureCacheError(.invalidState, "where clause: cannot evaluate \(node)")
        }
    }

    /// Typed vector for computed values (all one type, or the general `.texts` form).
    package static func column(_ values: [WhereValue]) -> WhereVector {
        var integers: [Int64] = [], doubles: [Double] = []
        var valid = Bitmap()
        var kind: Int = 0  // 0 unknown, 1 integer, 2 double, 3 timestamp, 4 mixed
        for value in values {
            let k: Int
            switch value {
            case .null: valid.append(false); integers.append(0); doubles.append(0); continue
            case let .integer(v): k = 1; integers.append(v); doubles.append(Double(v))
            case let .double(v): k = 2; integers.append(0); doubles.append(v)
            case let .timestamp(v): k = 3; integers.append(v); doubles.append(Double(v))
            case let .boolean(v): k = 1; integers.append(v ? 1 : 0); doubles.append(v ? 1 : 0)
            case .text: k = 4; integers.append(0); doubles.append(0)
            }
            valid.append(true)
            kind = kind == 0 ? k : (kind == k ? k : (kind <= 2 && k <= 2 ? 2 : 4))
        }
        let bits: Bitmap? = valid.allSet ? nil : valid
        switch kind {
        case 1: return .integers(integers, valid: bits)
        case 2: return .doubles(doubles, valid: bits)
        case 3: return .timestamps(integers, valid: bits)
        case 0: return .constant(.null)
        default: return .texts(values.map { $0.text })
        }
    }

    package static func arithmetic(_ op: WhereExpression.Arithmetic, _ a: WhereValue, _ b: WhereValue) -> WhereValue {
        if a.isNull || b.isNull { return .null }
        func asInteger(_ v: WhereValue) -> Int64? {
            switch v {
            case let .integer(x): return x
            case let .boolean(x): return x ? 1 : 0
            case let .text(t): return Int64(t.trimmingCharacters(in: " "))
            default: return nil
            }
        }
        if let x = asInteger(a), let y = asInteger(b) {
            switch op {
            case .add: return .integer(x &+ y)
            case .subtract: return .integer(x &- y)
            case .multiply: return .integer(x &* y)
            case .divide: return y == 0 ? .null : .integer(x / y)
            case .modulo: return y == 0 ? .null : .integer(x % y)
            }
        }
        let x = a.number ?? 0, y = b.number ?? 0
        switch op {
        case .add: return .double(x + y)
        case .subtract: return .double(x - y)
        case .multiply: return .double(x * y)
        case .divide: return y == 0 ? .null : .double(x / y)
        case .modulo:
            guard let xi = WhereValue.double(x).integer, let yi = WhereValue.double(y).integer, yi != 0 else { return .null }
            return .double(Double(xi % yi))
        }
    }

    package static func cast(_ value: WhereValue, _ type: WhereExpression.CastType) -> WhereValue {
        if value.isNull { return .null }
        switch type {
        case .integer: return value.integer.map(WhereValue.integer) ?? .integer(0)
        case .double: return .double(value.number ?? 0)
        case .text: return value.text.map(WhereValue.text) ?? .null
        case .date, .timestamp:
            let instant: Int64?
            switch value {
            case let .timestamp(t): instant = t
            case let .text(t): instant = DateText.epochMilliseconds(t)
            default: instant = value.integer
            }
            guard let instant else { return .null }
            if type == .date {
                let day: Int64 = 86_400_000
                return .timestamp(instant >= 0 ? instant / day * day : (instant - day + 1) / day * day)
            }
            return .timestamp(instant)
        }
    }
}

extension WhereExpression.Comparison {
    /// The comparison with its operands swapped (a < b ⇔ b > a).
    package var mirrored: Self {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: self
        }
    }
}
