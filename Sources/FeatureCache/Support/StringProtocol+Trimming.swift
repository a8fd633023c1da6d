/// FoundationEssentials is not used, so the one piece of string trimming the
/// readers need is here.
extension StringProtocol {
    package func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        guard let first = firstIndex(where: { !characters.contains($0) }) else { return "" }
        let last = lastIndex(where: { !characters.contains($0) })!
        return String(self[first...last])
    }
}
