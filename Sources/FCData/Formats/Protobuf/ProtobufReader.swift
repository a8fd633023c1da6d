// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A cursor over protocol-buffer wire-format bytes (no schema, no code
/// generator): tags, varints, zig-zag integers, fixed 32/64-bit values and
/// length-delimited fields, each checked against the end of its message.
/// Every malformed input is an FC_E_PARSE naming the byte offset: a varint
/// longer than 10 bytes or cut short, a length past the end of its message,
/// a field number of 0, a wire type that does not exist or is not the one
/// the schema gives the field. Unknown fields are skipped by their wire type.
package struct ProtobufReader {
    package enum WireType: UInt8 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    /// The whole buffer; offsets in errors are into it.
    private let bytes: UnsafeRawBufferPointer
    package private(set) var offset: Int
    /// The end of the message being read.
    package let end: Int

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        offset = 0
        end = bytes.count
    }

    private init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) {
        self.bytes = bytes
        offset = range.lowerBound
        end = range.upperBound
    }

    package var isAtEnd: Bool { offset >= end }

    package func error(_ message: String, at position: Int? = nil) -> FeatureCacheError {
        .parse("PBF: \(message) at byte \(position ?? offset)")
    }

    // MARK: - Fields

    /// The next field's number and wire type, nil at the end of the message.
    @inline(__always)
    package mutating func nextField() throws(FeatureCacheError) -> (number: Int, type: WireType)? {
        guard offset < end else { return nil }
        let start = offset
        let tag = try readVarint()
        guard let type = WireType(rawValue: UInt8(tag & 7)) else {
            throw error(
                "wire type \(tag & 7) (\(tag & 7 == 3 || tag & 7 == 4 ? "groups are not used by this format" : "no such type"))", at: start)
        }
        let number = tag >> 3
        guard number >= 1, number <= 536_870_911 else { throw error("field number \(number)", at: start) }
        return (Int(number), type)
    }

    /// Fails unless the field just read has the wire type the schema gives it.
    @inline(__always)
    package func expect(_ type: WireType, _ actual: WireType, field: String) throws(FeatureCacheError) {
        guard type == actual else { throw error("\(field) has wire type \(actual.rawValue), expected \(type.rawValue)") }
    }

    /// Reads the rest of the message, calling `body` for each occurrence of
    /// field `number` (positioned at its value) and skipping every other field.
    @inline(__always)
    package mutating func forEach(
        field number: Int,
        _ body: (inout ProtobufReader, WireType) throws(FeatureCacheError) -> Void
    ) throws(FeatureCacheError) {
        while let (field, type) = try nextField() {
            if field == number { try body(&self, type) } else { try skip(type) }
        }
    }

    /// Skips the value of a field this reader does not use.
    package mutating func skip(_ type: WireType) throws(FeatureCacheError) {
        switch type {
        case .varint: _ = try readVarint()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        case .lengthDelimited: try advance(try readLength())
        }
    }

    // MARK: - Scalars

    @inline(__always)
    package mutating func readVarint() throws(FeatureCacheError) -> UInt64 {
        // One byte is most of them (tags, small lengths and deltas).
        if offset < end {
            let byte = bytes[offset]
            if byte < 0x80 {
                offset += 1
                return UInt64(byte)
            }
        }
        return try readLongVarint()
    }

    private mutating func readLongVarint() throws(FeatureCacheError) -> UInt64 {
        let start = offset
        if end - offset >= 8 {
            // Up to eight bytes at once (coordinates in PBF are mostly 4 to 8):
            // find the last byte from the continuation bits, then pack the
            // 7-bit groups together in three steps (pairs, quads, octets).
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let stops = ~word & 0x8080_8080_8080_8080
            if stops != 0 {
                let length = (stops.trailingZeroBitCount + 1) >> 3
                var x = (length == 8 ? word : word & ((1 << UInt64(8 * length)) - 1)) & 0x7F7F_7F7F_7F7F_7F7F
                x = ((x & 0x7F00_7F00_7F00_7F00) >> 1) | (x & 0x007F_007F_007F_007F)
                x = ((x & 0x3FFF_0000_3FFF_0000) >> 2) | (x & 0x0000_3FFF_0000_3FFF)
                x = ((x & 0x0FFF_FFFF_0000_0000) >> 4) | (x & 0x0000_0000_0FFF_FFFF)
                offset += length
                return x
            }
        }
        if end - offset >= 10 {
            // Room for the longest varint: no end check per byte.
            var value: UInt64 = 0
            var shift: UInt64 = 0
            for _ in 0..<10 {
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 {
                    guard shift < 63 || byte <= 1 else { break }
                    return value
                }
                shift += 7
            }
            throw error("a varint overflows 64 bits", at: start)
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end else { throw error("a varint is cut off", at: start) }
            let byte = bytes[offset]
            offset += 1
            // The tenth byte may carry only the top bit of 64.
            if shift == 63, byte > 1 { throw error("a varint overflows 64 bits", at: start) }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// sint32/sint64: zig-zag.
    @inline(__always)
    package mutating func readSignedVarint() throws(FeatureCacheError) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    package mutating func readBool() throws(FeatureCacheError) -> Bool { try readVarint() != 0 }

    @inline(__always)
    package mutating func readFixed64() throws(FeatureCacheError) -> UInt64 {
        guard end - offset >= 8 else { throw error("a 64-bit value is cut off") }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(littleEndian: value)
    }

    package mutating func readFixed32() throws(FeatureCacheError) -> UInt32 {
        guard end - offset >= 4 else { throw error("a 32-bit value is cut off") }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return UInt32(littleEndian: value)
    }

    package mutating func readDouble() throws(FeatureCacheError) -> Double { Double(bitPattern: try readFixed64()) }
    package mutating func readFloat() throws(FeatureCacheError) -> Float { Float(bitPattern: try readFixed32()) }

    // MARK: - Length-delimited

    /// A length prefix, checked against the end of the message.
    @inline(__always)
    package mutating func readLength() throws(FeatureCacheError) -> Int {
        let start = offset
        let length = try readVarint()
        guard length <= UInt64(end - offset) else {
            throw error("a length of \(length) bytes runs past the end of its message (\(end - offset) left)", at: start)
        }
        return Int(length)
    }

    /// The bytes of a length-delimited field, as a reader of their own.
    @inline(__always)
    package mutating func readMessage() throws(FeatureCacheError) -> ProtobufReader {
        let length = try readLength()
        defer { offset += length }
        return ProtobufReader(bytes, range: offset..<(offset + length))
    }

    /// A string field's bytes (not checked as UTF-8: the column builder stores bytes).
    @inline(__always)
    package mutating func readBytes() throws(FeatureCacheError) -> UnsafeRawBufferPointer {
        let length = try readLength()
        defer { offset += length }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
    }

    package mutating func readString() throws(FeatureCacheError) -> String {
        String(decoding: try readBytes(), as: UTF8.self)
    }

    /// Calls `element` for each value of a repeated scalar field, packed (one
    /// length-delimited run, proto3's default) or not (one value per field, which
    /// a parser must accept too).
    @inline(__always)
    package mutating func readRepeated(
        _ type: WireType, scalar: WireType, field: String,
        _ element: (inout ProtobufReader) throws(FeatureCacheError) -> Void
    ) throws(FeatureCacheError) {
        if type == .lengthDelimited {
            var run = try readMessage()
            while !run.isAtEnd { try element(&run) }
        } else {
            try expect(scalar, type, field: field)
            try element(&self)
        }
    }

    private mutating func advance(_ count: Int) throws(FeatureCacheError) {
        guard count <= end - offset else { throw error("a value of \(count) bytes runs past the end of its message") }
        offset += count
    }
}
