// SPDX-License-Identifier: Apache-2.0
import FCSupport

// Reading JSON values straight into a column: the wire format's side of
// `ColumnBuilder` (the store's columns know no format).
extension ColumnBuilder {
    /// Reads the next JSON string from the scanner straight into the column.
    package func appendString(from scanner: inout JSONScanner) throws(FeatureCacheError) {
        if kind == nil { settle(.string) }
        switch kind! {
        case .string:
            try appendTextBytes { (bytes) throws(FeatureCacheError) in try scanner.readStringBytes(into: &bytes) }
        case .int64, .double, .boolean:
            try appendTextToTypedColumn(try scanner.readString())
        }
    }

    /// Stores a nested object or array as its JSON text.
    package func appendJSONText(from scanner: inout JSONScanner) throws(FeatureCacheError) {
        _ = scanner.peek()
        let start = scanner.offset
        try scanner.skipValue()
        if kind == nil { settle(.string) }
        guard kind == .string || inferred else {
            throw mismatch("a scalar", "an object or array")
        }
        if kind != .string { widenToText() }
        appendTextBytes(UnsafeRawBufferPointer(rebasing: scanner.bytes[start..<scanner.offset]))
    }

    /// Appends any JSON value, by its kind (GeoJSON properties, unknown attributes).
    package func appendValue(from scanner: inout JSONScanner) throws(FeatureCacheError) {
        guard let next = scanner.peekKind() else { throw scanner.error("expected a value") }
        switch next {
        case .null: _ = try scanner.readNull(); appendNull()
        case .bool: try appendBoolean(try scanner.readBool())
        case .string: try appendString(from: &scanner)
        case .number:
            let number = try scanner.readNumber()
            if let integer = number.integer { try appendInteger(integer) } else { try appendDouble(number.double) }
        case .object, .array: try appendJSONText(from: &scanner)
        }
    }
}
