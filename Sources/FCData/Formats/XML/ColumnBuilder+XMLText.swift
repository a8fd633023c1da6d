// SPDX-License-Identifier: Apache-2.0
import FCSupport

// Reading XML text values (GML properties) into a column: the wire format's side
// of `ColumnBuilder` (the store's columns know no format).
extension ColumnBuilder {
    /// Appends a value written as XML text (GML properties): converted to the
    /// column's type; an inferred column takes integers, numbers or text.
    package func appendText(_ text: UnsafeRawBufferPointer) throws(FeatureCacheError) {
        let trimmed = XMLBytes.trimmed(text)
        if inferred {
            if let integer = Self.integer(trimmed) { return try appendInteger(integer) }
            if let number = Self.double(trimmed) { return try appendDouble(number) }
            if kind == nil { settle(.string) } else if kind != .string { widenToText() }
        }
        switch kind! {
        case .string:
            appendTextBytes(text)
        case .int64:
            if field.type == .date {
                guard let milliseconds = DateText.epochMilliseconds(String(decoding: trimmed, as: UTF8.self)) else {
                    throw mismatch("a date", "'\(String(decoding: trimmed, as: UTF8.self))'")
                }
                return try appendInteger(milliseconds)
            }
            if let integer = Self.integer(trimmed) { return try appendInteger(integer) }
            if let number = Self.double(trimmed) { return try appendDouble(number) }
            throw mismatch("an integer", "'\(String(decoding: trimmed, as: UTF8.self))'")
        case .double:
            guard let number = Self.double(trimmed) else { throw mismatch("a number", "'\(String(decoding: trimmed, as: UTF8.self))'") }
            try appendDouble(number)
        case .boolean:
            switch String(decoding: trimmed, as: UTF8.self) {
            case "true", "1": try appendBoolean(true)
            case "false", "0": try appendBoolean(false)
            case let other: throw mismatch("a boolean", "'\(other)'")
            }
        }
    }

    /// The text as an integer when it is exactly one (an optional sign and digits).
    package static func integer(_ text: UnsafeRawBufferPointer) -> Int64? {
        guard !text.isEmpty, text.count <= 20 else { return nil }
        var index = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative || text[0] == UInt8(ascii: "+") { index = 1 }
        guard index < text.count else { return nil }
        var value: Int64 = 0
        while index < text.count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return negative ? -value : value
    }

    /// The text as a number (XML Schema double: also INF, -INF, NaN).
    package static func double(_ text: UnsafeRawBufferPointer) -> Double? {
        guard !text.isEmpty else { return nil }
        var scanner = JSONScanner(text[0] == UInt8(ascii: "+") ? UnsafeRawBufferPointer(rebasing: text[1...]) : text)
        if let number = try? scanner.readNumber(), scanner.offset == scanner.bytes.count { return number.double }
        switch String(decoding: text, as: UTF8.self) {
        case "INF", "+INF": return .infinity
        case "-INF": return -.infinity
        case "NaN": return .nan
        default: return nil
        }
    }
}
