import AuthCatCore
import AuthCatEssentials
import Foundation

/// The manifest, version 2 (docs/FORMAT.md §5.9): version 1's members, a
/// random manifest key wrapped under the sync passphrase and under the
/// recovery key, the current epoch's master key and the authority's secret
/// key wrapped under the manifest key (all with key-committing wraps), the
/// epoch, and the authority's public key and signature over all of it.
///
/// The manifest key is the indirection that lets either secret alone rotate:
/// whoever opens it can wrap a new master key that both secrets then open.
/// Version 1 readers find every member they know and stop at the version
/// ("made by a newer authcat"). A device that pinned the authority believes a
/// new manifest only when the authority signed it, so a passphrase change
/// reaches it without a question and a manifest changed by the remote does not.
struct KeyManifest: SignedDocument, Equatable {
    static let signatureKind = "manifest"
    static let version = 2

    var format = Manifest.format
    var version = KeyManifest.version
    var vaultID: String
    var createdAt: Int64
    var kdf: KDFParameters
    /// The epoch whose master key this manifest wraps: 0 until the first rotation.
    var epoch: Int64
    /// The SHA-256 (hex) of the stored rotation record that made `epoch`; "" for epoch 0.
    /// A joining device starts following the rotation chain from it.
    var rotation: String
    var authorityPublicKey: Data
    /// The manifest key under the passphrase's Argon2id key.
    var passphraseWrappedKey: Data
    /// The manifest key under the recovery wrapping key.
    var recoveryWrappedKey: Data
    /// The epoch's master key under the manifest key.
    var wrappedMasterKey: Data
    /// The authority's Ed25519 secret key under the manifest key.
    var wrappedAuthority: Data
    var signature: Data?

    enum CodingKeys: String, CodingKey {
        case format, version, kdf, epoch, rotation, signature
        case vaultID = "vault_id"
        case createdAt = "created_at"
        case authorityPublicKey = "authority_public_key"
        case passphraseWrappedKey = "passphrase_wrapped_key"
        case recoveryWrappedKey = "recovery_wrapped_key"
        case wrappedMasterKey = "wrapped_master_key"
        case wrappedAuthority = "wrapped_authority"
    }

    /// What a passphrase or recovery key opens in it.
    struct Unlocked {
        let manifestKey: SecretBytes
        let keys: SyncKeys
        let authority: AuthorityKey
    }

    /// How the manifest key is wrapped: both ways at once (a new vault, a new
    /// recovery key), or the passphrase way only, keeping the recovery key's wrap.
    enum Wrapping {
        case both(passphrase: SecretBytes, recoveryKey: RecoveryKey)
        case passphrase(SecretBytes, keepingRecoveryWrap: Data)
        case recovery(RecoveryKey, keepingPassphraseWrap: Data)
        /// Both wraps as they are: a rotation changes what the manifest key wraps, not the key.
        case unchanged(passphraseWrap: Data, recoveryWrap: Data)
    }

    /// A signed manifest for `epoch`.
    static func make(
        vaultID: String, epoch: Int64, rotation: String, manifestKey: SecretBytes, keys: SyncKeys,
        authority: AuthorityKey,
        wrapping: Wrapping, kdf: KDFParameters, createdAt: Date
    ) throws -> KeyManifest {
        let passphraseWrap: Data
        let recoveryWrap: Data
        switch wrapping {
        case .both(let passphrase, let recoveryKey):
            passphraseWrap = try wrapForPassphrase(manifestKey, passphrase, kdf: kdf, vaultID: vaultID)
            recoveryWrap = try wrapForRecovery(manifestKey, recoveryKey, vaultID: vaultID)
        case .passphrase(let passphrase, let kept):
            passphraseWrap = try wrapForPassphrase(manifestKey, passphrase, kdf: kdf, vaultID: vaultID)
            recoveryWrap = kept
        case .recovery(let recoveryKey, let kept):
            passphraseWrap = kept
            recoveryWrap = try wrapForRecovery(manifestKey, recoveryKey, vaultID: vaultID)
        case .unchanged(let passphrase, let recovery):
            (passphraseWrap, recoveryWrap) = (passphrase, recovery)
        }
        let manifest = KeyManifest(
            vaultID: vaultID, createdAt: createdAt.unixMilliseconds, kdf: kdf, epoch: epoch,
            rotation: rotation, authorityPublicKey: authority.publicKey, passphraseWrappedKey: passphraseWrap,
            recoveryWrappedKey: recoveryWrap,
            wrappedMasterKey: try CommittedWrap.wrap(
                keys.masterKey, key: manifestKey, associatedData: masterAssociatedData(vaultID, epoch)),
            wrappedAuthority: try CommittedWrap.wrap(
                authority.keyPair.secretKey, key: manifestKey, associatedData: authorityAssociatedData(vaultID)))
        return try authority.sign(manifest)
    }

