import Foundation

extension Vault {
    /// Whether the vault key is wrapped by a passphrase.
    public func hasPassphrase() throws -> Bool {
        try VaultKeyFile.read(from: location.keyFileURL).protection == .passphrase
    }

    /// Wraps the vault key with `passphrase`; the key file is replaced atomically.
    public func setPassphrase(_ passphrase: SecretBytes, kdf: KDFParameters? = nil) throws {
        guard try !hasPassphrase() else { throw VaultError.passphraseAlreadySet }
        try rewrap(with: passphrase, kdf: kdf)
    }

    /// Re-wraps the vault key under a new passphrase; the current one is asked
    /// for through the vault's passphrase provider first.
    public func changePassphrase(to passphrase: SecretBytes, kdf: KDFParameters? = nil) throws {
        guard try hasPassphrase() else { throw VaultError.noPassphraseSet }
        try rewrap(with: passphrase, kdf: kdf)
    }

    /// Stores the vault key unwrapped again (protected by file mode 0600 only).
    public func removePassphrase() throws {
        guard try hasPassphrase() else { throw VaultError.noPassphraseSet }
        try VaultKeyFile.plain(vaultID: identity.vaultID, key: key()).write(to: location.keyFileURL)
    }

    private func rewrap(with passphrase: SecretBytes, kdf: KDFParameters?) throws {
        let key = try key()
        let file = try VaultKeyFile.wrapped(vaultID: identity.vaultID, key: key, passphrase: passphrase,
                                            kdf: kdf ?? KDFParameters.interactive())
        try file.write(to: location.keyFileURL)
    }
}
