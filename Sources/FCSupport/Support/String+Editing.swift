// SPDX-License-Identifier: Apache-2.0
/// FoundationEssentials is not used, so the few pieces of string editing the
/// library needs (trimming, replacing) are here.
extension StringProtocol {
    /// The text without the leading and trailing scalars of `set`. Scalars, not
    /// Characters: "\r\n" is one Character, so a set " \t\r\n" of Characters
    /// would trim a CRLF but not a lone "\n".
    package func trimmingCharacters(in set: String) -> String {
        let scalars = Set(set.unicodeScalars)
        let view = unicodeScalars
        guard let first = view.firstIndex(where: { !scalars.contains($0) }) else { return "" }
        let last = view.lastIndex(where: { !scalars.contains($0) })!
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: view[first...last])
        return String(kept)
    }
}

extension String {
    /// Every occurrence of `target` replaced (FoundationEssentials-free).
    package func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
