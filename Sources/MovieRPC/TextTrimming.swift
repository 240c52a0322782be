extension StringProtocol {
    /// The text without white space (Unicode's White_Space, line breaks included) at either end: Foundation's
    /// `trimmingCharacters(in:)`, which FoundationEssentials (the only Foundation the modules link) lacks.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
