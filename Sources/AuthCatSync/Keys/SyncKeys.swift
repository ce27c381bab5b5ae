import AuthCatCore
import AuthCatEssentials
import Foundation

/// The remote vault's master key and the keys derived from it.
///
/// Derivations (libsodium `crypto_kdf_derive_from_key`, documented in
/// docs/FORMAT.md §5.2):
/// - object key: subkey 1, context `acsyncob` — seals batches, snapshots, markers;
/// - recovery wrapping key: subkey 1 of the recovery key, context `acsyncrk`;
/// - recovery box key: subkey 2 of the recovery key, context `acsyncrk`, an
///   X25519 secret key: a passphrase change seals the new manifest key to its
///   public half, so the recovery key keeps working without being typed;
/// - recovery anchor key: subkey 3 of the recovery key, context `acsyncrk`,
///   which authenticates where a recovery key starts trusting rotations (`RecoveryAnchor`);
/// - local sealing key: subkey 1 of the vault key, context `acsynclk` — seals
///   the master key in `sync.sqlite`, so syncing never asks for the sync passphrase.
struct SyncKeys {
    static let objectContext = "acsyncob"
    static let recoveryContext = "acsyncrk"
    static let localContext = "acsynclk"

    let masterKey: SecretBytes
    let objectKey: SecretBytes

    init(masterKey: SecretBytes) throws {
        self.masterKey = masterKey
        objectKey = try SubkeyDerivation.derive(from: masterKey, id: 1, context: Self.objectContext)
    }

    static func generate() throws -> SyncKeys {
        try SyncKeys(masterKey: SecretBytes.random(count: SubkeyDerivation.masterKeySize))
    }

    /// The master key sealed for `sync.sqlite` under the vault's local sealing key.
    func sealedLocally(vault: Vault, remoteVaultID: String, deviceID: String) throws -> Data {
        try AEAD.seal(
            masterKey, key: try vault.derivedKey(context: Self.localContext),
            associatedData: Self.localAssociatedData(remoteVaultID: remoteVaultID, deviceID: deviceID))
    }

    /// Opens what `sealedLocally` made.
    static func unsealLocally(_ sealed: Data, vault: Vault, remoteVaultID: String, deviceID: String) throws -> SyncKeys
    {
        do {
            let key = try AEAD.open(
                sealed, key: try vault.derivedKey(context: localContext),
                associatedData: localAssociatedData(remoteVaultID: remoteVaultID, deviceID: deviceID))
            return try SyncKeys(masterKey: key)
        } catch CryptoError.authenticationFailed {
            throw SyncError(
                .other, "the sync key stored with this vault does not open with the vault key",
                next: .rejoinSync)
        }
    }

    static func localAssociatedData(remoteVaultID: String, deviceID: String) -> Data {
        Data("authcat-sync-local-master-key:v1:\(remoteVaultID):\(deviceID)".utf8)
    }

    /// The key that wraps the manifest key for the recovery key (manifests before version 3).
    static func recoveryWrappingKey(_ recoveryKey: RecoveryKey) throws -> SecretBytes {
        try SubkeyDerivation.derive(from: recoveryKey.bytes, id: 1, context: recoveryContext)
    }

    /// The X25519 key pair the manifest key is sealed to for the recovery key.
    static func recoveryBoxKeyPair(_ recoveryKey: RecoveryKey) throws -> PublicKeyCrypto.KeyPair {
        let secretKey = try SubkeyDerivation.derive(from: recoveryKey.bytes, id: 2, context: recoveryContext)
        return PublicKeyCrypto.KeyPair(publicKey: try PublicKeyCrypto.boxPublicKey(of: secretKey), secretKey: secretKey)
    }

    /// The key of a recovery anchor's keyed hash.
    static func recoveryAnchorKey(_ recoveryKey: RecoveryKey) throws -> SecretBytes {
        try SubkeyDerivation.derive(from: recoveryKey.bytes, id: 3, context: recoveryContext)
    }
}
