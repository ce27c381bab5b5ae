import AuthCatCore
import AuthCatEssentials
import Foundation

/// What a device keeps once the authority is known to it (a secret was just
/// typed): the authority's public key, pinned, and its own box key pair,
/// whose public half the authority certifies on the remote (docs/FORMAT.md §5.9).
struct DeviceEnrolment {
    let authorityPublicKey: Data
    let sealedDeviceKey: Data

    /// Makes this device's key pair, writes its certificate and seals the
    /// secret half under the vault's `acsyncdk` subkey.
    static func enrol(
        device: String, vaultID: String, authority: AuthorityKey, vault: Vault, remote: any Remote, now: Date
    ) async throws -> DeviceEnrolment {
        let keys = try DeviceKeys.generate()
        let certificate = try DeviceCertificate.issue(
            vault: vaultID, device: device, boxPublicKey: keys.boxKeyPair.publicKey, by: authority, at: now)
        try await remote.put(EpochLayout.deviceKey(vaultID, device: device), data: try certificate.encoded())
        return DeviceEnrolment(
            authorityPublicKey: authority.publicKey,
            sealedDeviceKey: try keys.sealedLocally(
                sealingKey: try vault.derivedKey(context: DeviceKeys.localContext), remoteVaultID: vaultID,
                deviceID: device))
    }

    /// Pins the authority and keeps the sealed key in the sync state.
    func apply(to state: inout SyncStore.StateRecord) {
        state.authorityPublicKey = authorityPublicKey
        state.sealedDeviceKey = sealedDeviceKey
    }
}
