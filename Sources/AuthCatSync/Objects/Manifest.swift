import AuthCatCore
import AuthCatEssentials
import Foundation

/// The manifest (`authcat-<vault>/manifest`): names the remote vault and holds
/// what a joining device needs to unwrap the master key (docs/FORMAT.md §5.2).
///
/// It is plain JSON, since the key parameters must be readable before any key
/// is known. It needs no seal of its own: each wrapped key is an AEAD box whose
/// associated data names the vault, so a changed manifest just fails to unlock.
struct Manifest: Codable, Equatable {
    static let format = "authcat-sync-manifest"
    static let currentVersion = 1

    var format = Manifest.format
    var version = Manifest.currentVersion
    var vaultID: String
    var createdAt: Int64
    var kdf: KDFParameters
    /// The master key sealed under the Argon2id key of the sync passphrase.
    var passphraseWrappedKey: Data
    /// The master key sealed under the recovery key's wrapping subkey.
    var recoveryWrappedKey: Data

    enum CodingKeys: String, CodingKey {
        case format, version, kdf
        case vaultID = "vault_id"
        case createdAt = "created_at"
        case passphraseWrappedKey = "passphrase_wrapped_key"
        case recoveryWrappedKey = "recovery_wrapped_key"
    }

    static func passphraseAssociatedData(_ vaultID: String) -> Data {
        Data("authcat-sync-master-key:v1:passphrase:\(vaultID)".utf8)
    }

    static func recoveryAssociatedData(_ vaultID: String) -> Data {
        Data("authcat-sync-master-key:v1:recovery:\(vaultID)".utf8)
    }

    /// A manifest for a new remote vault, with the master key wrapped both ways.
    static func make(
        vaultID: String, keys: SyncKeys, passphrase: SecretBytes, recoveryKey: RecoveryKey,
        kdf: KDFParameters, createdAt: Date
    ) throws -> Manifest {
        let passphraseKey = try kdf.deriveKey(from: passphrase)
        return Manifest(
            vaultID: vaultID, createdAt: createdAt.unixMilliseconds, kdf: kdf,
            passphraseWrappedKey: try AEAD.seal(
                keys.masterKey, key: passphraseKey, associatedData: passphraseAssociatedData(vaultID)),
            recoveryWrappedKey: try AEAD.seal(
                keys.masterKey, key: try SyncKeys.recoveryWrappingKey(recoveryKey),
                associatedData: recoveryAssociatedData(vaultID)))
    }

    /// The master key, or `SyncError.wrongPassphrase`.
    func unlock(with secret: SyncSecret) throws -> SyncKeys {
        do {
            let masterKey: SecretBytes
            switch secret {
            case .passphrase(let passphrase):
                masterKey = try AEAD.open(
                    passphraseWrappedKey, key: try kdf.deriveKey(from: passphrase),
                    associatedData: Self.passphraseAssociatedData(vaultID))
            case .recoveryKey(let text):
                masterKey = try AEAD.open(
                    recoveryWrappedKey, key: try SyncKeys.recoveryWrappingKey(RecoveryKey(parsing: text)),
                    associatedData: Self.recoveryAssociatedData(vaultID))
            }
            guard masterKey.count == SubkeyDerivation.masterKeySize else { throw SyncError.wrongPassphrase }
            return try SyncKeys(masterKey: masterKey)
        } catch CryptoError.authenticationFailed {
            throw SyncError.wrongPassphrase
        }
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    static func decode(_ data: Data, expectedVaultID: String) throws -> Manifest {
        guard let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else {
            throw SyncError(.integrity, "the remote vault's manifest is damaged or not an authcat manifest")
        }
        guard manifest.format == format, manifest.vaultID == expectedVaultID else {
            throw SyncError(.integrity, "the remote vault's manifest names another vault")
        }
        guard manifest.version == currentVersion else {
            throw SyncError(
                .other,
                "the remote vault was made by a newer authcat (manifest version \(manifest.version)); upgrade authcat")
        }
        return manifest
    }
}
