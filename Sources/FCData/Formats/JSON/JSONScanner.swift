// SPDX-License-Identifier: Apache-2.0
import FCSupport

#if canImport(Glibc)
import Glibc
#endif

/// A strict, byte-level pull reader for JSON (RFC 8259) over borrowed bytes.
///
/// Readers walk a document with `beginObject`/`nextKey`, `beginArray`/`nextElement`
/// and typed reads, writing straight into whatever they build: no dictionaries, no
/// `Any`, no intermediate tree. Keys are compared as raw bytes (`keyEquals`), so an
/// ignored member costs a byte scan and nothing else. Every error names the byte
/// offset. Valid only inside the `withUnsafeBytes` scope that lent the bytes.
package struct JSONScanner {
    package let bytes: UnsafeRawBufferPointer
    package private(set) var offset: Int = 0
    private var depth: Int = 0
    private let maxDepth: Int
    /// True right after `[` or `{`: the next element must not be preceded by a comma.
    private var atContainerStart = false
    // The current key: a raw byte range when it had no escapes, else decoded bytes.
    private var keyStart = 0
    private var keyEnd = 0
    private var keyIsDecoded = false
    private var keyDecoded: [UInt8] = []

    package init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 256) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    // MARK: - Errors

    package func error(_ what: String) -> FeatureCacheError {
        var near = ""
        if offset < bytes.count {
            let end = min(bytes.count, offset + 24)
            near = ", near '" + String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self) + "'"
        } else {
            near = " (end of input)"
        }
        return .parse("JSON: \(what) at byte \(offset)\(near)")
    }

    // MARK: - Whitespace and structure

    @inline(__always)
    package mutating func skipWhitespace() {
        while offset < bytes.count {
            let byte = bytes[offset]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            offset += 1
        }
    }

    /// The next significant byte, not consumed; nil at end of input.
    @inline(__always)
    package mutating func peek() -> UInt8? {
        skipWhitespace()
        return offset < bytes.count ? bytes[offset] : nil
    }

    /// The kind of the next value; nil at end of input or where no value can start.
    package mutating func peekKind() -> JSONKind? {
        guard let byte = peek() else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "N"), UInt8(ascii: "I"): return .number
        default: return nil  // not the start of any value
        }
    }

    @inline(__always)
    private mutating func consume(_ expected: UInt8, _ what: @autoclosure () -> String) throws(FeatureCacheError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == expected else { throw error("expected \(what())") }
        offset += 1
    }

    package mutating func beginObject() throws(FeatureCacheError) {
        try consume(UInt8(ascii: "{"), "'{'")
        try enterContainer()
    }

    package mutating func beginArray() throws(FeatureCacheError) {
        try consume(UInt8(ascii: "["), "'['")
        try enterContainer()
    }

    @inline(__always)
    private mutating func enterContainer() throws(FeatureCacheError) {
        depth += 1
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        atContainerStart = true
    }

    /// Moves to the next member of the current object and reads its key.
    /// Returns false (and leaves the object) at `}`.
    package mutating func nextKey() throws(FeatureCacheError) -> Bool {
        guard try advance(closing: UInt8(ascii: "}"), "object") else { return false }
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a member name") }
        try readKey()
        try consume(UInt8(ascii: ":"), "':' after a member name")
        return true
    }

    /// Moves to the next element of the current array. Returns false (and leaves
    /// the array) at `]`.
    package mutating func nextElement() throws(FeatureCacheError) -> Bool {
        try advance(closing: UInt8(ascii: "]"), "array")
    }

    /// Steps over the `,` between entries of the current container, or leaves it at
    /// its closing byte (returning false).
    @inline(__always)
    private mutating func advance(closing: UInt8, _ container: StaticString) throws(FeatureCacheError) -> Bool {
        guard let byte = peek() else { throw error("unterminated \(container)") }
        if byte == closing {
            offset += 1
            depth -= 1
            atContainerStart = false
            return false
        }
        if atContainerStart {
            atContainerStart = false
        } else {
            guard byte == UInt8(ascii: ",") else { throw error("expected ',' or '\(Character(Unicode.Scalar(closing)))'") }
            offset += 1
        }
        return true
    }

    /// Checks that nothing but whitespace follows the document.
    package mutating func finish() throws(FeatureCacheError) {
        skipWhitespace()
        if offset != bytes.count { throw error("unexpected data after the JSON document") }
    }

    // MARK: - Literal runs (feature templates)

    /// Steps over `count` bytes equal to those at `start` of the same document
    /// (a run a template recorded from an earlier feature) and returns true;
    /// returns false and stays put when the bytes here differ.
    @inline(__always)
    package mutating func consumeLiteral(from start: Int, count: Int) -> Bool {
        guard count <= bytes.count - offset else { return false }
        let here = bytes.baseAddress! + offset, there = bytes.baseAddress! + start
        var index = 0
        while index + 8 <= count {
            guard here.loadUnaligned(fromByteOffset: index, as: UInt64.self) == there.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            else {
                return false
            }
            index += 8
        }
        if index < count {
            if count >= 8 {
                // The last eight bytes, overlapping what was compared.
                guard
                    here.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                        == there.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                else {
                    return false
                }
            } else {
                while index < count {
                    guard here.load(fromByteOffset: index, as: UInt8.self) == there.load(fromByteOffset: index, as: UInt8.self) else {
                        return false
                    }
                    index += 1
                }
            }
        }
        offset += count
        return true
    }

    /// Counts `levels` containers as entered (or left, negative) without
    /// reading their brackets: a value a template reads inside a feature's
    /// objects is held to the same nesting limit as when read member by member.
    @inline(__always)
    package mutating func adjustDepth(by levels: Int) { depth += levels }

    /// Goes back to `position`, a place this scanner passed in the same
    /// container (to read a feature again another way).
    package mutating func rewind(to position: Int) {
        precondition(position <= offset)
        offset = position
    }

    // MARK: - Keys

    private mutating func readKey() throws(FeatureCacheError) {
        let start = offset + 1  // after the opening quote
        let end = stringRunEnd(from: start)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            keyStart = start; keyEnd = end; keyIsDecoded = false
            offset = end + 1
            return
        }
        // Escapes (rare in keys): decode the whole key.
        var decoded = keyDecoded
        decoded.removeAll(keepingCapacity: true)
        try readStringBytes(into: &decoded)
        keyDecoded = decoded
        keyIsDecoded = true
    }

    /// The first byte at or after `start` that ends a plain run of string bytes
    /// (a quote, a backslash or a control character), or the end of the input.
    /// Eight bytes at a time: a SWAR test flags the bytes equal to '"' or '\\' or
    /// below 0x20 in one 64-bit word; the lowest flag is exact.
    @inline(__always)
    private func stringRunEnd(from start: Int) -> Int {
        let base = bytes.baseAddress!
        let count = bytes.count
        var index = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let flags = (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)) & highs
            if flags != 0 { return index + flags.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0x22 || byte == 0x5C || byte < 0x20 { return index }
            index += 1
        }
        return count
    }

    /// Whether the current key is exactly `name` (compared as bytes).
    @inline(__always)
    package func keyEquals(_ name: StaticString) -> Bool {
        let length = name.utf8CodeUnitCount
        if keyIsDecoded {
            return keyDecoded.count == length && keyDecoded.withUnsafeBytes { memcmp($0.baseAddress!, name.utf8Start, length) == 0 }
        }
        guard keyEnd - keyStart == length else { return false }
        return memcmp(bytes.baseAddress! + keyStart, name.utf8Start, length) == 0
    }

    /// Whether the current key is exactly these bytes.
    @inline(__always)
    package func keyEquals(bytes name: [UInt8]) -> Bool {
        name.withUnsafeBytes { name in
            if keyIsDecoded {
                return keyDecoded.count == name.count && keyDecoded.elementsEqual(name)
            }
            guard keyEnd - keyStart == name.count else { return false }
            return name.count == 0 || memcmp(bytes.baseAddress! + keyStart, name.baseAddress!, name.count) == 0
        }
    }

    /// The current key as a String (for error messages and generic readers).
    package var key: String {
        if keyIsDecoded { return String(decoding: keyDecoded, as: UTF8.self) }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[keyStart..<keyEnd]), as: UTF8.self)
    }

    // MARK: - Strings

    package mutating func readString() throws(FeatureCacheError) -> String {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a string") }
        // Fast path: no escapes, the bytes are the string.
        let start = offset + 1
        let end = stringRunEnd(from: start)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            offset = end + 1
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        var decoded: [UInt8] = []
        try readStringBytes(into: &decoded)
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Reads the next string and returns the index of the first of `names` it
    /// equals, nil when none (or it is not a string: an error). Allocates
    /// nothing: for the few names a format fixes (`"type": "Feature"`), read
    /// once per feature.
    package mutating func readString(matching names: [StaticString]) throws(FeatureCacheError) -> Int? {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a string") }
        func match(_ value: UnsafeRawBufferPointer) -> Int? {
            names.firstIndex { name in
                value.count == name.utf8CodeUnitCount && (value.isEmpty || memcmp(value.baseAddress!, name.utf8Start, value.count) == 0)
            }
        }
        let start = offset + 1
        let end = stringRunEnd(from: start)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
            // Escapes (never in these names as servers write them): decode, then compare.
            var decoded: [UInt8] = []
            try readStringBytes(into: &decoded)
            return decoded.withUnsafeBytes(match)
        }
        offset = end + 1
        return match(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
    }

    /// The string value that starts at `start` (after whitespace), for an error
    /// message about a value already read; nil when there is none.
    package func string(at start: Int) -> String? {
        var probe = self
        probe.offset = start
        return try? probe.readString()
    }

    /// A string, or nil for JSON `null`.
    package mutating func readStringOrNull() throws(FeatureCacheError) -> String? {
        if try readNull() { return nil }
        return try readString()
    }

    /// Appends the decoded UTF-8 bytes of the next string to `output`.
    package mutating func readStringBytes(into output: inout [UInt8]) throws(FeatureCacheError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a string") }
        offset += 1
        while true {
            let end = stringRunEnd(from: offset)
            if end > offset { output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) }
            offset = end
            guard end < bytes.count else { throw error("unterminated string") }
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return
            }
            if byte < 0x20 { throw error("unescaped control character in a string") }
            try readEscape(into: &output)
        }
    }

    private mutating func readEscape(into output: inout [UInt8]) throws(FeatureCacheError) {
        offset += 1  // backslash
        guard offset < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): output.append(0x22)
        case UInt8(ascii: "\\"): output.append(0x5C)
        case UInt8(ascii: "/"): output.append(0x2F)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by \u and a low surrogate.
                if offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") {
                    offset += 2
                    let low = try readHex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        appendUTF8(0xFFFD, to: &output)
                        scalar = low
                    }
                } else {
                    scalar = 0xFFFD
                }
            } else if (0xDC00...0xDFFF).contains(scalar) {
                scalar = 0xFFFD  // a lone low surrogate
            }
            appendUTF8(scalar, to: &output)
        default:
            offset -= 1
            throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func readHex4() throws(FeatureCacheError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | (scalar >> 6)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | (scalar >> 12)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            output.append(UInt8(0xF0 | (scalar >> 18)))
            output.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    // MARK: - Literals

    /// Consumes `null` and returns true, or returns false and consumes nothing.
    @inline(__always)
    package mutating func readNull() throws(FeatureCacheError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try expectLiteral("null")
        return true
    }

    package mutating func readBool() throws(FeatureCacheError) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"): try expectLiteral("true"); return true
        case UInt8(ascii: "f"): try expectLiteral("false"); return false
        default: throw error("expected true or false")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(FeatureCacheError) {
        let length = literal.utf8CodeUnitCount
        guard offset + length <= bytes.count,
            memcmp(bytes.baseAddress! + offset, literal.utf8Start, length) == 0
        else {
            throw error("invalid literal (expected \(literal))")
        }
        offset += length
    }

    // MARK: - Numbers

    /// The next number. NaN and Infinity are not JSON and are rejected.
    ///
    /// Digits accumulate into one 64-bit mantissa in tight loops; up to 19 digits
    /// that is exact, integers come out exact, and Clinger's fast path gives the
    /// correctly rounded double when mantissa and power of ten are both exact
    /// doubles. Other numbers of up to 19 significant digits (17-digit
    /// coordinates among them) go through Eisel–Lemire (decimalToDouble); only
    /// longer ones, subnormals and overflows go to strtod.
    package mutating func readNumber() throws(FeatureCacheError) -> JSONNumber {
        skipWhitespace()
        let start = offset
        let end = bytes.count
        var cursor = offset
        let negative = cursor < end && bytes[cursor] == UInt8(ascii: "-")
        if negative { cursor += 1 }
        guard cursor < end, isDigit(bytes[cursor]) else {
            if cursor < end, bytes[cursor] == UInt8(ascii: "N") || bytes[cursor] == UInt8(ascii: "I") {
                throw error("NaN and Infinity are not JSON numbers")
            }
            throw error("expected a number")
        }
        var mantissa: UInt64 = 0
        let integerStart = cursor
        if bytes[cursor] == UInt8(ascii: "0") {
            cursor += 1
            if cursor < end, isDigit(bytes[cursor]) { offset = cursor; throw error("leading zeros are not allowed") }
        } else {
            while cursor < end {
                let digit = bytes[cursor] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                cursor += 1
            }
        }
        var digits = cursor - integerStart
        var exponent = 0
        var isInteger = true
        if cursor < end, bytes[cursor] == UInt8(ascii: ".") {
            isInteger = false
            cursor += 1
            let fractionStart = cursor
            while cursor < end {
                let digit = bytes[cursor] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                cursor += 1
            }
            guard cursor > fractionStart else { offset = cursor; throw error("expected a digit after '.'") }
            digits += cursor - fractionStart
            exponent = fractionStart - cursor
        }
        if cursor < end, bytes[cursor] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            cursor += 1
            var exponentNegative = false
            if cursor < end, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
                exponentNegative = bytes[cursor] == UInt8(ascii: "-")
                cursor += 1
            }
            guard cursor < end, isDigit(bytes[cursor]) else { offset = cursor; throw error("expected a digit in the exponent") }
            var explicit = 0
            while cursor < end, isDigit(bytes[cursor]) {
                if explicit < 100_000 { explicit = explicit * 10 + Int(bytes[cursor] - UInt8(ascii: "0")) }
                cursor += 1
            }
            exponent += exponentNegative ? -explicit : explicit
        }
        offset = cursor

        if digits > 19 {
            // Leading zeros ("0.000…") do not count; past 19 significant digits the
            // mantissa wrapped: only strtod can say.
            var significant = 0
            var seenNonZero = false
            for position in integerStart..<cursor where isDigit(bytes[position]) {
                if bytes[position] != UInt8(ascii: "0") { seenNonZero = true }
                if seenNonZero { significant += 1 }
            }
            if significant > 19 || (isInteger && significant == 19 && mantissa > UInt64(Int64.max) + 1) {
                return JSONNumber(double: slowDouble(start..<cursor), integer: nil)
            }
        }
        if isInteger {
            if !negative, mantissa <= UInt64(Int64.max) { return JSONNumber(double: Double(mantissa), integer: Int64(mantissa)) }
            if negative, mantissa <= UInt64(Int64.max) + 1 {
                let value = mantissa == UInt64(Int64.max) + 1 ? Int64.min : -Int64(mantissa)
                return JSONNumber(double: Double(value), integer: value)
            }
        } else if mantissa <= (1 << 53), exponent >= -22, exponent <= 22 {
            // Clinger's fast path: exact when the mantissa and the power of ten are exact doubles.
            var value = Double(mantissa)
            if exponent < 0 { value /= exactPowersOfTen[-exponent] } else { value *= exactPowersOfTen[exponent] }
            return JSONNumber(double: negative ? -value : value, integer: nil)
        }
        // Up to 19 significant digits: the mantissa is exact.
        if let value = decimalToDouble(significand: mantissa, exponent: exponent) {
            return JSONNumber(double: negative ? -value : value, integer: nil)
        }
        return JSONNumber(double: slowDouble(start..<cursor), integer: nil)
    }

    /// Reads a bare `NaN` token if it is next (whole, not the start of a longer
    /// word). It is not JSON: only a reader that names the server behaviour it
    /// serves may accept it, and only where that server writes it.
    package mutating func readBareNaN() -> Bool {
        skipWhitespace()
        guard offset + 3 <= bytes.count, bytes[offset] == UInt8(ascii: "N"), bytes[offset + 1] == UInt8(ascii: "a"),
            bytes[offset + 2] == UInt8(ascii: "N")
        else { return false }
        if offset + 3 < bytes.count {
            let next = bytes[offset + 3] | 0x20
            if next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z") || isDigit(bytes[offset + 3]) { return false }
        }
        offset += 3
        return true
    }

    package mutating func readDouble() throws(FeatureCacheError) -> Double {
        try readNumber().double
    }

    /// An integer number; a fractional or out-of-range value is an error.
    package mutating func readInt64() throws(FeatureCacheError) -> Int64 {
        let start = offset
        let number = try readNumber()
        if let integer = number.integer { return integer }
        // 1.0 or 1e3 written for an integer: accept when exact.
        if number.double.rounded() == number.double, abs(number.double) < 9.2e18 { return Int64(number.double) }
        offset = start
        throw error("expected an integer")
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Correctly rounded conversion through the C library, for the rare numbers
    /// outside the fast path.
    private func slowDouble(_ range: Range<Int>) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: range.count + 1) { buffer in
            for (index, position) in range.enumerated() { buffer[index] = CChar(bitPattern: bytes[position]) }
            buffer[range.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
    }

    // MARK: - Skipping

    /// Skips the next value, checking its syntax.
    package mutating func skipValue() throws(FeatureCacheError) {
        guard let kind = peekKind() else { throw error("expected a value") }
        switch kind {
        case .object:
            try beginObject()
            while try nextKey() { try skipValue() }
        case .array:
            try beginArray()
            while try nextElement() { try skipValue() }
        case .string:
            try skipString()
        case .number:
            _ = try readNumber()
        case .bool:
            _ = try readBool()
        case .null:
            _ = try readNull()
        }
    }

    private mutating func skipString() throws(FeatureCacheError) {
        offset += 1
        while true {
            offset = stringRunEnd(from: offset)
            guard offset < bytes.count else { throw error("unterminated string") }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") { offset += 1; return }
            if byte < 0x20 { throw error("unescaped control character in a string") }
            offset += 1  // backslash
            guard offset < bytes.count else { throw error("unterminated string") }
            if bytes[offset] == UInt8(ascii: "u") { offset += 1; _ = try readHex4(); continue }
            offset += 1
        }
    }
}

package enum JSONKind: Sendable { case object, array, string, number, bool, null }

/// A JSON number as read: always a double; also an exact integer when written as one
/// and in range.
package struct JSONNumber: Sendable, Equatable {
    package var double: Double
    package var integer: Int64?
}
