import AuthCatEssentials

extension Vault {
    /// A key derived from the vault key for another component's own use
    /// (sealing that component's local state, say), so that it needs no key
    /// file of its own and is protected exactly as the vault is.
    ///
    /// - Parameter context: exactly 8 ASCII bytes naming the purpose; see `SubkeyDerivation`.
    public func derivedKey(context: String, id: UInt64 = 1) throws -> SecretBytes {
        try SubkeyDerivation.derive(from: key(), id: id, context: context)
    }
}
