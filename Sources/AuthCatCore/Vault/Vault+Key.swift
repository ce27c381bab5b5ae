import AuthCatEssentials
import Foundation

// The vault key: loaded once per `Vault` (stored plainly, kept in the kernel
// keyring by `authcat unlock`, or unwrapped with the passphrase), checked
// against the vault, kept unlocked or forgotten, and keys derived from it.
extension Vault {
    /// The vault key, unlocked once per `Vault` and kept in zeroing memory:
    /// stored plainly, kept in the keyring by `authcat unlock`, or else
    /// unwrapped with the passphrase.
    func key() throws -> SecretBytes {
        try unlocked.withLock { unlocked throws in
            if let key = unlocked.key { return key }
            let file = try VaultKeyFile.read(from: location.keyFileURL)
            if file.protection == .passphrase, let kept = file.keyWithoutPrompt(), (try? checkKey(kept)) != nil {
                unlocked.key = kept
                return kept
            }
            return try unlock(file, into: &unlocked)
        }
    }

    /// The key file the key was unwrapped from with the passphrase, asking
    /// for it even while the vault is unlocked in the keyring: changing the
    /// passphrase needs the passphrase, not merely an unlocked vault.
    func keyFileAsUnlocked() throws -> VaultKeyFile {
        try unlocked.withLock { unlocked throws in
            if let keyFile = unlocked.keyFile { return keyFile }
            let file = try VaultKeyFile.read(from: location.keyFileURL)
            _ = try unlock(file, into: &unlocked)
            return file
        }
    }

    /// Passphrases tried before a wrong one is final: a person at a terminal
    /// may mistype. The provider decides whether asking again makes sense (a
    /// file holds the same wrong line: it throws `wrongPassphrase` at once).
    public static let passphraseAttempts = 3

    /// Unwraps and checks the key of `file`; the caller holds the lock of `unlocked`.
    private func unlock(_ file: VaultKeyFile, into unlocked: inout UnlockedKey) throws -> SecretBytes {
        var attempt = 1
        var key: SecretBytes
        while true {
            do {
                key = try file.unlock(passphrase: passphrase)
                break
            } catch VaultError.wrongPassphrase where attempt < Self.passphraseAttempts {
                attempt += 1
            }
        }
        try checkKey(key)
        unlocked.key = key
        unlocked.keyFile = file
        return key
    }

    func checkKey(_ key: SecretBytes) throws {
        guard keyCheck.accepts(key) else { throw VaultStoreError.keyDoesNotMatch(location.keyFileURL.path) }
    }

    /// Loads the vault key now, asking for the passphrase if one is set and
    /// the vault is not unlocked in the keyring.
    ///
    /// Writes call it before their transaction, so no prompt ever holds the database lock.
    public func unlock() throws {
        _ = try key()
    }

    /// Asks for the passphrase now, even while the vault is unlocked in the
    /// keyring: commands that change the passphrase call this first, so that
    /// a wrong current passphrase is reported before a new one is asked for.
    public func verifyPassphrase() throws {
        _ = try keyFileAsUnlocked()
    }

    /// Asks for the passphrase and keeps the vault key in the kernel keyring
    /// for `seconds` (`authcat unlock`), so that every authcat process of this
    /// user, the quick `authcat code` included, finds it without asking.
    /// - Returns: when the keyring forgets it.
    @discardableResult
    public func keepUnlocked(forSeconds seconds: Int) throws -> Date {
        guard try keyFileAsUnlocked().protection == .passphrase else { throw VaultStoreError.noPassphraseSet }
        let now = clock.now()
        try VaultKeyring.store(try key(), vaultID: identity.vaultID, seconds: seconds, now: now)
        return now.addingTimeInterval(TimeInterval(seconds))
    }

    /// When the key kept by `keepUnlocked` expires, or nil when the vault is locked.
    public func unlockedUntil() -> Date? {
        VaultKeyring.entry(vaultID: identity.vaultID)?.expiresAt
    }

    /// Forgets the key kept in the keyring (`authcat lock`); returns whether it was there.
    @discardableResult
    public func lock() -> Bool {
        VaultKeyring.forget(vaultID: identity.vaultID)
    }

    /// The key a detached process of this change (the background push) needs
    /// and cannot ask for: set only when this process unwrapped it with the
    /// passphrase and the keyring does not hold it. A plain key file or an
    /// unlocked keyring serves that process by itself.
    public func keyForDetachedWork() -> SecretBytes? {
        // `keyFile` is set for a plain key file too: only a passphrase-protected one counts.
        let typed = unlocked.withLock { $0.keyFile?.protection == .passphrase ? $0.key : nil }
        guard let typed, VaultKeyring.entry(vaultID: identity.vaultID) == nil else { return nil }
        return typed
    }

    /// Whether a secret can be read without asking for the passphrase: the key
    /// is loaded, stored plainly, or kept in the keyring by `authcat unlock`.
    public var isKeyAvailableWithoutPrompt: Bool {
        if unlocked.withLock({ $0.key != nil }) { return true }
        guard let file = try? VaultKeyFile.read(from: location.keyFileURL) else { return false }
        return file.protection == .none || VaultKeyring.entry(vaultID: identity.vaultID) != nil
    }

    /// Uses `key`, handed over by the process that made a change, as this
    /// vault's key, so that nothing asks for the passphrase.
    /// - Throws: `VaultStoreError.keyDoesNotMatch` when it is not this vault's key.
    public func adopt(_ key: SecretBytes) throws {
        try checkKey(key)
        unlocked.withLock { $0.key = key }
    }

    /// A key derived from the vault key for another component's own use
    /// (sealing that component's local state, say), so that it needs no key
    /// file of its own and is protected exactly as the vault is.
    ///
    /// - Parameter context: exactly 8 ASCII bytes naming the purpose; see `SubkeyDerivation`.
    public func derivedKey(context: String, id: UInt64 = 1) throws -> SecretBytes {
        try SubkeyDerivation.derive(from: key(), id: id, context: context)
    }
}
