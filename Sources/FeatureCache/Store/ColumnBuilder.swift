/// Builds one column while a reader walks a response. A declared column (Esri JSON
/// `fields`, a known schema) keeps its type and rejects values that do not fit it;
/// an inferred column (GeoJSON `properties`) takes its type from the values it sees
/// and widens as needed: integer → double → text, anything nested → its JSON text.
final class ColumnBuilder {
    private(set) var field: FieldInfo
    /// nil while an inferred column has seen only NULLs.
    private(set) var kind: ColumnKind?
    let inferred: Bool
    private(set) var count = 0
    private var integers: [Int64] = []
    private var doubles: [Double] = []
    private var offsets: [UInt32] = [0]
    private var bytes: [UInt8] = []
    private var validity = Bitmap()
    private var nullCount = 0

    init(declared field: FieldInfo) {
        self.field = field
        kind = ColumnKind(field.type)
        inferred = false
    }

    init(inferredName name: String) {
        field = FieldInfo(name: name, type: .unknown)
        kind = nil
        inferred = true
    }

    /// Rows before this column first appeared (a GeoJSON property missing from
    /// earlier features) are NULL.
    func padNulls(to rows: Int) { while count < rows { appendNull() } }

    // MARK: - Appending

    func appendNull() {
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

    func appendInteger(_ value: Int64) throws(FeatureCacheError) {
        if kind == nil { settle(.int64) }
        switch kind! {
        case .int64: integers.append(value)
        case .double: doubles.append(Double(value))
        case .string: appendText(String(value))
            return
        case .boolean:
            guard !inferred else { widenToText(); appendText(String(value)); return }
            guard value == 0 || value == 1 else { throw mismatch("a boolean", String(value)) }
            integers.append(value)
        }
        markValid()
    }

    func appendDouble(_ value: Double) throws(FeatureCacheError) {
        if kind == nil { settle(.double) }
        switch kind! {
        case .double: doubles.append(value)
        case .int64:
            if inferred {
                widenToDouble()
                doubles.append(value)
            } else {
                // Servers write integral numbers as 3.0 or 3e0 now and then.
                guard value.rounded() == value, abs(value) < 9.2e18 else { throw mismatch("an integer", String(value)) }
                integers.append(Int64(value))
            }
        case .string: appendText(String(value))
            return
        case .boolean:
            guard inferred else { throw mismatch("a boolean", String(value)) }
            widenToText()
            appendText(String(value))
            return
        }
        markValid()
    }

    func appendBoolean(_ value: Bool) throws(FeatureCacheError) {
        if kind == nil { settle(.boolean) }
        switch kind! {
        case .boolean, .int64: integers.append(value ? 1 : 0)
        case .double: doubles.append(value ? 1 : 0)
        case .string: appendText(value ? "true" : "false")
            return
        }
        markValid()
    }

    /// Reads the next JSON string from the scanner straight into the column.
    func appendString(from scanner: inout JSONScanner) throws(FeatureCacheError) {
        if kind == nil { settle(.string) }
        switch kind! {
        case .string:
            try scanner.readStringBytes(into: &bytes)
            finishText()
        case .int64, .double, .boolean:
            let text = try scanner.readString()
            if inferred {
                widenToText()
                appendText(text)
            } else if kind == .double, let number = Double(text.trimmingCharacters(in: " ")) {
                try appendDouble(number)
            } else if kind == .int64, let number = Int64(text.trimmingCharacters(in: " ")) {
                try appendInteger(number)
            } else if field.type == .date, let milliseconds = DateText.epochMilliseconds(text) {
                try appendInteger(milliseconds)  // older servers write dates as text
            } else {
                throw mismatch(kind == .double ? "a number" : "an integer", "\"\(text)\"")
            }
        }
    }

    /// Stores a nested object or array as its JSON text.
    func appendJSONText(from scanner: inout JSONScanner) throws(FeatureCacheError) {
        _ = scanner.peek()
        let start = scanner.offset
        try scanner.skipValue()
        if kind == nil { settle(.string) }
        guard kind == .string || inferred else {
            throw mismatch("a scalar", "an object or array")
        }
        if kind != .string { widenToText() }
        bytes.append(contentsOf: scanner.bytes[start..<scanner.offset])
        finishText()
    }

    /// Appends any JSON value, by its kind (GeoJSON properties, unknown attributes).
    func appendValue(from scanner: inout JSONScanner) throws(FeatureCacheError) {
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

    /// Appends a value written as XML text (GML properties): converted to the
    /// column's type; an inferred column takes integers, numbers or text.
    func appendText(_ text: UnsafeRawBufferPointer) throws(FeatureCacheError) {
        let trimmed = XMLBytes.trimmed(text)
        if inferred {
            if let integer = Self.integer(trimmed) { return try appendInteger(integer) }
            if let number = Self.double(trimmed) { return try appendDouble(number) }
            if kind == nil { settle(.string) } else if kind != .string { widenToText() }
        }
        switch kind! {
        case .string:
            bytes.append(contentsOf: text)
            finishText()
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
    static func integer(_ text: UnsafeRawBufferPointer) -> Int64? {
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
    static func double(_ text: UnsafeRawBufferPointer) -> Double? {
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

    // MARK: - Finishing

    func finish() -> Column {
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
        case .int64, .boolean: return Column(field: field, kind: kind!, integers: integers, validity: validity)
        case .double: return Column(field: field, kind: .double, doubles: doubles, validity: validity)
        case .string: return Column(field: field, kind: .string, offsets: offsets, bytes: FrozenBytes(bytes), validity: validity)
        }
    }

    // MARK: - Helpers

    @inline(__always)
    private func markValid() {
        validity.append(true)
        count += 1
    }

    private func appendText(_ text: String) {
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
    private func settle(_ newKind: ColumnKind) {
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
    }

    /// Rewrites the values so far as text (an inferred column that met a string).
    private func widenToText() {
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

    private func mismatch(_ expected: String, _ got: String) -> FeatureCacheError {
        .parse("field '\(field.name)' (\(field.type)) expects \(expected), got \(got)")
    }
}
