import AuthCatEssentials
import Foundation

extension Vault {
    /// Whether the vault key is wrapped by a passphrase.
    public func hasPassphrase() throws -> Bool {
        try VaultKeyFile.read(from: location.keyFileURL).protection == .passphrase
    }

    /// Wraps the vault key with `passphrase`; the key file is replaced atomically.
    public func setPassphrase(_ passphrase: SecretBytes, kdf: KDFParameters? = nil) throws {
        // Checked before the slow key derivation, and again under the lock.
        guard try !hasPassphrase() else { throw VaultStoreError.passphraseAlreadySet }
        let wrapped = try VaultKeyFile.wrapped(
            vaultID: identity.vaultID, key: key(), passphrase: passphrase,
            kdf: kdf ?? KDFParameters.interactive())
        try replaceKeyFile(with: wrapped) { current in
            guard current.protection != .passphrase else { throw VaultStoreError.passphraseAlreadySet }
        }
    }

    /// Re-wraps the vault key under a new passphrase; the current one is asked
    /// for through the vault's passphrase provider first.
    public func changePassphrase(to passphrase: SecretBytes, kdf: KDFParameters? = nil) throws {
        let unlockedFrom = try keyFileAsUnlocked()
        let wrapped = try VaultKeyFile.wrapped(
            vaultID: identity.vaultID, key: key(), passphrase: passphrase,
            kdf: kdf ?? KDFParameters.interactive())
        try replaceKeyFile(with: wrapped) { try Self.checkUnchanged($0, since: unlockedFrom) }
    }

    /// Stores the vault key unwrapped again (protected by file mode 0600 only).
    public func removePassphrase() throws {
        let unlockedFrom = try keyFileAsUnlocked()
        try replaceKeyFile(with: .plain(vaultID: identity.vaultID, key: key())) {
            try Self.checkUnchanged($0, since: unlockedFrom)
        }
    }

    /// Replaces the key file under the vault's lock, after `check` accepted
    /// the key file as it is now, and locks the vault; the slow key
    /// derivation is done before, so the lock is held for a read and a rename only.
    private func replaceKeyFile(with file: VaultKeyFile, check: (VaultKeyFile) throws -> Void) throws {
        try FileLock.withExclusiveLock(location.lockFileURL) {
            SecureFile.removeStaleTemporaries(of: location.keyFileURL)
            try check(try VaultKeyFile.read(from: location.keyFileURL))
            try file.write(to: location.keyFileURL)
        }
        // An unlocked session was opened with the old passphrase: it ends with it.
        lock()
    }

    /// A change or removal applies to the passphrase the user just gave: if
    /// another process replaced the key file since, this one would undo that.
    private static func checkUnchanged(_ current: VaultKeyFile, since unlockedFrom: VaultKeyFile) throws {
        guard current.protection == .passphrase else { throw VaultStoreError.noPassphraseSet }
        guard current == unlockedFrom else { throw VaultStoreError.keyFileChanged }
    }
}
