// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The double nearest to a decimal `significand × 10^exponent` (ties to even), by
/// the Eisel–Lemire algorithm: multiply the significand, normalized, by a 128-bit
/// approximation of 5^exponent (PowersOfFive.swift) and read the double's 53 bits
/// off the top of the product. For an exact significand of up to 19 digits the
/// 128-bit product always decides the rounding (Mushtak and Lemire, "Fast number
/// parsing without fallback", 2023), so 17-digit coordinates, common in real
/// ArcGIS output, never reach strtod.
///
/// nil where this path does not answer and strtod must: subnormal results and
/// exponents outside -342...308 (whose doubles are 0 or infinite), and overflow.
/// `significand` 0 gives 0. The sign is the caller's.
@inline(__always)
package func decimalToDouble(significand: UInt64, exponent: Int) -> Double? {
    if significand == 0 { return 0 }
    guard exponent >= powersOfFiveSmallestExponent, exponent <= powersOfFiveLargestExponent else { return nil }
    let leadingZeros = significand.leadingZeroBitCount
    let normalized = significand << leadingZeros
    let index = 2 * (exponent - powersOfFiveSmallestExponent)
    var (high, low) = normalized.multipliedFullWidth(by: powersOfFive128[index])
    // The 9 bits below the 55 kept are all ones: the truncated table word may
    // have hidden a carry into them, so add the next 64 bits of 5^q.
    if high & 0x1FF == 0x1FF {
        let next = normalized.multipliedFullWidth(by: powersOfFive128[index + 1]).high
        let (sum, carry) = low.addingReportingOverflow(next)
        low = sum
        if carry { high &+= 1 }
    }
    let upperBit = Int(high >> 63)
    let shift = upperBit + 9  // keep 54 bits: 53 and one to round
    var mantissa = high >> shift
    // floor(log2(10^exponent)) + 63, the product's binary exponent, biased.
    var biasedExponent = ((217_706 * exponent) >> 16) + 63 + upperBit - leadingZeros + 1023
    guard biasedExponent > 0 else { return nil }  // subnormal
    // Exactly halfway between two doubles (only possible while 5^exponent fits
    // 64 bits): round to even rather than up.
    if low <= 1, exponent >= -4, exponent <= 23, mantissa & 3 == 1, mantissa << shift == high {
        mantissa &= ~1
    }
    mantissa += mantissa & 1
    mantissa >>= 1
    if mantissa >= 1 << 53 {  // rounding carried into a new bit
        mantissa = 1 << 52
        biasedExponent += 1
    }
    guard biasedExponent < 0x7FF else { return nil }  // overflow
    return Double(bitPattern: UInt64(biasedExponent) << 52 | (mantissa & ~(1 << 52)))
}

/// 10^0 … 10^22, the powers of ten a double holds exactly: an integer of up to
/// 2^53 divided or multiplied by one is the decimal's nearest double (Clinger's
/// fast path; the PBF reader's decimal grids).
package let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]
