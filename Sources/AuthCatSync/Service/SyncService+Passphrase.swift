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
    }

    /// Changes the sync passphrase of the remote vault this device syncs with
    /// (`PassphraseChange`): the manifest key is re-wrapped under `newPassphrase`
    /// (and, with `newRecoveryKey`, a new manifest key is wrapped under both),
    /// and the manifest replaced with one atomic write. Other devices take it
    /// at their next sync without a question: the authority they pinned signed it.
    ///
    /// Secrets are asked by the caller before this; `announce` gets the new
    /// recovery key before the manifest is written, so that a new key is never
    /// in force unseen. A kill leaves the old or the new manifest; running it
    /// again (with whichever passphrase now opens) finishes it.
    ///
    /// - Parameter kdf: the key derivation for the new passphrase; nil for libsodium's moderate limits.
    /// - Throws: `SyncError.syncOff` when sync is not set up here, `.wrongPassphrase`
    ///   when `current` does not open the manifest (nothing is written).
    public func changePassphrase(
        current: SyncService.Secret, newPassphrase: SecretBytes, newRecoveryKey: Bool, kdf: KDFParameters?,
        announce: (_ recoveryKey: String?, _ remote: String) throws -> Void, whenBusy: () -> Void = {}
    ) async throws -> PassphraseChangeOutcome {
        try await coordinator.withRunLock(whenBusy: whenBusy) {
            let standing = look()
            if let lost = standing.lost { throw lost }
            guard let store = standing.store, let record = standing.record else { throw SyncError.syncOff }
            return try await withRemote(record.remoteURL) { remote in
                let change = PassphraseChange(remote: remote, vaultID: record.remoteVaultID, clock: clock)
                let prepared = try await change.prepare(
                    current: current, newPassphrase: newPassphrase, newRecoveryKey: newRecoveryKey,
                    kdf: kdf ?? KDFParameters.moderate())
                try announce(prepared.recoveryKey?.formatted, remote.displayLocation)
                try await change.commit(prepared)
                // The passphrase was typed here: pin the authority (new when the manifest was upgraded)
                // and certify this device if it has no key yet.
                var enrolment: DeviceEnrolment?
                if record.sealedDeviceKey == nil || record.authorityPublicKey != prepared.authority.publicKey {
                    enrolment = try await DeviceEnrolment.enrol(
                        device: record.deviceID, vaultID: record.remoteVaultID, authority: prepared.authority,
                        vault: vault, remote: remote, now: clock.now())
                }
                try store.updateState {
                    $0.manifestHash = ObjectHash.of(prepared.bytes)
                    $0.manifestVersion = nil
                    enrolment?.apply(to: &$0)
                }
                return PassphraseChangeOutcome(
                    remote: remote.displayLocation, recoveryKey: prepared.recoveryKey?.formatted)
            }
        }
    }
}
