// SPDX-License-Identifier: Apache-2.0
/// FoundationEssentials is not used, so the few pieces of string editing the
/// library needs (trimming, replacing) are here.
extension StringProtocol {
    package func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        guard let first = firstIndex(where: { !characters.contains($0) }) else { return "" }
        let last = lastIndex(where: { !characters.contains($0) })!
        return String(self[first...last])
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
