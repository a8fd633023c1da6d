// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A small JSON tree for documents that are read once and are not hot: service
/// metadata, capabilities, error bodies. Feature data never goes through it; its
/// readers use `JSONScanner` directly.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    /// Members in document order (duplicate keys kept; lookups take the first).
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value as JSON text (what was read, written back: numbers as
    /// integers where they were, members in their order).
    package var jsonText: String {
        switch self {
        case .null: return "null"
        case let .bool(flag): return flag ? "true" : "false"
        case let .number(number): return number.integer.map(String.init) ?? JSONNumberText.shortest(number.double)
        case let .string(text): return JSONStringText.quoted(text)
        case let .array(items): return "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case let .object(members):
            return "{" + members.map { JSONStringText.quoted($0.0) + ":" + $0.1.jsonText }.joined(separator: ",") + "}"
        }
    }

    /// Parses a whole document.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = 128) throws(FeatureCacheError) -> JSONValue {
        do {
            return try bytes.withUnsafeBytes { raw in
                var scanner = JSONScanner(raw, maxDepth: maxDepth)
                let value = try read(&scanner)
                try scanner.finish()
                return value
            }
        } catch let error as FeatureCacheError {
            throw error
        } catch {
            throw FeatureCacheError(wrapping: error)
        }
    }

    package static func read(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> JSONValue {
        guard let kind = scanner.peekKind() else { throw scanner.error("expected a value") }
        switch kind {
        case .object:
            var members: [(String, JSONValue)] = []
            try scanner.beginObject()
            while try scanner.nextKey() {
                let key = scanner.key
                members.append((key, try read(&scanner)))
            }
            return .object(members)
        case .array:
            var elements: [JSONValue] = []
            try scanner.beginArray()
            while try scanner.nextElement() { elements.append(try read(&scanner)) }
            return .array(elements)
        case .string: return .string(try scanner.readString())
        case .number: return .number(try scanner.readNumber())
        case .bool: return .bool(try scanner.readBool())
        case .null: _ = try scanner.readNull(); return .null
        }
    }

    // MARK: - Access

    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    package var string: String? { if case .string(let s) = self { return s } else { return nil } }
    package var double: Double? { if case .number(let n) = self { return n.double } else { return nil } }
    package var int: Int64? {
        guard case .number(let n) = self else { return nil }
        if let integer = n.integer { return integer }
        if n.double.rounded() == n.double, abs(n.double) < 9.2e18 { return Int64(n.double) }
        return nil
    }
    package var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    package var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    package var members: [(String, JSONValue)]? { if case .object(let m) = self { return m } else { return nil } }
    package var isNull: Bool { if case .null = self { return true } else { return false } }
    package var isObject: Bool { if case .object = self { return true } else { return false } }
}
