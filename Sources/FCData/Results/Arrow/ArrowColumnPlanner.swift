// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Chooses the Arrow type of each result field: the one its service type names
/// (esriFieldTypeDate → timestamp[ms, UTC], DateOnly → date32, SmallInteger →
/// int16, Integer → int32, Single → float32…), widened where the result's own
/// values need it, so that nothing is ever cut or changed:
///  - pages of an inferred schema (GeoJSON) that disagree: integers on one page
///    and decimals on another → float64; text on any page → utf8;
///  - a small integer or integer field holding a value outside 16 or 32 bits
///    (servers send them) → the narrowest width that holds every value;
///  - date-only text that is not "YYYY-MM-DD" → utf8.
package struct ArrowColumnPlanner {
    package let result: FeatureResult

    package init(_ result: FeatureResult) { self.result = result }

    package func type(ofField field: Int) -> ArrowType {
        let declared = result.fields[field].type
        var kinds = Set<ColumnKind>()
        var stored: [(column: Column, rows: [UInt32]?, count: Int)] = []
        for part in result.parts {
            let mapped = Int(part.columnMap[field])
            guard mapped >= 0 else { continue }
            let column = part.batch.columns[mapped]
            kinds.insert(column.kind)
            stored.append((column, part.rows, part.count))
        }
        if kinds.count > 1 {
            return kinds.contains(.string) ? .utf8 : kinds.contains(.double) ? .float64 : .int64
        }
        switch kinds.first ?? ColumnKind(declared) {
        case .boolean: return .boolean
        case .double: return declared == .single ? .float32 : .float64
        case .string: return declared == .dateOnly && allDates(stored) ? .date32 : .utf8
        case .int64:
            switch declared {
            case .date: return .timestampMilliseconds
            case .smallInteger: return narrowest(stored, from: .int16)
            case .integer: return narrowest(stored, from: .int32)
            default: return .int64
            }
        }
    }

    /// Whether every selected value of an integer field is a double exactly
    /// (within ±2^53): a stream's float64 column can take it.
    package func integersAreExactDoubles(ofField field: Int) -> Bool {
        let limit: Int64 = 1 << 53
        for part in result.parts {
            let mapped = Int(part.columnMap[field])
            guard mapped >= 0 else { continue }
            let column = part.batch.columns[mapped]
            guard column.kind == .int64 else { return false }
            var exact = true
            column.integers.withUnsafeBufferPointer { values in
                ArrowRows(part.rows, part.count).forEach { row in
                    if exact, values[row] > limit || values[row] < -limit { exact = false }
                }
            }
            if !exact { return false }
        }
        return true
    }

    /// `type` if every selected value fits it, else the next wider integer type that holds them all.
    private func narrowest(_ stored: [(column: Column, rows: [UInt32]?, count: Int)], from type: ArrowType) -> ArrowType {
        var low = Int64.max, high = Int64.min
        for (column, rows, count) in stored {
            column.integers.withUnsafeBufferPointer { values in
                if let rows {
                    for row in rows { low = min(low, values[Int(row)]); high = max(high, values[Int(row)]) }
                } else {
                    for index in 0..<count { low = min(low, values[index]); high = max(high, values[index]) }
                }
            }
        }
        if type == .int16, low >= Int64(Int16.min), high <= Int64(Int16.max) { return .int16 }
        if low >= Int64(Int32.min), high <= Int64(Int32.max) { return .int32 }
        return .int64
    }

    /// Whether every selected non-NULL value is a "YYYY-MM-DD" date.
    private func allDates(_ stored: [(column: Column, rows: [UInt32]?, count: Int)]) -> Bool {
        for (column, rows, count) in stored {
            var valid = true
            ArrowRows(rows, count).forEach { row in
                if valid, !column.isNull(row), DateText.epochDays(column.stringBytes(row)) == nil { valid = false }
            }
            if !valid { return false }
        }
        return true
    }
}

/// The batch rows of one result part, in result order: all of them, or a selection.
package struct ArrowRows {
    package let rows: [UInt32]?
    package let count: Int

    package init(_ rows: [UInt32]?, _ count: Int) {
        self.rows = rows
        self.count = count
    }

    @inline(__always)
    package func forEach(_ body: (Int) -> Void) {
        if let rows {
            rows.withUnsafeBufferPointer { for row in $0 { body(Int(row)) } }
        } else {
            for row in 0..<count { body(row) }
        }
    }
}
