import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncService {
    /// What `changePassphrase` did.
    public struct PassphraseChangeOutcome: Sendable {
        /// The remote's display location.
        public var remote: String
        /// The new recovery key, when one was made (already handed to `announce`).
        public var recoveryKey: String?
        /// The rotation that put the new secrets in force; nil for a vault made
        /// by an earlier authcat (version 1), whose manifest was upgraded in place.
        public var rotation: RotationOutcome?
    }

    /// Changes the sync passphrase of the remote vault this device syncs with.
    ///
    /// It is a rotation (`Rotation`, FORMAT.md §5.9) to new secrets: a new
    /// master key, authority and manifest key, the key sealed to every
    /// remaining device (which carry on without a question), the manifest key
    /// wrapped under `newPassphrase` and sealed to the recovery key (which keeps
    /// working without being typed), or to a new recovery key with
    /// `newRecoveryKey`. Nothing the old passphrase opens, with any old copy of
    /// anything on the remote, reaches what is written afterwards. The devices
    /// that joined since the secrets last changed (what a leaked passphrase
    /// could have enrolled) are shown to `chooseRevocations`, which returns
    /// the ids of those to revoke in the same step, beside `revoking` (ids too).
    ///
    /// Secrets are asked by the caller before this; `announce` gets the new
    /// recovery key before anything is written, so that a new key is never in
    /// force unseen. A kill leaves the old secrets or the new ones in force;
    /// running it again (with whichever passphrase now opens) finishes it.
    ///
    /// - Parameter kdf: the key derivation for the new passphrase; nil for libsodium's moderate limits.
    /// - Throws: `SyncError.syncOff` when sync is not on here, `.wrongPassphrase`
    ///   when `current` does not open the manifest (nothing is written).
    public func changePassphrase(
        current: SyncSecret, newPassphrase: SecretBytes, newRecoveryKey: Bool, revoking: [String] = [],
        kdf: KDFParameters?, chooseRevocations: ([DeviceDirectory.Device]) throws -> [String] = { _ in [] },
        announce: (_ recoveryKey: String?, _ remote: String) throws -> Void,
        progress: ((SyncProgress) -> Void)? = nil, whenBusy: () -> Void = {}
    ) async throws -> PassphraseChangeOutcome {
        try await coordinator.withRunLock(whenBusy: whenBusy) {
            defer { refreshNotice() }
            let (store, record) = try enabledState()
            return try await withRemote(record.remoteURL, createOnlyEnforced: record.createOnlyEnforced) { remote in
                let recoveryKey = newRecoveryKey ? try RecoveryKey.generate() : nil
                let kdf = try kdf ?? KDFParameters.moderate()
                let (stored, data) = try await StoredManifest.read(from: remote, vaultID: record.remoteVaultID)
                if case .version1 = stored {
                    return try await upgrade(
                        store: store, record: record, remote: remote, current: current, newPassphrase: newPassphrase,
                        recoveryKey: recoveryKey, kdf: kdf, announce: announce)
                }
                let record = try await enrolIfKeyless(
                    store: store, record: record, remote: remote, stored: (stored, data), current: current)
                let newSecrets = KeyRotation.NewSecrets(passphrase: newPassphrase, kdf: kdf, recoveryKey: recoveryKey)
                let rotation = try await Rotation(
                    service: self, store: store, record: record, remote: remote, progress: progress
                ).run(
                    secret: current, revoking: revoking, newSecrets: newSecrets, chooseRevocations: chooseRevocations,
                    announce: { try announce(recoveryKey?.formatted, remote.displayLocation) })
                return PassphraseChangeOutcome(
                    remote: remote.displayLocation, recoveryKey: recoveryKey?.formatted, rotation: rotation)
            }
        }
    }

    /// A device that joined before devices had keys of their own gets one
    /// now that a secret was typed here (it opens the authority), so that the
    /// rotation seals the new key to it too.
    private func enrolIfKeyless(
        store: SyncStore, record: SyncStore.StateRecord, remote: any Remote, stored: (StoredManifest, Data),
        current: SyncSecret
    ) async throws -> SyncStore.StateRecord {
        guard record.sealedDeviceKey == nil || record.authorityPublicKey == nil else { return record }
        // Only the manifest this device accepted, at its epoch: an authority planted beside it is never pinned.
        guard ObjectHash.of(stored.1) == record.manifestHash, stored.0.epoch == record.keyEpoch,
            let opened = try await stored.0.unlock(with: current, on: remote).version2
        else { return record }
        let enrolment = try await DeviceEnrolment.enrol(
            device: record.deviceID, vaultID: record.remoteVaultID, authority: opened.authority, vault: vault,
            remote: remote, now: clock.now())
        try store.updateState { enrolment.apply(to: &$0) }
        return try SyncStore.requiredState(store)
    }

    /// A version 1 manifest is rewritten as a version 3 one with a manifest
    /// key and an authority (`ManifestUpgrade`); its devices have no keys of
    /// their own yet, so nothing can be sealed to them: the master key stays,
    /// and a rotation afterwards moves it (those devices then join again).
    private func upgrade(
        store: SyncStore, record: SyncStore.StateRecord, remote: any Remote, current: SyncSecret,
        newPassphrase: SecretBytes, recoveryKey: RecoveryKey?, kdf: KDFParameters,
        announce: (_ recoveryKey: String?, _ remote: String) throws -> Void
    ) async throws -> PassphraseChangeOutcome {
        let upgrade = ManifestUpgrade(remote: remote, vaultID: record.remoteVaultID, clock: clock)
        let prepared = try await upgrade.prepare(
            current: current, newPassphrase: newPassphrase, newRecoveryKey: recoveryKey, kdf: kdf)
        try announce(recoveryKey?.formatted, remote.displayLocation)
        try await upgrade.commit(prepared)
        // The passphrase was typed here: pin the new authority and certify this device.
        let enrolment = try await DeviceEnrolment.enrol(
            device: record.deviceID, vaultID: record.remoteVaultID, authority: prepared.authority, vault: vault,
            remote: remote, now: clock.now())
        try store.updateState {
            $0.manifestHash = ObjectHash.of(prepared.bytes)
            $0.manifestVersion = nil
            $0.manifestGeneration = prepared.manifest.generationNumber
            enrolment.apply(to: &$0)
        }
        return PassphraseChangeOutcome(
            remote: remote.displayLocation, recoveryKey: recoveryKey?.formatted, rotation: nil)
    }
}
