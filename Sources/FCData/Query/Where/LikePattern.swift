// SPDX-License-Identifier: Apache-2.0
import FCSupport

#if canImport(Glibc)
import Glibc
#endif

/// A compiled LIKE pattern over UTF-8 bytes: `%` any run of characters, `_` one
/// character (one UTF-8 sequence), the escape character makes the next one literal.
/// Case-sensitive. Matching is the linear-backtracking wildcard algorithm.
package struct LikePattern {
    private enum Piece: Equatable { case byte(UInt8), one, any }
    private let pieces: [Piece]
    /// The common forms, matched with one comparison instead of the general
    /// loop: 'text', 'text%', '%text', '%text%'.
    private enum Form { case general, equals, prefix, suffix, contains }
    private let form: Form
    private let literal: [UInt8]

    package init(_ pattern: String, escape: Character?) {
        var pieces: [Piece] = []
        let escapeBytes = escape.map { Array(String($0).utf8) }
        var bytes = Array(pattern.utf8)[...]
        while let byte = bytes.first {
            if let escapeBytes, bytes.starts(with: escapeBytes), bytes.count > escapeBytes.count {
                bytes = bytes.dropFirst(escapeBytes.count)
                // The escaped character, whole (it may be several bytes).
                let length = LikePattern.sequenceLength(bytes.first!)
                for escaped in bytes.prefix(length) { pieces.append(.byte(escaped)) }
                bytes = bytes.dropFirst(length)
                continue
            }
            switch byte {
            case UInt8(ascii: "%"): if pieces.last != .any { pieces.append(.any) }
            case UInt8(ascii: "_"): pieces.append(.one)
            default: pieces.append(.byte(byte))
            }
            bytes = bytes.dropFirst()
        }
        self.pieces = pieces
        // The literal between the pattern's leading and trailing %, when that is all it has.
        let leading = pieces.first == .any, trailing = pieces.count > 1 && pieces.last == .any
        let middle = pieces[(leading ? 1 : 0)..<(pieces.count - (trailing ? 1 : 0))]
        var literal: [UInt8] = []
        for piece in middle {
            guard case let .byte(byte) = piece else { break }
            literal.append(byte)
        }
        self.literal = literal
        if literal.count != middle.count {
            form = .general
        } else {
            form = leading ? (trailing ? .contains : .suffix) : (trailing ? .prefix : .equals)
        }
    }

    /// Bytes in the UTF-8 sequence that starts with `lead`.
    package static func sequenceLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// Whether `needle` (not empty) occurs in `text`: memchr finds each place
    /// its first byte does, memcmp checks the rest.
    private static func contains(_ text: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        let n = needle.count, first = Int32(needle[0])
        var at = 0
        while text.count - at >= n {
            guard let found = memchr(text.baseAddress! + at, first, text.count - at - n + 1) else { return false }
            if memcmp(found, needle.baseAddress!, n) == 0 { return true }
            at = text.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
        }
        return false
    }

    package func matches(_ text: UnsafeRawBufferPointer) -> Bool {
        if form != .general {
            let n = literal.count
            guard text.count >= n else { return false }
            guard n > 0 else { return form != .equals || text.isEmpty }
            return literal.withUnsafeBytes { literal in
                switch form {
                case .equals: return text.count == n && memcmp(text.baseAddress!, literal.baseAddress!, n) == 0
                case .prefix: return memcmp(text.baseAddress!, literal.baseAddress!, n) == 0
                case .suffix: return memcmp(text.baseAddress! + (text.count - n), literal.baseAddress!, n) == 0
                default: return Self.contains(text, literal)
                }
            }
        }
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pieces.count {
                switch pieces[p] {
                case let .byte(b) where b == text[t]:
                    t += 1; p += 1; continue
                case .one:
                    t += LikePattern.sequenceLength(text[t]); p += 1; continue
                case .any:
                    starP = p; starT = t; p += 1; continue
                default: break
                }
            }
            guard starP >= 0 else { return false }
            // Let the last % take one more character and try again.
            starT += LikePattern.sequenceLength(text[starT])
            t = starT
            p = starP + 1
        }
        while p < pieces.count, pieces[p] == .any { p += 1 }
        return p == pieces.count && t == text.count
    }
}

/// LIKE patterns as server dialects write them: CQL2 and FES escape with a backslash.
package enum LikeText {
    /// The pattern with `escape` (if any) rewritten to a backslash; nil when it
    /// cannot be expressed that way.
    package static func withBackslashEscape(_ pattern: String, escape: Character?) -> String? {
        guard let escape, escape != "\\" else {
            // A backslash the caller meant literally must be escaped itself.
            return escape == "\\" ? pattern : pattern.replacingAll("\\", with: "\\\\")
        }
        var result = ""
        var escaping = false
        for character in pattern {
            if escaping {
                result.append("\\")
                result.append(character)
                escaping = false
            } else if character == escape {
                escaping = true
            } else if character == "\\" {
                result += "\\\\"
            } else {
                result.append(character)
            }
        }
        return escaping ? nil : result
    }
}
