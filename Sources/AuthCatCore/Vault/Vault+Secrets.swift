import AuthCatEssentials
import Foundation

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
            throw VaultError.corrupt(location.databaseURL.path)
        }
    }
}
