// SPDX-License-Identifier: Apache-2.0
/// Numbers as JSON text: integral values without a fraction ("30", not "30.0"),
/// others in Swift's shortest round-trip form. Callers decide what to write for
/// NaN and infinities, which JSON cannot hold.
package enum JSONNumberText {
    package static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// Strings as JSON text: quoted, with `"`, `\` and control characters escaped.
package enum JSONStringText {
    /// `value` as a JSON string literal (quotes and escapes included).
    package static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        var copy = value
        copy.withUTF8 { append(UnsafeRawBufferPointer($0), to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 `value` to `bytes` as a JSON string literal.
    package static func append(_ value: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for (index, byte) in value.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            bytes += value[runStart..<index]
            switch byte {
            case 0x22: bytes += #"\""#.utf8
            case 0x5C: bytes += #"\\"#.utf8
            case 0x0A: bytes += #"\n"#.utf8
            case 0x0D: bytes += #"\r"#.utf8
            case 0x09: bytes += #"\t"#.utf8
            default:
                let hex = Array("0123456789abcdef".utf8)
                bytes += #"\u00"#.utf8
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 15)])
            }
            runStart = index + 1
        }
        bytes += value[runStart...]
        bytes.append(UInt8(ascii: "\""))
    }
}
