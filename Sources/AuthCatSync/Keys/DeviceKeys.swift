import AuthCatCore
import AuthCatEssentials
import Foundation

/// This device's own key pair for receiving master keys. Its secret half is
/// kept in `sync.sqlite` sealed under the vault's local sealing key, like the
/// master key, so a thief with the device's files and its vault passphrase has
/// it: that is why a rotation must also revoke the device, not merely skip it.
struct DeviceKeys {
    static let localContext = "acsyncdk"

    let boxKeyPair: PublicKeyCrypto.KeyPair

    static func generate() throws -> DeviceKeys {
        DeviceKeys(boxKeyPair: try PublicKeyCrypto.boxKeyPair())
    }

    init(boxKeyPair: PublicKeyCrypto.KeyPair) {
        self.boxKeyPair = boxKeyPair
    }

    init(secretKey: SecretBytes) throws {
        boxKeyPair = PublicKeyCrypto.KeyPair(
            publicKey: try PublicKeyCrypto.boxPublicKey(of: secretKey), secretKey: secretKey)
    }

    /// The secret half sealed under `sealingKey` (the vault's `acsyncdk` subkey), bound to the device.
    func sealedLocally(sealingKey: SecretBytes, remoteVaultID: String, deviceID: String) throws -> Data {
        try AEAD.seal(
            boxKeyPair.secretKey, key: sealingKey,
            associatedData: Self.localAssociatedData(remoteVaultID: remoteVaultID, deviceID: deviceID))
    }

    static func unsealLocally(
        _ sealed: Data, sealingKey: SecretBytes, remoteVaultID: String, deviceID: String
    ) throws -> DeviceKeys {
        try DeviceKeys(
            secretKey: AEAD.open(
                sealed, key: sealingKey,
                associatedData: localAssociatedData(remoteVaultID: remoteVaultID, deviceID: deviceID)))
    }

    static func localAssociatedData(remoteVaultID: String, deviceID: String) -> Data {
        Data("authcat-sync-local-device-key:v1:\(remoteVaultID):\(deviceID)".utf8)
    }
}
