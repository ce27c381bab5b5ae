import AuthCatCore
import AuthCatEssentials
import Foundation

/// The manifest, versions 2 and 3 (docs/FORMAT.md §5.9): version 1's
/// members, a random manifest key reachable from the sync passphrase and the
/// recovery key (`ManifestKeyWraps`), the current epoch's master key and the
/// authority's secret key wrapped under the manifest key (all with
/// key-committing wraps), the epoch, and the authority's public key and
/// signature over all of it. Version 3 adds the generation, which grows with
/// every manifest written, and seals the manifest key to the recovery key's
/// public half, so that a passphrase change can make a new manifest key.
///
/// A device that pinned the authority believes a new manifest only when the
/// authority signed it and its generation is newer than the one it holds, so
/// a rotation reaches it without a question, and neither a manifest changed
/// by the remote nor an old one put back does.
struct KeyManifest: SignedDocument, Equatable {
    static let signatureKind = "manifest"
    static let version = 3
    static let readableVersions = 2...3

    var format = Manifest.format
    var version = KeyManifest.version
    var vaultID: String
    var createdAt: Int64
    /// `epoch + 1`: every manifest this version writes moves the epoch (a
    /// rotation, a passphrase change) or is the vault's first; nil in version
    /// 2. Tied to the epoch, which only a proved record moves, so that no
    /// manifest can claim a generation its chain does not reach.
    var generation: Int64?
    var kdf: KDFParameters
    /// The epoch whose master key this manifest wraps: 0 until the first rotation.
    var epoch: Int64
    /// The SHA-256 (hex) of the stored rotation record that made `epoch`; "" for epoch 0.
    /// A joining device starts following the rotation chain from it.
    var rotation: String
    var authorityPublicKey: Data
    /// The manifest key under the passphrase's Argon2id key.
    var passphraseWrappedKey: Data
    /// The manifest key for the recovery key (`ManifestKeyWraps`).
    var recoveryWrappedKey: Data
    var recoveryPublicKey: Data?
    var recoveryAnchor: ManifestKeyWraps.RecoveryAnchor?
    /// The epoch's master key under the manifest key.
    var wrappedMasterKey: Data
    /// The authority's Ed25519 secret key under the manifest key.
    var wrappedAuthority: Data
    var signature: Data?

    enum CodingKeys: String, CodingKey {
        case format, version, generation, kdf, epoch, rotation, signature
        case vaultID = "vault_id"
        case createdAt = "created_at"
        case authorityPublicKey = "authority_public_key"
        case passphraseWrappedKey = "passphrase_wrapped_key"
        case recoveryWrappedKey = "recovery_wrapped_key"
        case recoveryPublicKey = "recovery_public_key"
        case recoveryAnchor = "recovery_anchor"
        case wrappedMasterKey = "wrapped_master_key"
        case wrappedAuthority = "wrapped_authority"
    }

    /// What a passphrase or recovery key opens in it.
    struct Unlocked {
        let manifestKey: SecretBytes
        let keys: SyncKeys
        let authority: AuthorityKey
        /// For a recovery key opened from a sealed box: the position the
        /// rotation chain must be proved from up to this manifest's
        /// (`StoredManifest.unlock(with:on:)` does it).
        let recoveryAnchor: RotationChain.Position?
    }

    /// How the manifest key reaches the two secrets.
    var wraps: ManifestKeyWraps {
        ManifestKeyWraps(
            kdf: kdf, passphraseWrappedKey: passphraseWrappedKey, recoveryWrappedKey: recoveryWrappedKey,
            recoveryPublicKey: recoveryPublicKey, recoveryAnchor: recoveryAnchor)
    }

    /// The generation a device compares: 0 for a version 2 manifest.
    var generationNumber: Int64 { generation ?? 0 }

