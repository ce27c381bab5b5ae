import AuthCatCore
import AuthCatEssentials
import Foundation

/// Changing the sync passphrase (and, optionally, the recovery key) on the
/// remote (docs/FORMAT.md §5.9, SECURITY.md "Changing the passphrase").
///
/// The master key does not change, so no object is re-sealed and every
/// device keeps syncing: they believe the new manifest because the authority
/// they pinned signed it. The one write is the manifest, replaced whole by one
/// atomic put, so a kill at any moment leaves the old manifest (the old
/// passphrase opens it) or the new one (the new passphrase does), never
/// neither. Running it again with the passphrase that now opens finishes it.
///
/// A version 1 manifest is upgraded on the way: a manifest key and an
/// authority are made. Its recovery wrap cannot be rewritten without the
/// recovery key, so the upgrade needs either the recovery key as the current
/// secret or a new recovery key.
struct PassphraseChange {
    /// A change prepared but not yet written: show or store `recoveryKey`
    /// first, then `commit`, so a new recovery key is never in force unseen.
    struct Prepared {
        let vaultID: String
        let manifest: KeyManifest
        let bytes: Data
        /// The new recovery key, when one was made.
        let recoveryKey: RecoveryKey?
        /// The authority of the new manifest, to certify this device and pin it.
        let authority: AuthorityKey
        let keys: SyncKeys
    }

    let remote: any Remote
    let vaultID: String
    let clock: Clock

    /// Opens the manifest with `current` and builds the new one; writes nothing.
    func prepare(
        current: SyncService.Secret, newPassphrase: SecretBytes, newRecoveryKey: Bool, kdf: KDFParameters
    ) async throws -> Prepared {
        let (stored, _) = try await StoredManifest.read(from: remote, vaultID: vaultID)
        let unlocked = try stored.unlock(with: current)
        let recoveryKey = newRecoveryKey ? try RecoveryKey.generate() : nil
        let wrapping: KeyManifest.Wrapping
        let manifestKey: SecretBytes
        let authority: AuthorityKey
        var epoch: Int64 = 0
        var rotation = ""
        switch (unlocked.version2, current, recoveryKey) {
        case (_, _, .some(let fresh)):
            // Both secrets are new: a new manifest key, so an old manifest copy opens nothing newer.
            manifestKey = try KeyManifest.newManifestKey()
            wrapping = .both(passphrase: newPassphrase, recoveryKey: fresh)
            authority = try unlocked.version2?.authority ?? AuthorityKey.generate()
        case (.some(let opened), _, nil):
            guard case .version2(let manifest) = stored else { throw SyncError.wrongPassphrase }
            manifestKey = opened.manifestKey
            wrapping = .passphrase(newPassphrase, keepingRecoveryWrap: manifest.recoveryWrappedKey)
            authority = opened.authority
        case (nil, .recoveryKey(let text), nil):
            manifestKey = try KeyManifest.newManifestKey()
            wrapping = .both(passphrase: newPassphrase, recoveryKey: try RecoveryKey(parsing: text))
            authority = try AuthorityKey.generate()
        case (nil, .passphrase, nil):
            throw SyncError(
                .other,
                "this remote vault was made by an earlier authcat; changing its passphrase also makes a new "
                    + "recovery key there: add --new-recovery-key (or give the recovery key instead of the passphrase)")
        }
        if case .version2(let manifest) = stored {
            epoch = manifest.epoch
            rotation = manifest.rotation
        }
        let manifest = try KeyManifest.make(
            vaultID: vaultID, epoch: epoch, rotation: rotation, manifestKey: manifestKey, keys: unlocked.keys,
            authority: authority, wrapping: wrapping, kdf: kdf, createdAt: clock.now())
        return Prepared(
            vaultID: vaultID, manifest: manifest, bytes: try manifest.encoded(), recoveryKey: recoveryKey,
            authority: authority, keys: unlocked.keys)
    }

    /// Writes the new manifest: one atomic replacement.
    func commit(_ prepared: Prepared) async throws {
        try await remote.put(RemoteLayout.manifest(prepared.vaultID), data: prepared.bytes)
    }
}
