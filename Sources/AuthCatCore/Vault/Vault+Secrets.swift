import AuthCatEssentials
import Foundation

/// Secrets and PINs, sealed under the vault key with the account id bound to them.
extension Vault {
    /// The secret of account `id`, decrypted; needs the vault key.
    public func secret(for id: UUID) throws -> SecretBytes {
        let sealed = try translatingErrors { db in try Self.reader(db).sealed(id: id) }
        guard let sealed else { throw VaultError.notFound(id.vaultString) }
        return try openSecret(sealed.secret, for: id)
    }

    /// Seals a secret under the vault key with the account id as associated
    /// data, so a sealed secret moved to another account fails to open.
    func seal(_ secret: SecretBytes, for id: UUID) throws -> Data {
        try AEAD.seal(secret, key: key(), associatedData: Data(id.vaultString.utf8))
    }

    func openSecret(_ sealed: Data, for id: UUID) throws -> SecretBytes {
        do {
            return try AEAD.open(sealed, key: key(), associatedData: Data(id.vaultString.utf8))
        } catch CryptoError.authenticationFailed {
            throw VaultStoreError.corrupt(location.databaseURL.path)
        }
    }

    // MARK: PINs

    // The PIN of Yandex and mOTP accounts: sealed like the secret, under the
    // vault key, with associated data `pin:` + the account id, so that neither
    // a sealed PIN moved to another account nor one swapped with a sealed
    // secret opens.

    /// The PIN of account `id`, decrypted; nil for kinds without one. Needs the vault key.
    public func pin(for id: UUID) throws -> SecretBytes? {
        let sealed = try translatingErrors { db in try Self.reader(db).sealed(id: id) }
        guard let sealed else { throw VaultError.notFound(id.vaultString) }
        return try sealed.pin.map { try openPIN($0, for: id) }
    }

    func sealPIN(_ pin: SecretBytes, for id: UUID) throws -> Data {
        try AEAD.seal(pin, key: key(), associatedData: Self.pinAssociatedData(id))
    }

    func openPIN(_ sealed: Data, for id: UUID) throws -> SecretBytes {
        do {
            return try AEAD.open(sealed, key: key(), associatedData: Self.pinAssociatedData(id))
        } catch CryptoError.authenticationFailed {
            throw VaultStoreError.corrupt(location.databaseURL.path)
        }
    }

    private static func pinAssociatedData(_ id: UUID) -> Data {
        Data(("pin:" + id.vaultString).utf8)
    }
}
