extension Vault {
    /// Loads the vault key now, asking for the passphrase if one is set.
    ///
    /// Commands that change the passphrase call this first, so that a wrong
    /// current passphrase is reported before a new one is asked for; writes
    /// call it before their transaction, so no prompt ever holds the database lock.
    public func unlock() throws {
        _ = try key()
    }
}
