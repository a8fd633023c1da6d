// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// One attribute value a caller writes (an edit) or a schema names (a coded
/// value of a domain). Dates are epoch milliseconds, as the cache stores them.
/// Edits are one value per field a caller sets, never a hot path: the cache
/// itself keeps values in typed columns.
public enum AttributeValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
    case boolean(Bool)

    public var isNull: Bool { self == .null }

    /// The value as a number, when it is one (integers and booleans too).
    package var number: Double? {
        switch self {
        case let .integer(value): return Double(value)
        case let .double(value): return value
        case let .boolean(value): return value ? 1 : 0
        case .null, .text: return nil
        }
    }

    /// The value as a JSON literal (what Esri JSON and GeoJSON attributes hold).
    package var jsonLiteral: String {
        switch self {
        case .null: return "null"
        case let .integer(value): return String(value)
        case let .double(value): return JSONNumberText.shortest(value)
        case let .boolean(value): return value ? "true" : "false"
        case let .text(value): return JSONStringText.quoted(value)
        }
    }

    public var description: String {
        switch self {
        case .null: return "NULL"
        case let .integer(value): return String(value)
        case let .double(value): return JSONNumberText.shortest(value)
        case let .text(value): return "'\(value)'"
        case let .boolean(value): return value ? "true" : "false"
        }
    }
}
