// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

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
        guard parts.count == 6, parts[5] == "GMT", (1...2).contains(parts[1].count), parts[3].count == 4, let day = Int(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...DateText.daysInMonth(year, month + 1)).contains(day), clock[0] < 24, clock[1] < 60, clock[2] < 61
        else { return nil }
        let days = Int64(DateText.daysFromCivil(year, month + 1, day))
        return ((days * 24 + Int64(clock[0])) * 60 + Int64(clock[1])) * 60_000 + Int64(clock[2]) * 1000
    }
}
