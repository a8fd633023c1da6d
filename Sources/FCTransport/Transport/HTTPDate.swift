// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The two ways HTTP headers write time: whole seconds (`delta-seconds`, as in
/// `max-age=60`, `Age`, `Retry-After: 120`) and dates (`Date`, `Expires`,
/// `Retry-After`), read in their preferred form, IMF-fixdate.
package enum HTTPDate {
    /// Non-negative whole seconds (`delta-seconds`), capped at 68 years as
    /// §1.2.2 allows; nil for anything else.
    package static func deltaSeconds(_ text: some StringProtocol) -> Int64? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return digits.count > 10 ? Int64(Int32.max) : min(Int64(text)!, Int64(Int32.max))
    }

    /// An HTTP date in its preferred form, IMF-fixdate (`Wed, 21 Oct 2015
    /// 07:28:00 GMT`), as epoch milliseconds; nil for any other text.
    package static func epochMilliseconds(_ text: String) -> Int64? {
        let parts = text.trimmingCharacters(in: " \t").split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT", let month = months.firstIndex(of: String(parts[2])) else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        // Digits only: no sign, no space, the widths the form has.
        guard let day = digits(parts[1], 1...2), let year = digits(parts[3], 4...4), clock.count == 3,
            let hour = digits(clock[0], 2...2), let minute = digits(clock[1], 2...2), let second = digits(clock[2], 2...2),
            (1...DateText.daysInMonth(year, month + 1)).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = Int64(DateText.daysFromCivil(year, month + 1, day))
        return ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60_000 + Int64(second) * 1000
    }

    private static func digits(_ text: Substring, _ widths: ClosedRange<Int>) -> Int? {
        guard widths.contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }
}
