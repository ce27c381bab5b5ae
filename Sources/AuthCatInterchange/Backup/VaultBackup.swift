import AuthCatCore
import AuthCatEssentials
import Foundation

/// Encrypted backups of a vault: its live accounts (secrets, tags, notes),
/// its synced preferences and, if asked, its history, sealed with a key
/// derived from a backup passphrase.
public enum VaultBackup {
    /// What a backup holds, from the vault as it is now.
    public static func archive(
        of vault: Vault, includeHistory: Bool = false, kind: AuthCatArchive.Kind = .backup,
        at date: Date = Date()
    ) throws -> AuthCatArchive {
        let accounts = try ExportItem.all(of: vault).map { ArchivedAccount($0.account, secret: $0.secret, pin: $0.pin) }
        let history = includeHistory ? try vault.history().map(ArchivedHistoryEntry.init) : nil
        return AuthCatArchive(
            kind: kind, createdAt: date, vaultID: vault.identity.vaultID, accounts: accounts,
            preferences: kind == .backup ? try vault.preferences() : nil, history: history)
    }

    /// The encrypted backup file of `archive`, under a key derived from `passphrase` with `kdf`.
    public static func seal(_ archive: AuthCatArchive, passphrase: SecretBytes, kdf: KDFParameters) throws -> Data {
        try kdf.checkLimits()
        return try seal(archive, key: kdf.deriveKey(from: passphrase), kdf: kdf)
    }

    /// The encrypted backup file of `archive` under an already derived `key`
    /// (what benchmarks use to leave the KDF out); `kdf` is recorded for readers.
    public static func seal(_ archive: AuthCatArchive, key: SecretBytes, kdf: KDFParameters) throws -> Data {
        var plaintext = try archive.encoded()
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        return try BackupFile.seal(plaintext, key: key, kdf: kdf)
    }

    /// Checks that `data` is a complete backup that decrypts and whose every
    /// account is usable, without touching any vault.
    /// - Throws: `BackupError` or `ImportError.invalidEntries` naming what is wrong.
    public static func verify(_ data: Data, context: ImportContext) throws -> BackupVerification {
        guard BackupHeader.hasMagic(data) else { throw BackupError.notABackup }
        let archive = try AuthCatFormat.archive(data, context: context)
        let parsed = try AuthCatFormat.parsed(archive)
        guard parsed.rejections.isEmpty else { throw ImportError.invalidEntries(parsed.rejections) }
        try PreferenceQuota.check(archive.preferences ?? [:])
        return BackupVerification(archive: archive, header: try BackupHeader(decoding: data))
    }
}
