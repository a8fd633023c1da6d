// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// Dates written as text where services should send epoch milliseconds: ISO 8601
/// (`2005-12-23`, `2005-12-23T13:45:00.5Z`, `…+01:00`) and the US form older
/// ArcGIS servers write (`12/23/2005 1:05:00 PM`). Times without a zone are UTC.
package enum DateText {
    /// The current time in epoch milliseconds (UTC).
    package static var now: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    package static func epochMilliseconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var iso = Parser(bytes)
        if let milliseconds = iso.iso() { return milliseconds }
        var us = Parser(bytes)
        return us.us()
    }

    /// Days since 1970-01-01 of a date-only value written "YYYY-MM-DD" (nothing
    /// before or after it); nil for any other text or an impossible date.
    package static func epochDays(_ text: UnsafeRawBufferPointer) -> Int32? {
        guard text.count == 10, text[4] == 45, text[7] == 45 else { return nil }
        func number(_ from: Int, _ to: Int) -> Int? {
            var value = 0
            for index in from..<to {
                let digit = text[index] &- 48
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 7), let day = number(8, 10) else { return nil }
        guard (1...12).contains(month), (1...daysInMonth(year, month)).contains(day) else { return nil }
        return Int32(daysFromCivil(year, month, day))
    }

    package static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// "YYYY-MM-DD" of an instant (UTC).
    package static func isoDate(_ milliseconds: Int64) -> String {
        let c = CivilTime(milliseconds)
        return "\(c.year)-\(twoDigits(c.month))-\(twoDigits(c.day))"
    }

    /// "YYYY-MM-DDThh:mm:ssZ" of an instant, or with another date/time separator and zone suffix.
    package static func isoTimestamp(_ milliseconds: Int64, separator: String = "T", zone: String = "Z") -> String {
        let c = CivilTime(milliseconds)
        return isoDate(milliseconds) + separator + "\(twoDigits(c.hour)):\(twoDigits(c.minute)):\(twoDigits(c.second))" + zone
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    private struct Parser {
        let bytes: [UInt8]
        var at = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func number(maxDigits: Int) -> Int? {
            var value = 0, digits = 0
            while at < bytes.count, digits < maxDigits, bytes[at] &- 48 < 10 {
                value = value * 10 + Int(bytes[at] - 48)
                at += 1; digits += 1
            }
            return digits == 0 ? nil : value
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        static func valid(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) -> Bool {
            (1...12).contains(mo) && (1...31).contains(d) && h < 24 && mi < 60 && s < 61 && y > 0
        }

        static func millis(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, _ ms: Int) -> Int64 {
            Int64(daysFromCivil(y, mo, d)) * 86_400_000 + Int64(h * 3_600_000 + mi * 60_000 + s * 1000 + ms)
        }

        mutating func iso() -> Int64? {
            guard let y = number(maxDigits: 4), take(45), let mo = number(maxDigits: 2), take(45),
                let d = number(maxDigits: 2)
            else { return nil }
            var h = 0, mi = 0, s = 0, ms = 0, offset = 0
            if take(84) || take(32) {  // 'T' or ' '
                guard let hh = number(maxDigits: 2), take(58), let mm = number(maxDigits: 2) else { return nil }
                h = hh; mi = mm
                if take(58) { guard let ss = number(maxDigits: 2) else { return nil }; s = ss }
                if take(46) {
                    let start = at
                    guard let fraction = number(maxDigits: 9) else { return nil }
                    let digits = at - start
                    ms = digits >= 3 ? fraction / Int(pow10(digits - 3)) : fraction * Int(pow10(3 - digits))
                }
                if take(90) {  // 'Z'
                } else if at < bytes.count, bytes[at] == 43 || bytes[at] == 45 {
                    let sign = bytes[at] == 45 ? -1 : 1
                    at += 1
                    guard let oh = number(maxDigits: 2) else { return nil }
                    _ = take(58)
                    let om = number(maxDigits: 2) ?? 0
                    offset = sign * (oh * 60 + om)
                }
            }
            guard at == bytes.count, Self.valid(y, mo, d, h, mi, s) else { return nil }
            return Self.millis(y, mo, d, h, mi, s, ms) - Int64(offset) * 60_000
        }

        mutating func us() -> Int64? {
            guard let mo = number(maxDigits: 2), take(47), let d = number(maxDigits: 2), take(47),
                let y = number(maxDigits: 4)
            else { return nil }
            var h = 0, mi = 0, s = 0
            if take(32) {
                guard let hh = number(maxDigits: 2), take(58), let mm = number(maxDigits: 2) else { return nil }
                h = hh; mi = mm
                if take(58) { guard let ss = number(maxDigits: 2) else { return nil }; s = ss }
                _ = take(32)
                if at + 2 == bytes.count {
                    let marker = (bytes[at] | 0x20, bytes[at + 1] | 0x20)
                    guard marker.1 == 109, h >= 1, h <= 12 else { return nil }  // "am"/"pm"
                    if marker.0 == 112 { h = h % 12 + 12 } else if marker.0 == 97 { h = h % 12 } else { return nil }
                    at += 2
                }
            }
            guard at == bytes.count, Self.valid(y, mo, d, h, mi, s) else { return nil }
            return Self.millis(y, mo, d, h, mi, s, 0)
        }

        private func pow10(_ n: Int) -> Int64 { (0..<n).reduce(1) { r, _ in r * 10 } }
    }
}

/// A UTC instant split into calendar fields.
package struct CivilTime {
    package var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0

    package init(_ milliseconds: Int64) {
        var days = Int(milliseconds / 86_400_000)
        var rest = Int(milliseconds % 86_400_000)
        if rest < 0 { rest += 86_400_000; days -= 1 }
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        hour = rest / 3_600_000
        minute = rest / 60_000 % 60
        second = rest / 1000 % 60
    }
}
