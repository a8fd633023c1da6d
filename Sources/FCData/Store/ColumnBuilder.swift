// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Builds one column while a reader walks a response. A declared column (Esri JSON
/// `fields`, a known schema) keeps its type and rejects values that do not fit it;
/// an inferred column (GeoJSON `properties`) takes its type from the values it sees
/// and widens as needed: integer → double → text, anything nested → its JSON text.
/// It knows no wire format: the readers append through `Formats/JSON/ColumnBuilder+JSON.swift`
/// and `Formats/XML/ColumnBuilder+XMLText.swift`.
/// Its stored properties are `@exclusivity(unchecked)`: it is mutated once or
/// more per value read, the dynamic exclusivity checks on those accesses cost
/// about 30 % of reading, and it is only ever used by the one thread reading.
package final class ColumnBuilder {
    @exclusivity(unchecked) package private(set) var field: FieldInfo
    /// nil while an inferred column has seen only NULLs.
    @exclusivity(unchecked) package private(set) var kind: ColumnKind?
    package let inferred: Bool
    @exclusivity(unchecked) package private(set) var count = 0
    @exclusivity(unchecked) private var integers: [Int64] = []
    @exclusivity(unchecked) private var doubles: [Double] = []
    @exclusivity(unchecked) private var offsets: [UInt32] = [0]
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    @exclusivity(unchecked) private var validity = Bitmap()
    @exclusivity(unchecked) private var nullCount = 0

    package init(declared field: FieldInfo) {
        self.field = field
        kind = ColumnKind(field.type)
        inferred = false
    }

    package init(inferredName name: String) {
        field = FieldInfo(name: name, type: .unknown)
        kind = nil
        inferred = true
    }

    /// Room for `rows` values, when a reader knows how many rows come (text
    /// bytes are not guessed).
    package func reserveCapacity(_ rows: Int) {
        validity.reserveCapacity(rows)
        switch kind {
        case .int64?, .boolean?: integers.reserveCapacity(rows)
        case .double?: doubles.reserveCapacity(rows)
        case .string?: offsets.reserveCapacity(rows + 1)
        case nil: break
        }
    }

    /// Rows before this column first appeared (a GeoJSON property missing from
    /// earlier features) are NULL.
    package func padNulls(to rows: Int) { while count < rows { appendNull() } }

    // MARK: - Appending

    package func appendNull() {
        validity.append(false)
        nullCount += 1
        count += 1
        switch kind {
        case .int64?, .boolean?: integers.append(0)
        case .double?: doubles.append(0)
        case .string?: bytes.append(0); offsets.append(UInt32(truncatingIfNeeded: bytes.count))
        case nil: break  // filled in when the type is known
        }
    }

    /// The common case inline (an integer column), the rest in `appendIntegerConverting`.
    @inline(__always)
    package func appendInteger(_ value: Int64) throws(FeatureCacheError) {
        guard kind == .int64 else { return try appendIntegerConverting(value) }
        integers.append(value)
        markValid()
    }

    private func appendIntegerConverting(_ value: Int64) throws(FeatureCacheError) {
        if kind == nil { settle(.int64) }
        switch kind! {
        case .int64: integers.append(value)
        case .double: doubles.append(Double(value))
        case .string:
            appendText(String(value))
            return
        case .boolean:
            guard !inferred else { widenToText(); appendText(String(value)); return }
            guard value == 0 || value == 1 else { throw mismatch("a boolean", String(value)) }
            integers.append(value)
        }
        markValid()
    }

    /// The common case inline (a double column), the rest in `appendDoubleConverting`.
    @inline(__always)
    package func appendDouble(_ value: Double) throws(FeatureCacheError) {
        guard kind == .double else { return try appendDoubleConverting(value) }
        doubles.append(value)
        markValid()
    }

    private func appendDoubleConverting(_ value: Double) throws(FeatureCacheError) {
        if kind == nil { settle(.double) }
        switch kind! {
        case .double: doubles.append(value)
        case .int64:
            if inferred || field.widensToDouble {
                widenToDouble()
                doubles.append(value)
            } else {
                // Servers write integral numbers as 3.0 or 3e0 now and then.
                guard value.rounded() == value, abs(value) < 9.2e18 else { throw mismatch("an integer", String(value)) }
                integers.append(Int64(value))
            }
        case .string:
            appendText(String(value))
            return
        case .boolean:
            guard inferred else { throw mismatch("a boolean", String(value)) }
            widenToText()
            appendText(String(value))
            return
        }
        markValid()
    }

    package func appendBoolean(_ value: Bool) throws(FeatureCacheError) {
        if kind == nil { settle(.boolean) }
        switch kind! {
        case .boolean, .int64: integers.append(value ? 1 : 0)
        case .double: doubles.append(value ? 1 : 0)
        case .string:
            appendText(value ? "true" : "false")
            return
        }
        markValid()
    }

    /// Appends one text value whose bytes `write` adds straight from a reader's
    /// buffer (no intermediate String), then ends it.
    @inline(__always)
    package func appendTextBytes(_ write: (inout [UInt8]) throws(FeatureCacheError) -> Void) throws(FeatureCacheError) {
        try write(&bytes)
        finishText()
    }

    /// Appends one text value of these UTF-8 bytes.
    @inline(__always)
    package func appendTextBytes(_ text: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: text)
        finishText()
    }

    /// Appends text met where this column's type is not text: an inferred
    /// column becomes text; a declared number takes the text's number, a date
    /// its time (older servers write dates as text); anything else is a mismatch.
    package func appendTextToTypedColumn(_ text: String) throws(FeatureCacheError) {
        if inferred {
            widenToText()
            appendText(text)
        } else if kind == .double, let number = Double(text.trimmingCharacters(in: " ")) {
            try appendDouble(number)
        } else if kind == .int64, let number = Int64(text.trimmingCharacters(in: " ")) {
            try appendInteger(number)
        } else if field.type == .date, let milliseconds = DateText.epochMilliseconds(text) {
            try appendInteger(milliseconds)
        } else {
            throw mismatch(kind == .double ? "a number" : "an integer", "\"\(text)\"")
        }
    }

    /// Takes back the last value appended, for a reader that read part of a
    /// row ahead and reads it again another way. A type the value settled or
    /// widened the column to stays: reading the value again does the same.
    package func removeLastValue() {
        precondition(count > 0)
        count -= 1
        if !validity[count] { nullCount -= 1 }
        validity.removeLast()
        switch kind {
        case .int64?, .boolean?: integers.removeLast()
        case .double?: doubles.removeLast()
        case .string?:
            offsets.removeLast()
            bytes.removeSubrange(Int(offsets.last!)...)
        case nil: break  // only NULLs so far, and they are not laid out
        }
    }

    // MARK: - Finishing

    package func finish() -> Column {
        if kind == nil { settle(.string) }
        if inferred {
            switch kind! {
            case .int64: field.type = .bigInteger
            case .double: field.type = .double
            case .string: field.type = .string
            case .boolean: field.type = .boolean
            }
        }
        let validity = nullCount == 0 ? nil : validity
        switch kind! {
        case .int64, .boolean: return Column(field: field, kind: kind!, integers: ColumnBuffer(integers), validity: validity)
        case .double: return Column(field: field, kind: .double, doubles: ColumnBuffer(doubles), validity: validity)
        case .string:
            return Column(field: field, kind: .string, offsets: ColumnBuffer(offsets), bytes: FrozenBytes(bytes), validity: validity)
        }
    }

    // MARK: - Helpers

    @inline(__always)
    private func markValid() {
        validity.append(true)
        count += 1
    }

    package func appendText(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        finishText()
    }

    @inline(__always)
    private func finishText() {
        bytes.append(0)
        offsets.append(UInt32(truncatingIfNeeded: bytes.count))
        markValid()
    }

    /// First value of an inferred column: fix the kind and lay out the NULLs so far.
    package func settle(_ newKind: ColumnKind) {
        kind = newKind
        let nulls = count
        switch newKind {
        case .int64, .boolean: integers = [Int64](repeating: 0, count: nulls)
        case .double: doubles = [Double](repeating: 0, count: nulls)
        case .string:
            bytes = [UInt8](repeating: 0, count: nulls)
            offsets = (0...nulls).map { UInt32($0) }
        }
    }

    private func widenToDouble() {
        doubles = integers.map(Double.init)
        integers = []
        kind = .double
        if field.widensToDouble { field.type = .double }
    }

    /// Rewrites the values so far as text (an inferred column that met a string).
    package func widenToText() {
        let previous = kind
        var texts: [String] = []
        for row in 0..<count {
            if !validity[row] { texts.append(""); continue }
            switch previous {
            case .int64?: texts.append(String(integers[row]))
            case .boolean?: texts.append(integers[row] != 0 ? "true" : "false")
            case .double?: texts.append(String(doubles[row]))
            default: texts.append("")
            }
        }
        integers = []
        doubles = []
        bytes = []
        offsets = [0]
        for text in texts {
            bytes.append(contentsOf: text.utf8)
            bytes.append(0)
            offsets.append(UInt32(truncatingIfNeeded: bytes.count))
        }
        kind = .string
    }

    package func mismatch(_ expected: String, _ got: String) -> FeatureCacheError {
        .parse("field '\(field.name)' (\(field.type)) expects \(expected), got \(got)")
    }
}
