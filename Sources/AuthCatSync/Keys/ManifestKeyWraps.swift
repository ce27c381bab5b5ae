import AuthCatCore
import AuthCatEssentials
import Foundation

/// How the two secrets reach a manifest key (docs/FORMAT.md §5.9): a
/// committed wrap under the passphrase's Argon2id key, and, for the recovery
/// key, a sealed box to the recovery key's public half with an anchor that
/// says where a recovery key starts trusting rotations.
///
/// The sealed box is what lets a passphrase change make a new manifest key
/// that the recovery key still opens without being typed: whoever holds the
/// passphrase can seal to the public half. Anyone else can too, so a sealed
/// box proves nothing about who made it; the anchor, keyed with a key only
/// the recovery key derives, names the last position the recovery key itself
/// vouched for, and the rotation records, each signed by the authority before
/// it, must lead from there to the manifest's own position.
///
/// Manifests before version 3 kept a committed wrap under the recovery
/// wrapping key instead (`recoveryPublicKey` nil); it is read as before, and
/// written again only while the manifest key it wraps stays the same.
struct ManifestKeyWraps: Codable, Equatable {
    var kdf: KDFParameters
    /// The manifest key under the passphrase's Argon2id key.
    var passphraseWrappedKey: Data
    /// The manifest key sealed to `recoveryPublicKey`, or (before version 3) in
    /// a committed wrap under the recovery wrapping key.
    var recoveryWrappedKey: Data
    /// The recovery key's X25519 public half; nil for the older committed wrap.
    var recoveryPublicKey: Data?
    /// Present exactly when `recoveryPublicKey` is.
    var recoveryAnchor: RecoveryAnchor?

    enum CodingKeys: String, CodingKey {
        case kdf
        case passphraseWrappedKey = "passphrase_wrapped_key"
        case recoveryWrappedKey = "recovery_wrapped_key"
        case recoveryPublicKey = "recovery_public_key"
        case recoveryAnchor = "recovery_anchor"
    }

    /// Where a recovery key starts trusting the rotation chain: the position
    /// (epoch, record hash, authority) in force when the recovery key itself
    /// was last used to write keys, with a keyed hash only the recovery key makes.
    struct RecoveryAnchor: Codable, Equatable {
        var epoch: Int64
        var rotation: String
        var authorityPublicKey: Data
        var mac: Data

        enum CodingKeys: String, CodingKey {
            case epoch, rotation, mac
            case authorityPublicKey = "authority_public_key"
        }

        static func make(
            _ recoveryKey: RecoveryKey, vaultID: String, position: RotationChain.Position, recoveryPublicKey: Data
        ) throws -> RecoveryAnchor {
            var anchor = RecoveryAnchor(
                epoch: position.epoch, rotation: position.recordHash, authorityPublicKey: position.authority,
                mac: Data())
            anchor.mac = try anchor.expectedMAC(recoveryKey, vaultID: vaultID, recoveryPublicKey: recoveryPublicKey)
            return anchor
        }

        var position: RotationChain.Position {
            RotationChain.Position(epoch: epoch, recordHash: rotation, authority: authorityPublicKey)
        }

        func isAuthentic(_ recoveryKey: RecoveryKey, vaultID: String, recoveryPublicKey: Data) throws -> Bool {
            PublicKeyCrypto.constantTimeEqual(
                try expectedMAC(recoveryKey, vaultID: vaultID, recoveryPublicKey: recoveryPublicKey), mac)
        }

        private func expectedMAC(_ recoveryKey: RecoveryKey, vaultID: String, recoveryPublicKey: Data) throws -> Data {
            let message =
                "authcat-sync-recovery-anchor:v1|\(vaultID)|\(epoch)|\(rotation)|"
                + "\(authorityPublicKey.base64EncodedString())|\(recoveryPublicKey.base64EncodedString())"
            return try PublicKeyCrypto.hash(Data(message.utf8), key: try SyncKeys.recoveryAnchorKey(recoveryKey))
        }
    }

