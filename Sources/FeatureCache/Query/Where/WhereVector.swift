/// SQL's three truth values, one byte per row.
enum Truth: UInt8 {
    case no = 0, yes = 1, unknown = 2

    static func of(_ value: Bool) -> Truth { value ? .yes : .no }
}

/// The values of one expression over the rows being evaluated, by type, so
/// evaluation runs as loops over typed arrays (not row objects): column values
/// are used in place, constants are not repeated.
enum WhereVector {
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

    /// The value of row `i` (for the general, slower paths).
    func value(_ i: Int) -> WhereValue {
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
    var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The value as a number, SQLite style: text that reads as a number is that
    /// number, other text is not a number (nil); booleans are 0/1.
    var number: Double? {
        switch self {
        case .null: return nil
        case let .integer(v): return Double(v)
        case let .double(v): return v
        case let .timestamp(v): return Double(v)
        case let .boolean(v): return v ? 1 : 0
        case let .text(t): return Double(t.trimmingCharacters(in: " "))
        }
    }

    var integer: Int64? {
        switch self {
        case let .integer(v): return v
        case let .boolean(v): return v ? 1 : 0
        case let .timestamp(v): return v
        case let .double(v): return v.isFinite && abs(v) < 9.2e18 ? Int64(v.rounded(.towardZero)) : nil
        case let .text(t): return Int64(t.trimmingCharacters(in: " ")) ?? Double(t.trimmingCharacters(in: " ")).flatMap { WhereValue.double($0).integer }
        case .null: return nil
        }
    }

    /// The value as text, as SQLite prints it.
    var text: String? {
        switch self {
        case .null: return nil
        case let .text(t): return t
        case let .integer(v): return String(v)
        case let .double(v): return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) + ".0" : String(v)
        case let .boolean(v): return v ? "1" : "0"
        case let .timestamp(v): return WhereValue.isoText(v)
        }
    }

    var truth: Truth {
        switch self {
        case .null: return .unknown
        case let .boolean(v): return .of(v)
        default: return number.map { .of($0 != 0) } ?? .no
        }
    }

    static func isoText(_ milliseconds: Int64) -> String {
        let parts = CivilTime(milliseconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        return "\(parts.year)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}

/// A UTC instant split into calendar fields.
struct CivilTime {
    var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0

    init(_ milliseconds: Int64) {
        var days = Int(milliseconds / 86_400_000)
        var rest = Int(milliseconds % 86_400_000)
        if rest < 0 { rest += 86_400_000; days -= 1 }
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        hour = rest / 3_600_000
        minute = rest / 60_000 % 60
        second = rest / 1000 % 60
    }
}