    /// A signed manifest for `epoch`, of generation `epoch + 1`.
    static func make(
        vaultID: String, epoch: Int64, rotation: String, manifestKey: SecretBytes, keys: SyncKeys,
        authority: AuthorityKey, wraps: ManifestKeyWraps, createdAt: Date
    ) throws -> KeyManifest {
        let manifest = KeyManifest(
            vaultID: vaultID, createdAt: createdAt.unixMilliseconds,
            generation: try RemoteLayout.checkedNumber(epoch + 1), kdf: wraps.kdf, epoch: epoch,
            rotation: rotation, authorityPublicKey: authority.publicKey,
            passphraseWrappedKey: wraps.passphraseWrappedKey, recoveryWrappedKey: wraps.recoveryWrappedKey,
            recoveryPublicKey: wraps.recoveryPublicKey, recoveryAnchor: wraps.recoveryAnchor,
            wrappedMasterKey: try CommittedWrap.wrap(
                keys.masterKey, key: manifestKey, associatedData: masterAssociatedData(vaultID, epoch)),
            wrappedAuthority: try CommittedWrap.wrap(
                authority.keyPair.secretKey, key: manifestKey, associatedData: authorityAssociatedData(vaultID)))
        return try authority.sign(manifest)
    }

    static func newManifestKey() throws -> SecretBytes { try SecretBytes.random(count: AEAD.keySize) }

    static func masterAssociatedData(_ vaultID: String, _ epoch: Int64) -> Data {
        Data("authcat-sync-master-key:v2:\(vaultID):\(epoch)".utf8)
    }

    static func authorityAssociatedData(_ vaultID: String) -> Data {
        Data("authcat-sync-authority-key:v2:\(vaultID)".utf8)
    }

    /// The manifest key, the master key and the authority, or
    /// `SyncError.wrongPassphrase`. The authority unwrapped must be the one
    /// named and must have signed the manifest: a joining device thus
    /// believes nothing in it that the holder of a secret did not write (for
    /// a recovery key from a sealed box, once the chain from its anchor is proved).
    func unlock(with secret: SyncSecret) throws -> Unlocked {
        let (manifestKey, anchor) = try wraps.openManifestKey(with: secret, vaultID: vaultID)
        do {
            return try unlock(manifestKey: manifestKey, recoveryAnchor: anchor)
        } catch CryptoError.authenticationFailed {
            throw SyncError.wrongPassphrase
        }
    }

    /// What the manifest key opens; a device that knows it needs no secret typed.
    func unlock(manifestKey: SecretBytes, recoveryAnchor: RotationChain.Position? = nil) throws -> Unlocked {
        let authority = try AuthorityKey(
            secretKey: try CommittedWrap.unwrap(
                wrappedAuthority, key: manifestKey, associatedData: Self.authorityAssociatedData(vaultID)))
        let masterKey = try CommittedWrap.unwrap(
            wrappedMasterKey, key: manifestKey, associatedData: Self.masterAssociatedData(vaultID, epoch))
        guard masterKey.count == SubkeyDerivation.masterKeySize,
            PublicKeyCrypto.constantTimeEqual(authority.publicKey, authorityPublicKey),
            try isSigned(by: authorityPublicKey)
        else { throw SyncError(.integrity, "the remote vault's manifest is not signed by its own authority") }
        return Unlocked(
            manifestKey: manifestKey, keys: try SyncKeys(masterKey: masterKey), authority: authority,
            recoveryAnchor: recoveryAnchor)
    }

    /// The manifest stored as `data`, if it is a version 2 or 3 manifest of `vaultID`.
    static func decode(_ data: Data, expectedVaultID: String) throws -> KeyManifest {
        guard let manifest = try? JSONDecoder().decode(KeyManifest.self, from: data),
            manifest.format == Manifest.format, readableVersions.contains(manifest.version),
            manifest.version == 2 ? manifest.generation == nil : manifest.generation == manifest.epoch + 1,
            manifest.version == 3 || manifest.recoveryPublicKey == nil,
            (manifest.recoveryPublicKey == nil) == (manifest.recoveryAnchor == nil)
        else {
            throw SyncError(.integrity, "the remote vault's manifest is damaged or not a version 2 or 3 manifest")
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

    /// Whether a device standing at `position` (its epoch, the record that
    /// made it, and the authority it pinned) may take this manifest in place
    /// of the one it kept: for its vault, at exactly its position, signed by
    /// that authority, and of a newer generation than the one it accepted
    /// last. A manifest changes only with the epoch, so an old one put back,
    /// or one rewritten in place by whoever held a replaced authority, is
    /// never taken.
    func isAcceptable(
        at position: RotationChain.Position, vaultID: String, afterGeneration generation: Int64
    ) throws
        -> Bool
    {
        guard self.vaultID == vaultID, self.position == position, generationNumber > generation else { return false }
        return try isSigned(by: position.authority)
    }

}
