// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// SQL's three truth values, one byte per row.
package enum Truth: UInt8 {
    case no = 0, yes = 1, unknown = 2

    package static func of(_ value: Bool) -> Truth { value ? .yes : .no }
}

/// The values of one expression over the rows being evaluated, by type, so
/// evaluation runs as loops over typed arrays (not row objects): column values
/// are used in place, constants are not repeated.
package enum WhereVector {
    case constant(WhereValue)
    /// Integers, or booleans as 0/1; `valid` nil = no NULLs.
    case integers([Int64], valid: Bitmap?)
    case doubles([Double], valid: Bitmap?)
    /// Instants as epoch milliseconds (date fields, DATE/TIMESTAMP arithmetic).
    case timestamps([Int64], valid: Bitmap?)
    /// Text of a string column, read in place: `rows[i]` is the column row.
    case textColumn(Column, rows: [Int])
    /// Text computed by a function; nil = NULL.
    case texts([String?])
    case truth([Truth])

    package var isConstant: Bool { if case .constant = self { return true } else { return false } }

    /// The value of row `i` (for the general, slower paths).
    package func value(_ i: Int) -> WhereValue {
        switch self {
        case let .constant(value): return value
        case let .integers(values, valid): return valid.map { $0[i] } ?? true ? .integer(values[i]) : .null
        case let .doubles(values, valid): return valid.map { $0[i] } ?? true ? .double(values[i]) : .null
        case let .timestamps(values, valid): return valid.map { $0[i] } ?? true ? .timestamp(values[i]) : .null
        case let .textColumn(column, rows): return column.isNull(rows[i]) ? .null : .text(column.string(rows[i]))
        case let .texts(values): return values[i].map(WhereValue.text) ?? .null
        case let .truth(values):
            switch values[i] {
            case .yes: return .boolean(true)
            case .no: return .boolean(false)
            case .unknown: return .null
            }
        }
    }
}

extension WhereValue {
    package var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The value as a number, SQLite style: text that reads as a number is that
    /// number, other text is not a number (nil); booleans are 0/1.
    package var number: Double? {
        switch self {
        case .null: return nil
        case let .integer(v): return Double(v)
        case let .double(v): return v
        case let .timestamp(v): return Double(v)
        case let .boolean(v): return v ? 1 : 0
        case let .text(t): return Double(t.trimmingCharacters(in: " "))
        }
    }

    package var integer: Int64? {
        switch self {
        case let .integer(v): return v
        case let .boolean(v): return v ? 1 : 0
        case let .timestamp(v): return v
        case let .double(v): return v.isFinite && abs(v) < 9.2e18 ? Int64(v.rounded(.towardZero)) : nil
        case let .text(t):
            return Int64(t.trimmingCharacters(in: " ")) ?? Double(t.trimmingCharacters(in: " ")).flatMap { WhereValue.double($0).integer }
        case .null: return nil
        }
    }

    /// The value as text, as SQLite prints it.
    package var text: String? {
        switch self {
        case .null: return nil
        case let .text(t): return t
        case let .integer(v): return String(v)
        case let .double(v): return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) + ".0" : String(v)
        case let .boolean(v): return v ? "1" : "0"
        case let .timestamp(v): return DateText.isoTimestamp(v, separator: " ", zone: "")
        }
    }

    package var truth: Truth {
        switch self {
        case .null: return .unknown
        case let .boolean(v): return .of(v)
        default: return number.map { .of($0 != 0) } ?? .no
        }
    }
}
