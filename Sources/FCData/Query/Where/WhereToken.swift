// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A token of a where clause, with the byte offset it starts at (for errors).
package struct WhereToken: Equatable {
    package enum Kind: Equatable {
        case identifier(String)  // a bare name, kept as written
        case quotedIdentifier(String)  // "Name With Spaces"
        case string(String)  // 'text' ('' inside is one quote)
        case integer(Int64)
        case number(Double)
        case symbol(String)  // = <> != < <= > >= + - * / % || ( ) ,
        case end
    }

    package let kind: Kind
    package let offset: Int

    /// The upper-cased word of a bare identifier (keywords are matched this way).
    package var keyword: String? {
        if case let .identifier(name) = kind { return name.uppercased() }
        return nil
    }

    package var describe: String {
        switch kind {
        case let .identifier(name): "'\(name)'"
        case let .quotedIdentifier(name): "\"\(name)\""
        case let .string(text): "'\(text)'"
        case let .integer(value): String(value)
        case let .number(value): String(value)
        case let .symbol(symbol): "'\(symbol)'"
        case .end: "the end of the clause"
        }
    }
}

/// Splits a where clause into tokens.
package enum WhereLexer {
    package static func tokens(_ text: String) throws(FeatureCacheError) -> [WhereToken] {
        let bytes = Array(text.utf8)
        var tokens: [WhereToken] = []
        var index = 0
        func fail(_ message: String, at offset: Int) -> FeatureCacheError {
            FeatureCacheError(.invalidArgument, "where clause: \(message) at position \(offset + 1)")
        }
        while index < bytes.count {
            let byte = bytes[index]
            let start = index
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "'"):
                var value: [UInt8] = []
                index += 1
                while true {
                    guard index < bytes.count else { throw fail("unterminated string literal", at: start) }
                    if bytes[index] == UInt8(ascii: "'") {
                        if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "'") {
                            value.append(UInt8(ascii: "'"))
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    value.append(bytes[index])
                    index += 1
                }
                tokens.append(WhereToken(kind: .string(String(decoding: value, as: UTF8.self)), offset: start))
            case UInt8(ascii: "\""):
                guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\"")) else {
                    throw fail("unterminated quoted name", at: start)
                }
                let name = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
                guard !name.isEmpty else { throw fail("empty quoted name", at: start) }
                tokens.append(WhereToken(kind: .quotedIdentifier(name), offset: start))
                index = close + 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."):
                var end = index
                var isInteger = true
                while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
                if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
                    isInteger = false
                    end += 1
                    while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
                }
                if end < bytes.count, bytes[end] | 0x20 == UInt8(ascii: "e") {
                    var exponentEnd = end + 1
                    if exponentEnd < bytes.count, bytes[exponentEnd] == UInt8(ascii: "+") || bytes[exponentEnd] == UInt8(ascii: "-") {
                        exponentEnd += 1
                    }
                    if exponentEnd < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[exponentEnd]) {
                        isInteger = false
                        end = exponentEnd
                        while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
                    }
                }
                let text = String(decoding: bytes[index..<end], as: UTF8.self)
                if isInteger, let value = Int64(text) {
                    tokens.append(WhereToken(kind: .integer(value), offset: start))
                } else if let value = Double(text), text != "." {
                    tokens.append(WhereToken(kind: .number(value), offset: start))
                } else {
                    throw fail("'\(text)' is not a number", at: start)
                }
                index = end
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "_"), 0x80...0xFF:
                var end = index
                while end < bytes.count {
                    let b = bytes[end]
                    let isName =
                        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_") || b >= 0x80
                    guard isName else { break }
                    end += 1
                }
                tokens.append(WhereToken(kind: .identifier(String(decoding: bytes[index..<end], as: UTF8.self)), offset: start))
                index = end
            default:
                let two = index + 1 < bytes.count ? String(decoding: bytes[index...index + 1], as: UTF8.self) : ""
                if ["<>", "!=", "<=", ">=", "||"].contains(two) {
                    tokens.append(WhereToken(kind: .symbol(two == "!=" ? "<>" : two), offset: start))
                    index += 2
                } else if "=<>+-*/%(),".utf8.contains(byte) {
                    tokens.append(WhereToken(kind: .symbol(String(UnicodeScalar(byte))), offset: start))
                    index += 1
                } else {
                    throw fail("unexpected character '\(String(decoding: bytes[index...index], as: UTF8.self))'", at: start)
                }
            }
        }
        tokens.append(WhereToken(kind: .end, offset: bytes.count))
        return tokens
    }
}
