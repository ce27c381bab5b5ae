extension Int {
    /// The number with its noun, singular for one: `1 transaction`,
    /// `3 transactions`; `plural` for nouns that take more than an `s`.
    public func counted(_ noun: String, plural: String? = nil) -> String {
        "\(self) \(self == 1 ? noun : plural ?? noun + "s")"
    }
}
