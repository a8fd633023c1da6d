// SPDX-License-Identifier: Apache-2.0
import FCSupport

#if canImport(Glibc)
import Glibc
#endif

/// The scalar functions of ArcGIS standardized queries, on single values. NULL
/// arguments give NULL (COALESCE aside), as in SQL.
package enum WhereFunctions {
    /// UPPER or LOWER of a text column, as a text column: ASCII values mapped
    /// byte by byte, the others (few) through String's Unicode case mapping,
    /// which is what `call` applies to each and gives the same bytes for ASCII.
    package static func caseMapped(_ column: Column, _ rows: [Int], upper: Bool) -> WhereVector {
        var bytes: [UInt8] = []
        var offsets: [UInt32] = [0]
        offsets.reserveCapacity(rows.count + 1)
        var valid = Bitmap()
        valid.reserveCapacity(rows.count)
        let (low, high): (UInt8, UInt8) = upper ? (0x61, 0x7A) : (0x41, 0x5A)  // the letters that change
        for row in rows {
            let isNull = column.isNull(row)
            valid.append(!isNull)
            if !isNull {
                let text = column.stringBytes(row)
                if text.allSatisfy({ $0 < 0x80 }) {
                    for byte in text { bytes.append(byte >= low && byte <= high ? byte ^ 0x20 : byte) }
                } else {
                    let value = String(decoding: text, as: UTF8.self)
                    bytes.append(contentsOf: (upper ? value.uppercased() : value.lowercased()).utf8)
                }
            }
            bytes.append(0)  // each value's NUL, as a column keeps it
            offsets.append(UInt32(truncatingIfNeeded: bytes.count))
        }
        guard bytes.count <= Int(UInt32.max) else {
            // Beyond 32-bit offsets (Unicode mappings can lengthen text): as strings.
            return .texts(rows.map { column.isNull($0) ? nil : upper ? column.string($0).uppercased() : column.string($0).lowercased() })
        }
        let mapped = Column(
            field: column.field, kind: .string, offsets: ColumnBuffer(offsets), bytes: FrozenBytes(bytes),
            validity: valid.allSet ? nil : valid)
        return .textColumn(mapped, rows: Array(0..<rows.count))
    }

    package static func call(_ name: String, _ arguments: [WhereValue], now: Int64) -> WhereValue {
        switch name {
        case "CURRENT_TIMESTAMP": return .timestamp(now)
        case "CURRENT_DATE": return .timestamp(now - ((now % 86_400_000) + 86_400_000) % 86_400_000)
        case "COALESCE": return arguments.first { !$0.isNull } ?? .null
        case "CONCAT":  // NULL arguments count as empty text, as in most databases
            return .text(arguments.map { $0.text ?? "" }.joined())
        default: break
        }
        if arguments.contains(where: \.isNull) { return .null }
        switch name {
        case "UPPER": return .text(arguments[0].text!.uppercased())
        case "LOWER": return .text(arguments[0].text!.lowercased())
        case "TRIM": return .text(arguments[0].text!.trimmingCharacters(in: " "))
        case "LTRIM": return .text(String(arguments[0].text!.drop { $0 == " " }))
        case "RTRIM":
            let text = arguments[0].text!
            return .text(String(text[..<(text.lastIndex { $0 != " " }.map { text.index(after: $0) } ?? text.startIndex)]))
        case "CHAR_LENGTH": return .integer(Int64(arguments[0].text!.unicodeScalars.count))
        case "SUBSTRING":
            // 1-based start; a start before 1 eats into the length (SQL-92).
            let scalars = Array(arguments[0].text!.unicodeScalars)
            guard let start = arguments[1].integer else { return .null }
            var from = Int(start) - 1
            var count = arguments.count > 2 ? Int(arguments[2].integer ?? 0) : scalars.count - from
            if from < 0 { count += from; from = 0 }
            guard count > 0, from < scalars.count else { return .text("") }
            var result = String.UnicodeScalarView()
            result.append(contentsOf: scalars[from..<min(scalars.count, from + count)])
            return .text(String(result))
        case "POSITION":
            let needle = Array(arguments[0].text!.unicodeScalars), haystack = Array(arguments[1].text!.unicodeScalars)
            if needle.isEmpty { return .integer(1) }
            guard haystack.count >= needle.count else { return .integer(0) }
            for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
                return .integer(Int64(start + 1))
            }
            return .integer(0)
        case "ABS":
            if case let .integer(v) = arguments[0] { return .integer(v == .min ? v : abs(v)) }
            return arguments[0].number.map { .double(abs($0)) } ?? .integer(0)
        case "CEILING", "FLOOR":
            if case .integer = arguments[0] { return arguments[0] }
            guard let v = arguments[0].number else { return .null }
            return .double(name == "CEILING" ? v.rounded(.up) : v.rounded(.down))
        case "ROUND":
            guard let v = arguments[0].number else { return .null }
            // Beyond ±330 digits every double rounds to itself or to 0: the clamp
            // bounds the work a clause such as ROUND(x, -9223372036854775807) asks for.
            let digits = max(-330, min(330, arguments.count > 1 ? Int(arguments[1].integer ?? 0) : 0))
            let scale = pow10(digits)
            guard scale > 0 else { return .double(0) }
            let scaled = v * scale
            // Too large to scale: v has no digit that far right, so it is its own rounding.
            guard scaled.isFinite else { return .double(v) }
            return .double(scaled.rounded(.toNearestOrAwayFromZero) / scale)
        case "MOD": return WhereEvaluator.arithmetic(.modulo, arguments[0], arguments[1])
        case "POWER":
            guard let base = arguments[0].number, let exponent = arguments[1].number else { return .null }
            return .double(power(base, exponent))
        default: return .null
        }
    }

    private static func pow10(_ n: Int) -> Double {
        var value = 1.0
        for _ in 0..<abs(n) { value *= 10 }
        return n < 0 ? 1 / value : value
    }

    private static func power(_ base: Double, _ exponent: Double) -> Double {
        pow(base, exponent)
    }
}
