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

/// The Eisel–Lemire path of the JSON number reader must give exactly the double
/// strtod gives (the C library rounds correctly), bit for bit, on every kind of
/// decimal: random significands over the whole exponent range, 17-digit
/// printings of random doubles, shortest printings, and exact ties.
@Suite struct DecimalToDoubleTests {
    private func readNumber(_ text: String) throws -> Double {
        try JSONValue.parse(Array(text.utf8)).double ?? .nan
    }

    /// The number as JSON reads it equals strtod's, bit for bit (so -0.0 too).
    private func expectAgreesWithStrtod(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = try readNumber(text)
        let theirs = strtod(text, nil)
        #expect(
            ours.bitPattern == theirs.bitPattern, "\(text): \(ours) vs strtod \(theirs)",
            sourceLocation: sourceLocation)
    }

    private func printed(_ value: Double, significantDigits: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.\(significantDigits - 1)e", $0) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func randomSignificandsOverTheWholeExponentRange() throws {
        var random = SeededRandom(seed: 1)
        for _ in 0..<60_000 {
            let digits = Int.random(in: 1...19, using: &random)
            var significand = String(UInt64.random(in: 1...9, using: &random))
            for _ in 1..<digits { significand += String(UInt64.random(in: 0...9, using: &random)) }
            let exponent = Int.random(in: -360...330, using: &random)
            try expectAgreesWithStrtod("\(significand)e\(exponent)")
            // The same digits with a decimal point inside them.
            let point = Int.random(in: 1...digits, using: &random)
            let text = significand.prefix(point) + "." + (point < digits ? significand.dropFirst(point) : "0")
            try expectAgreesWithStrtod("-\(text)e\(exponent)")
        }
    }

    @Test func seventeenDigitPrintingsOfRandomDoubles() throws {
        var random = SeededRandom(seed: 2)
        var checked = 0
        while checked < 40_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            try expectAgreesWithStrtod(printed(value, significantDigits: 17))
            try expectAgreesWithStrtod(printed(value, significantDigits: 16))
            // Swift's shortest printing reads back to the same double.
            let shortest = "\(value)"
            #expect(try readNumber(shortest).bitPattern == value.bitPattern, "\(shortest)")
            checked += 1
        }
    }

    @Test func coordinatesAsRealServersWriteThem() throws {
        var random = SeededRandom(seed: 3)
        for _ in 0..<20_000 {
            // Web Mercator metres and degrees, printed with 17 significant digits.
            try expectAgreesWithStrtod(printed(Double.random(in: -20_037_508...20_037_508, using: &random), significantDigits: 17))
            try expectAgreesWithStrtod(printed(Double.random(in: -180...180, using: &random), significantDigits: 17))
        }
        for text in [
            "-13627361.171700001", "5698871.0862999996", "-122.71640890000001", "45.574063699999998",
            "-0.000000000000000001", "0.30000000000000004",
        ] {
            try expectAgreesWithStrtod(text)
        }
    }

    /// Decimals exactly halfway between two doubles round to the even one.
    @Test func tiesRoundToEven() throws {
        var random = SeededRandom(seed: 4)
        for _ in 0..<20_000 {
            let odd = (UInt64.random(in: (1 << 53)..<(1 << 54), using: &random)) | 1  // 54 bits: a half-way point
            let shift = Int.random(in: -3...9, using: &random)
            if shift >= 0 {
                try expectAgreesWithStrtod(String(odd << UInt64(shift)))
            } else {
                // odd / 2^k = odd × 5^k / 10^k: at most 19 digits for k ≤ 3.
                var five: UInt64 = 1
                for _ in 0 ..< -shift { five *= 5 }
                try expectAgreesWithStrtod("\(odd * five)e\(shift)")
            }
        }
        try expectAgreesWithStrtod("9007199254740993")  // 2^53 + 1
        try expectAgreesWithStrtod("9007199254740995")
    }

    @Test(arguments: [
        "1e23", "8.98846567431158e307", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
        "1e-342", "1e-343", "1e308", "1e309", "0e0", "-0e0", "0.0e-400", "1e-400", "1e400", "9999999999999999999e-342",
        "18446744073709551615", "9223372036854775808", "-9223372036854775808", "7.2057594037927933e16",
    ])
    func edgesOfTheRange(text: String) throws {
        try expectAgreesWithStrtod(text)
    }

    /// Where the path does not answer (subnormals, overflow, outside the table),
    /// it says so, and the reader asks strtod.
    @Test func declinesSubnormalsAndOverflow() {
        #expect(decimalToDouble(significand: 49_406_564_584_124_654, exponent: -340) == nil)
        #expect(decimalToDouble(significand: 17_976_931_348_623_159, exponent: 292) == nil)
        #expect(decimalToDouble(significand: 1, exponent: -343) == nil)
        #expect(decimalToDouble(significand: 1, exponent: 309) == nil)
        #expect(decimalToDouble(significand: 0, exponent: 5000) == 0)
        #expect(decimalToDouble(significand: 17_976_931_348_623_157, exponent: 292) == 1.7976931348623157e308)
        #expect(decimalToDouble(significand: 1, exponent: -1) == 0.1)
    }
}
