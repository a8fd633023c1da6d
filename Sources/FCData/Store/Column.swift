// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// How a column's values are laid out in memory.
public enum ColumnKind: Sendable {
    /// Integers, object ids and dates (epoch milliseconds).
    case int64
    /// Single and double precision numbers.
    case double
    /// UTF-8 text (strings, GUIDs, date-only, time-only, timestamp-with-offset as
    /// ISO 8601, nested JSON as its text); each value is followed by a NUL so C can
    /// borrow it as a C string.
    case string
    /// true/false, stored as 0/1 in the int64 layout.
    case boolean

    /// The storage kind of a service field type.
    public init(_ type: FieldType) {
        switch type {
        case .oid, .smallInteger, .integer, .bigInteger, .date: self = .int64
        case .single, .double: self = .double
        case .boolean: self = .boolean
        default: self = .string
        }
    }
}

/// One immutable column of a batch: typed values plus a validity bitmap (absent
/// when no value is NULL).
public struct Column: Sendable {
    public let field: FieldInfo
    public let kind: ColumnKind
    package let integers: ColumnBuffer<Int64>
    package let doubles: ColumnBuffer<Double>
    /// String values: value `i` is `bytes[offsets[i] ..< offsets[i+1] - 1]`, NUL at `offsets[i+1] - 1`.
    package let offsets: ColumnBuffer<UInt32>
    package let bytes: FrozenBytes?
    package let validity: Bitmap?

    package init(
        field: FieldInfo, kind: ColumnKind, integers: ColumnBuffer<Int64> = .init(), doubles: ColumnBuffer<Double> = .init(),
        offsets: ColumnBuffer<UInt32> = .init(), bytes: FrozenBytes? = nil, validity: Bitmap?
    ) {
        self.field = field
        self.kind = kind
        self.integers = integers
        self.doubles = doubles
        self.offsets = offsets
        self.bytes = bytes
        self.validity = validity
    }

    @inline(__always)
    public func isNull(_ row: Int) -> Bool { validity.map { !$0[row] } ?? false }

    @inline(__always)
    public func int64(_ row: Int) -> Int64 { integers[row] }

    @inline(__always)
    public func double(_ row: Int) -> Double { kind == .double ? doubles[row] : Double(integers[row]) }

    /// The UTF-8 bytes of a string value, without its NUL; valid while the column lives.
    @inline(__always)
    public func stringBytes(_ row: Int) -> UnsafeRawBufferPointer {
        bytes![Int(offsets[row])..<Int(offsets[row + 1]) - 1]
    }

    /// A pointer to the NUL-terminated value, valid while the column lives.
    public func cString(_ row: Int) -> UnsafePointer<CChar> {
        (bytes!.base + Int(offsets[row])).assumingMemoryBound(to: CChar.self)
    }

    public func string(_ row: Int) -> String {
        String(decoding: stringBytes(row), as: UTF8.self)
    }

    package func prefix(_ n: Int) -> Column {
        Column(
            field: field, kind: kind, integers: integers.first(n), doubles: doubles.first(n),
            offsets: offsets.first(n + 1), bytes: bytes, validity: validity?.prefix(n))
    }

    /// Heap bytes held by the values and bitmap.
    public var byteSize: Int {
        integers.byteSize + doubles.byteSize + offsets.byteSize + (bytes?.count ?? 0) + (validity?.byteSize ?? 0)
    }
}

extension Column {
    /// The value of one row, as an attribute value (NULL when null).
    package func value(_ row: Int) -> AttributeValue {
        if isNull(row) { return .null }
        switch kind {
        case .int64: return .integer(int64(row))
        case .double: return .double(double(row))
        case .boolean: return .boolean(int64(row) != 0)
        case .string: return .text(string(row))
        }
    }
}
