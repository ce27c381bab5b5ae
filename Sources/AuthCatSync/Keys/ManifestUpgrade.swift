import AuthCatCore
import AuthCatEssentials
import Foundation

/// Upgrading a version 1 manifest (docs/FORMAT.md §5.2) to version 3 when
/// its passphrase changes: a manifest key and an authority are made, and the
/// master key is wrapped under the manifest key. Version 1 devices have no
/// keys of their own, so no rotation can reach them: the master key stays,
/// and `sync rotate` afterwards moves it (SECURITY.md).
///
/// The recovery side is sealed to the recovery key's public half, which needs
/// the recovery key: the one typed as the current secret, or a new one. The
/// one write is the manifest, replaced whole by one atomic put, so a kill
/// leaves the old manifest or the new one, never neither.
struct ManifestUpgrade {
    /// An upgrade prepared but not yet written: show or store a new recovery
    /// key first, then `commit`, so a new recovery key is never in force unseen.
    struct Prepared {
        let manifest: KeyManifest
        let bytes: Data
        /// The authority of the new manifest, to certify this device and pin it.
        let authority: AuthorityKey
    }

    let remote: any Remote
    let vaultID: String
    let clock: Clock

    /// Opens the manifest with `current` and builds the new one; writes nothing.
    func prepare(
        current: SyncSecret, newPassphrase: SecretBytes, newRecoveryKey: RecoveryKey?, kdf: KDFParameters
    ) async throws -> Prepared {
        let (stored, _) = try await StoredManifest.read(from: remote, vaultID: vaultID)
        let unlocked = try await stored.unlock(with: current, on: remote)
        let recoveryKey: RecoveryKey
        switch (newRecoveryKey, current) {
        case (.some(let fresh), _): recoveryKey = fresh
        case (nil, .recoveryKey(let text)): recoveryKey = try RecoveryKey(parsing: text)
        case (nil, .passphrase):
            throw SyncError(
                .other,
                "this remote vault was made by an earlier authcat; changing its passphrase also makes a new "
                    + "recovery key there: add --new-recovery-key (or give the recovery key instead of the passphrase)")
        }
        let authority = try AuthorityKey.generate()
        let manifestKey = try KeyManifest.newManifestKey()
        let origin = RotationChain.Position(epoch: 0, recordHash: "", authority: authority.publicKey)
        let manifest = try KeyManifest.make(
            vaultID: vaultID, epoch: 0, rotation: "", manifestKey: manifestKey, keys: unlocked.keys,
            authority: authority,
            wraps: try ManifestKeyWraps.make(
                manifestKey, passphrase: newPassphrase, kdf: kdf, recovery: .key(recoveryKey, anchoredAt: origin),
                vaultID: vaultID),
            createdAt: clock.now())
        return Prepared(manifest: manifest, bytes: try manifest.encoded(), authority: authority)
    }

    /// Writes the new manifest: one atomic replacement.
    func commit(_ prepared: Prepared) async throws {
        try await remote.put(RemoteLayout.manifest(vaultID), data: prepared.bytes)
    }
}
