// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct JSONScannerTests {
    private func parse(_ text: String) throws(FeatureCacheError) -> JSONValue {
        try JSONValue.parse(Array(text.utf8))
    }

    @Test(arguments: [
        ("0", 0.0), ("-0.5", -0.5), ("1e3", 1000.0), ("1E-3", 0.001), ("123.456e+2", 12345.6),
        ("-122.7391839999999", -122.7391839999999), ("45.5", 45.5), ("2.2250738585072014e-308", 2.2250738585072014e-308),
        ("1.7976931348623157e308", 1.7976931348623157e308), ("0.1", 0.1), ("9007199254740993", 9007199254740992.0),
        ("12345678901234567890123", 1.2345678901234568e22),
        ("0.000000000000000000001234", 1.234e-21), ("9999999999999999999", 1e19), ("-9223372036854775809", -9223372036854775809.0),
        ("100000000000000000000.5", 1e20), ("-118.26612584395593", -118.26612584395593), ("3.14159265358979323846", 3.141592653589793),
    ])
    func numbersMatchTheCLibrary(text: String, expected: Double) throws {
        let value = try parse(text)
        #expect(value.double == expected)
        #expect(value.double == strtod(text, nil))
    }

    @Test func integersStayExact() throws {
        #expect(try parse("9223372036854775807").int == Int64.max)
        #expect(try parse("-9223372036854775808").int == Int64.min)
        #expect(try parse("1609459200000").int == 1_609_459_200_000)
        #expect(try parse("4.0").int == 4)
        #expect(try parse("4.5").int == nil)
    }

    @Test func fastPathAgreesWithStrtodOnManyDecimals() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let integer = Int.random(in: -200...200, using: &generator)
            let fraction = Int.random(in: 0..<10_000_000, using: &generator)
            let text = "\(integer).\(String(fraction).leftPadded(to: 7))"
            #expect(try parse(text).double == strtod(text, nil), "\(text)")
        }
    }

    @Test func stringsDecodeEscapesAndUnicode() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t""#).string == "a\"b\\c/d\n\t")
        #expect(try parse(#""caf\u00e9 \u00D7 \ud83c\udf33""#).string == "café × 🌳")
        #expect(try parse("\"Magnolia × soulangeana\"").string == "Magnolia × soulangeana")
        #expect(try parse(#""lone \ud800 surrogate""#).string == "lone \u{FFFD} surrogate")
        #expect(try parse(#"{"k\u0065y": 1}"#)["key"]?.int == 1)
    }

    @Test func documentsKeepTheirShape() throws {
        let value = try parse(#" {"a": [1, true, null, {"b": "c"}], "d": {}} "#)
        #expect(value["a"]?.array?.count == 4)
        #expect(value["a"]?.array?[1].bool == true)
        #expect(value["a"]?.array?[2].isNull == true)
        #expect(value["a"]?.array?[3]["b"]?.string == "c")
        #expect(value["d"] == .object([]))
        #expect(try parse("[]") == .array([]))
    }

    @Test(arguments: [
        ("{\"a\":1,}", "expected a member name"), ("[1,]", "expected a value"), ("[1 2]", "expected ',' or ']'"),
        ("{\"a\" 1}", "expected ':'"), ("01", "leading zeros"), ("NaN", "NaN and Infinity"), ("-Infinity", "NaN and Infinity"),
        ("1.", "expected a digit after '.'"), ("1e", "expected a digit in the exponent"), ("\"abc", "unterminated string"),
        ("\"a\u{01}b\"", "control character"), ("\"\\x\"", "invalid escape"), ("tru", "invalid literal"),
        ("[1] x", "after the JSON document"),
        ("", "expected a value"), ("{\"a\":[1,2", "unterminated array"), ("\"\\u12G4\"", "invalid hex digit"),
    ])
    func malformedDocumentsFailWithAByteOffset(text: String, expected: String) {
        do {
            _ = try parse(text)
            Issue.record("'\(text)' parsed")
        } catch {
            #expect(error.code == .parse)
            #expect(error.message.contains(expected), "\(error.message)")
            #expect(error.message.contains("at byte"), "\(error.message)")
        }
    }

    @Test func nestingDepthIsLimited() {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: FeatureCacheError.self) { try JSONValue.parse(Array(deep.utf8), maxDepth: 128) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try JSONValue.parse(Array(fine.utf8), maxDepth: 128) }
    }

    @Test func scannerComparesKeysWithoutAllocating() throws {
        let text = Array(#"{"features": [{"attributes": {"OBJECTID": 7}}], "exceededTransferLimit": true}"#.utf8)
        var found: (Int64, Bool) = (0, false)
        try text.withUnsafeBytes { bytes in
            var scanner = JSONScanner(bytes)
            try scanner.beginObject()
            while try scanner.nextKey() {
                if scanner.keyEquals("features") {
                    try scanner.beginArray()
                    while try scanner.nextElement() {
                        try scanner.beginObject()
                        while try scanner.nextKey() {
                            try scanner.beginObject()
                            while try scanner.nextKey() { found.0 = try scanner.readInt64() }
                        }
                    }
                } else if scanner.keyEquals("exceededTransferLimit") {
                    found.1 = try scanner.readBool()
                } else {
                    try scanner.skipValue()
                }
            }
            try scanner.finish()
        }
        #expect(found.0 == 7 && found.1)
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
