// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Writes one column of one record batch in its Arrow layout: the store's own
/// buffers where the layouts agree and the part takes the whole batch, new
/// `ArrowBuffer`s otherwise (see `ArrowExport` for which are which).
package struct ArrowColumnWriter {
    package let batch: FeatureBatch
    package let rows: ArrowRows
    package let length: Int

    package init(batch: FeatureBatch, rows: [UInt32]?, length: Int) {
        self.batch = batch
        self.rows = ArrowRows(rows, length)
        self.length = length
    }

    // MARK: - Columns

    package func objectIds() -> ArrowColumnData {
        let values = batch.objectIdColumn.map { batch.columns[$0].integers } ?? batch.objectIds
        var owners: [AnyObject] = [batch]
        let pointer = fixedWidth(values, &owners)
        return ArrowColumnData(length: length, nullCount: 0, buffers: [nil, pointer], owners: owners)
    }

    /// A field's column as `type` (chosen by `ArrowColumnPlanner` to hold every
    /// value); nil = the batch lacks the field, every value NULL.
    package func values(_ column: Column?, as type: ArrowType) throws(FeatureCacheError) -> ArrowColumnData {
        guard let column else { return allNull(type) }
        var owners: [AnyObject] = [batch]
        let (validity, nullCount) = self.validity(column, &owners)
        var buffers: [UnsafeRawPointer?] = [validity]
        switch (type, column.kind) {
        case (.int64, .int64), (.int64, .boolean), (.timestampMilliseconds, .int64):
            buffers.append(fixedWidth(column.integers, &owners))
        case (.float64, .double):
            buffers.append(fixedWidth(column.doubles, &owners))
        case (.int16, _): buffers.append(converted(Int16.self, &owners) { Int16(truncatingIfNeeded: column.integers[$0]) })
        case (.int32, _): buffers.append(converted(Int32.self, &owners) { Int32(truncatingIfNeeded: column.integers[$0]) })
        case (.int64, _), (.timestampMilliseconds, _):
            buffers.append(converted(Int64.self, &owners) { column.isNull($0) ? 0 : Int64(column.double($0)) })
        case (.float64, _): buffers.append(converted(Double.self, &owners) { column.double($0) })
        case (.float32, _): buffers.append(converted(Float.self, &owners) { Float(column.double($0)) })
        case (.date32, _):
            buffers.append(converted(Int32.self, &owners) { column.isNull($0) ? 0 : DateText.epochDays(column.stringBytes($0)) ?? 0 })
        case (.boolean, _): buffers.append(packedBooleans(column, &owners))
        case (.utf8, .string): buffers += try strings(column, &owners)
        case (.utf8, _): buffers += try texts(column, &owners)
        case (.wkb, _): throw FeatureCacheError(.invalidArgument, "field '\(column.field.name)' is not a geometry")
        }
        return ArrowColumnData(length: length, nullCount: nullCount, buffers: buffers, owners: owners)
    }

    /// The geometry as WKB: a NULL for a row without geometry (empty WKB is not
    /// a geometry any reader accepts).
    package func geometry() throws(FeatureCacheError) -> ArrowColumnData {
        let geometry = batch.geometry
        var owners: [AnyObject] = [batch]
        if rows.rows == nil, let stored = geometry.offsets {
            guard Int(stored[length]) <= Int(Int32.max) else { throw tooLarge("geometry") }
            var empty = 0
            stored.withUnsafeBufferPointer { for row in 0..<length where $0[row] == $0[row + 1] { empty += 1 } }
            let validity = empty == 0 ? nil : bitmap(&owners) { stored[$0] != stored[$0 + 1] }
            return ArrowColumnData(
                length: length, nullCount: empty,
                buffers: [validity, stored.frozenAddress, UnsafeRawPointer(geometry.bytes.base)], owners: owners)
        }
        if rows.rows == nil {
            // Points only: every row is 21 bytes, the offsets are implied.
            guard length * GeometryColumn.pointSize <= Int(Int32.max) else { throw tooLarge("geometry") }
            let offsets = ArrowBuffer(byteCount: (length + 1) * 4)
            let out = offsets.typed(Int32.self)
            for index in 0...length { out[index] = Int32(index * GeometryColumn.pointSize) }
            owners.append(offsets)
            return ArrowColumnData(
                length: length, nullCount: 0,
                buffers: [nil, UnsafeRawPointer(offsets.base), UnsafeRawPointer(geometry.bytes.base)], owners: owners)
        }
        var total = 0, empty = 0
        rows.forEach { row in
            let size = geometry.wkb(row).count
            total += size
            if size == 0 { empty += 1 }
        }
        guard total <= Int(Int32.max) else { throw tooLarge("geometry") }
        let (offsets, data) = (ArrowBuffer(byteCount: (length + 1) * 4), ArrowBuffer(byteCount: total))
        owners += [offsets, data]
        let out = offsets.typed(Int32.self)
        var at = 0, index = 0
        rows.forEach { row in
            let wkb = geometry.wkb(row)
            if let source = wkb.baseAddress, !wkb.isEmpty { (data.base + at).copyMemory(from: source, byteCount: wkb.count) }
            out[index] = Int32(at)
            at += wkb.count
            index += 1
        }
        out[length] = Int32(at)
        var validity: UnsafeRawPointer? = nil
        if empty > 0 {
            var selected: [Int] = []
            selected.reserveCapacity(length)
            rows.forEach { selected.append($0) }
            validity = bitmap(&owners) { geometry.wkb(selected[$0]).count > 0 }
        }
        return ArrowColumnData(
            length: length, nullCount: empty,
            buffers: [validity, UnsafeRawPointer(offsets.base), UnsafeRawPointer(data.base)], owners: owners)
    }

    // MARK: - Buffers

    /// The validity bitmap of the selected rows and its NULL count; nil when none is NULL.
    private func validity(_ column: Column, _ owners: inout [AnyObject]) -> (UnsafeRawPointer?, Int) {
        guard let stored = column.validity else { return (nil, 0) }
        if rows.rows == nil, stored.count == length {
            // The store's bitmap is Arrow's: LSB-first 64-bit words, little-endian.
            return (stored.words.frozenAddress, length - stored.setCount)
        }
        var valid = 0
        var index = 0
        let buffer = ArrowBuffer(byteCount: (length + 7) / 8)
        let bits = buffer.typed(UInt8.self)
        rows.forEach { row in
            if stored[row] {
                bits[index >> 3] |= 1 << UInt8(index & 7)
                valid += 1
            }
            index += 1
        }
        guard valid < length else { return (nil, 0) }
        owners.append(buffer)
        return (UnsafeRawPointer(buffer.base), length - valid)
    }

    /// A fixed-width buffer: the store's own when the part takes the whole batch, else gathered.
    private func fixedWidth<T: BitwiseCopyable>(_ values: ColumnBuffer<T>, _ owners: inout [AnyObject]) -> UnsafeRawPointer {
        guard let selected = rows.rows else { return values.frozenAddress }
        let buffer = ArrowBuffer(byteCount: length * MemoryLayout<T>.stride)
        let out = buffer.typed(T.self)
        values.withUnsafeBufferPointer { source in
            selected.withUnsafeBufferPointer { for (index, row) in $0.enumerated() { out[index] = source[Int(row)] } }
        }
        owners.append(buffer)
        return UnsafeRawPointer(buffer.base)
    }

    /// A new fixed-width buffer of `value(row)` for the selected rows.
    private func converted<T: BitwiseCopyable>(_: T.Type, _ owners: inout [AnyObject], _ value: (Int) -> T) -> UnsafeRawPointer {
        let buffer = ArrowBuffer(byteCount: length * MemoryLayout<T>.stride)
        let out = buffer.typed(T.self)
        var index = 0
        rows.forEach { row in
            out[index] = value(row)
            index += 1
        }
        owners.append(buffer)
        return UnsafeRawPointer(buffer.base)
    }

    /// A new bitmap, bit `index` = `isSet(index)` (index counts the part's rows).
    private func bitmap(_ owners: inout [AnyObject], _ isSet: (Int) -> Bool) -> UnsafeRawPointer {
        let buffer = ArrowBuffer(byteCount: (length + 7) / 8)
        let bits = buffer.typed(UInt8.self)
        for index in 0..<length where isSet(index) { bits[index >> 3] |= 1 << UInt8(index & 7) }
        owners.append(buffer)
        return UnsafeRawPointer(buffer.base)
    }

    private func packedBooleans(_ column: Column, _ owners: inout [AnyObject]) -> UnsafeRawPointer {
        let buffer = ArrowBuffer(byteCount: (length + 7) / 8)
        let bits = buffer.typed(UInt8.self)
        var index = 0
        rows.forEach { row in
            if column.kind == .double ? column.doubles[row] != 0 : column.integers[row] != 0 {
                bits[index >> 3] |= 1 << UInt8(index & 7)
            }
            index += 1
        }
        owners.append(buffer)
        return UnsafeRawPointer(buffer.base)
    }

    /// Text values back to back with 32-bit offsets (the store ends each with a NUL).
    private func strings(_ column: Column, _ owners: inout [AnyObject]) throws(FeatureCacheError) -> [UnsafeRawPointer?] {
        var total = 0
        if rows.rows == nil {
            total = Int(column.offsets[length]) - length  // every value, NULLs too, has its NUL
        } else {
            column.offsets.withUnsafeBufferPointer { offsets in
                rows.forEach { total += Int(offsets[$0 + 1] - offsets[$0]) - 1 }
            }
        }
        guard total <= Int(Int32.max) else { throw tooLarge(column.field.name) }
        let (offsets, data) = (ArrowBuffer(byteCount: (length + 1) * 4), ArrowBuffer(byteCount: total))
        owners += [offsets, data]
        let out = offsets.typed(Int32.self)
        let base = column.bytes!.base
        var at = 0, index = 0
        column.offsets.withUnsafeBufferPointer { stored in
            rows.forEach { row in
                let start = Int(stored[row]), size = Int(stored[row + 1]) - start - 1
                (data.base + at).copyMemory(from: base + start, byteCount: size)
                out[index] = Int32(at)
                at += size
                index += 1
            }
        }
        out[length] = Int32(at)
        return [UnsafeRawPointer(offsets.base), UnsafeRawPointer(data.base)]
    }

    /// Numbers and booleans written as text (a column whose pages disagree on its type).
    private func texts(_ column: Column, _ owners: inout [AnyObject]) throws(FeatureCacheError) -> [UnsafeRawPointer?] {
        var values: [String] = []
        values.reserveCapacity(length)
        rows.forEach { row in
            guard !column.isNull(row) else { return values.append("") }
            switch column.kind {
            case .int64: values.append(String(column.integers[row]))
            case .boolean: values.append(column.integers[row] != 0 ? "true" : "false")
            case .double: values.append(JSONNumberText.shortest(column.doubles[row]))
            case .string: values.append(column.string(row))
            }
        }
        let total = values.reduce(0) { $0 + $1.utf8.count }
        guard total <= Int(Int32.max) else { throw tooLarge(column.field.name) }
        let (offsets, data) = (ArrowBuffer(byteCount: (length + 1) * 4), ArrowBuffer(byteCount: total))
        owners += [offsets, data]
        let out = offsets.typed(Int32.self)
        var at = 0
        for (index, value) in values.enumerated() {
            out[index] = Int32(at)
            for byte in value.utf8 { data.base.storeBytes(of: byte, toByteOffset: at, as: UInt8.self); at += 1 }
        }
        out[length] = Int32(at)
        return [UnsafeRawPointer(offsets.base), UnsafeRawPointer(data.base)]
    }

    /// A column the batch lacks: every value NULL, zero-filled buffers of the type's layout.
    package func allNull(_ type: ArrowType) -> ArrowColumnData {
        let validity = ArrowBuffer(byteCount: (length + 7) / 8)
        var owners: [AnyObject] = [validity]
        var buffers: [UnsafeRawPointer?] = [UnsafeRawPointer(validity.base)]
        let width: Int
        switch type {
        case .int16: width = 2
        case .int32, .float32, .date32: width = 4
        case .int64, .float64, .timestampMilliseconds: width = 8
        case .boolean: width = 0
        case .utf8, .wkb:
            let offsets = ArrowBuffer(byteCount: (length + 1) * 4)
            owners.append(offsets)
            buffers += [UnsafeRawPointer(offsets.base), arrowZeros]
            return ArrowColumnData(length: length, nullCount: length, buffers: buffers, owners: owners)
        }
        let values = ArrowBuffer(byteCount: width == 0 ? (length + 7) / 8 : length * width)
        owners.append(values)
        buffers.append(UnsafeRawPointer(values.base))
        return ArrowColumnData(length: length, nullCount: length, buffers: buffers, owners: owners)
    }

    private func tooLarge(_ what: String) -> FeatureCacheError {
        FeatureCacheError(.limit, "the \(what) column of one record batch holds more than 2 GiB, Arrow's limit for 32-bit offsets")
    }
}