    static func newManifestKey() throws -> SecretBytes { try SecretBytes.random(count: AEAD.keySize) }

    static func secretAssociatedData(_ vaultID: String, _ secret: String) -> Data {
        Data("authcat-sync-manifest-key:v2:\(secret):\(vaultID)".utf8)
    }

    static func masterAssociatedData(_ vaultID: String, _ epoch: Int64) -> Data {
        Data("authcat-sync-master-key:v2:\(vaultID):\(epoch)".utf8)
    }

    static func authorityAssociatedData(_ vaultID: String) -> Data {
        Data("authcat-sync-authority-key:v2:\(vaultID)".utf8)
    }

    private static func wrapForPassphrase(
        _ manifestKey: SecretBytes, _ passphrase: SecretBytes, kdf: KDFParameters, vaultID: String
    ) throws -> Data {
        try CommittedWrap.wrap(
            manifestKey, key: try kdf.deriveKey(from: passphrase),
            associatedData: secretAssociatedData(vaultID, "passphrase"))
    }

    private static func wrapForRecovery(
        _ manifestKey: SecretBytes, _ recoveryKey: RecoveryKey, vaultID: String
    )
        throws -> Data
    {
        try CommittedWrap.wrap(
            manifestKey, key: try SyncKeys.recoveryWrappingKey(recoveryKey),
            associatedData: secretAssociatedData(vaultID, "recovery"))
    }

    /// The manifest key, the master key and the authority, or
    /// `SyncError.wrongPassphrase`. The authority unwrapped must be the one
    /// named and must have signed the manifest: a joining device thus
    /// believes nothing in it that the holder of a secret did not write.
    func unlock(with secret: SyncService.Secret) throws -> Unlocked {
        do {
            let manifestKey: SecretBytes
            switch secret {
            case .passphrase(let passphrase):
                manifestKey = try CommittedWrap.unwrap(
                    passphraseWrappedKey, key: try kdf.deriveKey(from: passphrase),
                    associatedData: Self.secretAssociatedData(vaultID, "passphrase"))
            case .recoveryKey(let text):
                manifestKey = try CommittedWrap.unwrap(
                    recoveryWrappedKey, key: try SyncKeys.recoveryWrappingKey(RecoveryKey(parsing: text)),
                    associatedData: Self.secretAssociatedData(vaultID, "recovery"))
            }
            return try unlock(manifestKey: manifestKey)
        } catch CryptoError.authenticationFailed {
            throw SyncError.wrongPassphrase
        }
    }

    /// What the manifest key opens; a device that knows it needs no secret typed.
    func unlock(manifestKey: SecretBytes) throws -> Unlocked {
        let authority = try AuthorityKey(
            secretKey: try CommittedWrap.unwrap(
                wrappedAuthority, key: manifestKey, associatedData: Self.authorityAssociatedData(vaultID)))
        let masterKey = try CommittedWrap.unwrap(
            wrappedMasterKey, key: manifestKey, associatedData: Self.masterAssociatedData(vaultID, epoch))
        guard masterKey.count == SubkeyDerivation.masterKeySize,
            PublicKeyCrypto.constantTimeEqual(authority.publicKey, authorityPublicKey),
            try isSigned(by: authorityPublicKey)
        else { throw SyncError(.integrity, "the remote vault's manifest is not signed by its own authority") }
        return Unlocked(manifestKey: manifestKey, keys: try SyncKeys(masterKey: masterKey), authority: authority)
    }

    /// The manifest stored as `data`, if it is a version 2 manifest of `vaultID`.
    static func decode(_ data: Data, expectedVaultID: String) throws -> KeyManifest {
        guard let manifest = try? JSONDecoder().decode(KeyManifest.self, from: data),
            manifest.format == Manifest.format, manifest.version == version
        else {
            throw SyncError(.integrity, "the remote vault's manifest is damaged or not a version 2 manifest")
        }
        guard manifest.vaultID == expectedVaultID else {
            throw SyncError(.integrity, "the remote vault's manifest names another vault")
        }
        return manifest
    }

    /// Where a device that joins with this manifest starts following rotations.
    var position: RotationChain.Position {
        RotationChain.Position(epoch: epoch, recordHash: rotation, authority: authorityPublicKey)
    }

    /// Whether a device that pinned `authority` may take this manifest in
    /// place of the one it kept: signed by that authority, for its vault, at
    /// an epoch no older than the device's.
    func isAcceptable(pinnedAuthority authority: Data, vaultID: String, atLeastEpoch epoch: Int64) throws -> Bool {
        guard self.vaultID == vaultID, self.epoch >= epoch else { return false }
        return try isSigned(by: authority)
    }
}
