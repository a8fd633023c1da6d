// SPDX-License-Identifier: Apache-2.0
/// Numbers as JSON text: integral values without a fraction ("30", not "30.0"),
/// others in Swift's shortest round-trip form. Callers decide what to write for
/// NaN and infinities, which JSON cannot hold.
enum JSONNumberText {
    static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