    /// How the recovery side of new wraps is made.
    enum RecoverySide {
        /// The recovery key is at hand (new, or typed): seal to it and anchor at `position`.
        case key(RecoveryKey, anchoredAt: RotationChain.Position)
        /// Only its public half is (a passphrase change): seal to it and keep its anchor.
        case publicKey(Data, keeping: RecoveryAnchor)
    }

    /// New wraps of `manifestKey` for `passphrase` and the recovery side.
    static func make(
        _ manifestKey: SecretBytes, passphrase: SecretBytes, kdf: KDFParameters, recovery: RecoverySide,
        vaultID: String
    ) throws -> ManifestKeyWraps {
        let publicKey: Data
        let anchor: RecoveryAnchor
        switch recovery {
        case .key(let recoveryKey, let position):
            publicKey = try SyncKeys.recoveryBoxKeyPair(recoveryKey).publicKey
            anchor = try RecoveryAnchor.make(
                recoveryKey, vaultID: vaultID, position: position, recoveryPublicKey: publicKey)
        case .publicKey(let kept, let keptAnchor):
            (publicKey, anchor) = (kept, keptAnchor)
        }
        return ManifestKeyWraps(
            kdf: kdf,
            passphraseWrappedKey: try CommittedWrap.wrap(
                manifestKey, key: try kdf.deriveKey(from: passphrase),
                associatedData: secretAssociatedData(vaultID, "passphrase")),
            recoveryWrappedKey: try PublicKeyCrypto.sealed(manifestKey, to: publicKey),
            recoveryPublicKey: publicKey, recoveryAnchor: anchor)
    }

    /// The manifest key `secret` opens, and for a recovery key opened from a
    /// sealed box, the anchored position the caller must prove the chain from
    /// (`RotationRecords.isProved`) before believing anything the key opens.
    ///
    /// - Throws: `SyncError.wrongPassphrase` when `secret` does not open it.
    func openManifestKey(
        with secret: SyncSecret, vaultID: String
    ) throws -> (manifestKey: SecretBytes, anchor: RotationChain.Position?) {
        do {
            switch secret {
            case .passphrase(let passphrase):
                let key = try CommittedWrap.unwrap(
                    passphraseWrappedKey, key: try kdf.deriveKey(from: passphrase),
                    associatedData: Self.secretAssociatedData(vaultID, "passphrase"))
                return (key, nil)
            case .recoveryKey(let text):
                return try open(with: try RecoveryKey(parsing: text), vaultID: vaultID)
            }
        } catch CryptoError.authenticationFailed {
            throw SyncError.wrongPassphrase
        }
    }

    private func open(
        with recoveryKey: RecoveryKey, vaultID: String
    ) throws -> (manifestKey: SecretBytes, anchor: RotationChain.Position?) {
        guard let recoveryPublicKey else {
            let key = try CommittedWrap.unwrap(
                recoveryWrappedKey, key: try SyncKeys.recoveryWrappingKey(recoveryKey),
                associatedData: Self.secretAssociatedData(vaultID, "recovery"))
            return (key, nil)
        }
        let keyPair = try SyncKeys.recoveryBoxKeyPair(recoveryKey)
        guard PublicKeyCrypto.constantTimeEqual(keyPair.publicKey, recoveryPublicKey), let recoveryAnchor,
            try recoveryAnchor.isAuthentic(recoveryKey, vaultID: vaultID, recoveryPublicKey: recoveryPublicKey)
        else { throw CryptoError.authenticationFailed }
        let key = try PublicKeyCrypto.openSealed(recoveryWrappedKey, keyPair: keyPair)
        guard key.count == AEAD.keySize else { throw CryptoError.authenticationFailed }
        return (key, recoveryAnchor.position)
    }

    /// The recovery side new wraps keep when only the passphrase is at hand;
    /// nil for the older committed wrap, which a new manifest key cannot keep.
    var keptRecoverySide: RecoverySide? {
        guard let recoveryPublicKey, let recoveryAnchor else { return nil }
        return .publicKey(recoveryPublicKey, keeping: recoveryAnchor)
    }

    static func secretAssociatedData(_ vaultID: String, _ secret: String) -> Data {
        Data("authcat-sync-manifest-key:v2:\(secret):\(vaultID)".utf8)
    }
}
