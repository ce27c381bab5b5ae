#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The vault key file (`vault.key`): the random 32-byte vault key, stored in
/// the clear (protected by mode 0600) or wrapped under an Argon2id-derived
/// key from the user's passphrase. Format in docs/FORMAT.md.
public struct VaultKeyFile: Codable, Equatable, Sendable {
    public static let formatName = "authcat-vault-key"
    public static let currentVersion = 1

    public enum Protection: String, Codable, Sendable {
        case none
        case passphrase
    }

    public var format: String
    public var version: Int
    public var vaultID: String
    public var protection: Protection
    /// The vault key, base64, when `protection` is `none`.
    public var key: Data?
    /// KDF parameters and the sealed key, when `protection` is `passphrase`.
    public var kdf: KDFParameters?
    public var wrappedKey: Data?

    enum CodingKeys: String, CodingKey {
        case format, version, protection, key, kdf
        case vaultID = "vault_id"
        case wrappedKey = "wrapped_key"
    }

    public static func plain(vaultID: String, key: SecretBytes) -> VaultKeyFile {
        VaultKeyFile(
            format: formatName, version: currentVersion, vaultID: vaultID, protection: .none,
            key: key.unprotectedData(), kdf: nil, wrappedKey: nil)
    }

    public static func wrapped(
        vaultID: String, key: SecretBytes, passphrase: SecretBytes, kdf: KDFParameters
    ) throws -> VaultKeyFile {
        let wrapping = try kdf.deriveKey(from: passphrase)
        let sealed = try AEAD.seal(key, key: wrapping, associatedData: associatedData(vaultID: vaultID))
        return VaultKeyFile(
            format: formatName, version: currentVersion, vaultID: vaultID, protection: .passphrase,
            key: nil, kdf: kdf, wrappedKey: sealed)
    }

    /// Binds a wrapped key to its vault, so a key file cannot be passed off as another vault's.
    public static func associatedData(vaultID: String) -> Data {
        Data("authcat-vault-key:v1:\(vaultID)".utf8)
    }

    /// Whether the fields its protection needs are there: a whole key, or a KDF and a wrapped key.
    var isComplete: Bool {
        switch protection {
        case .none: key?.count == AEAD.keySize
        case .passphrase: kdf != nil && wrappedKey != nil
        }
    }

    /// The vault key; `passphrase` is asked for only when the key is wrapped.
    /// A file that `read(from:)` accepted is complete; one built otherwise and
    /// incomplete is reported as damaged, like a damaged file.
    public func unlock(passphrase: () throws -> SecretBytes) throws -> SecretBytes {
        let damaged = VaultError.invalidKeyFile("vault.key")
        switch protection {
        case .none:
            guard let key, key.count == AEAD.keySize else { throw damaged }
            return SecretBytes(key)
        case .passphrase:
            guard let kdf, let wrappedKey else { throw damaged }
            let wrapping = try kdf.deriveKey(from: try passphrase())
            do {
                let key = try AEAD.open(
                    wrappedKey, key: wrapping, associatedData: Self.associatedData(vaultID: vaultID))
                guard key.count == AEAD.keySize else { throw damaged }
                return key
            } catch CryptoError.authenticationFailed {
                throw VaultError.wrongPassphrase
            }
        }
    }

    public static func read(from url: URL) throws -> VaultKeyFile {
        try read(atPath: url.path)
    }

    /// The key file at `path`; the quick front reads it by path, without a `URL`.
    /// In the writer's plain form it is read without `JSONDecoder`
    /// (`plainForm`), which judges any other form, as it always has.
    public static func read(atPath path: String) throws -> VaultKeyFile {
        // A key file is under 400 bytes; anything far larger is not one, and is not read whole.
        let limit = 64 * 1024
        guard let bytes = SecureFile.contents(atPath: path, limit: limit) else {
            throw (SecureFile.size(of: path) ?? 0) > limit ? VaultError.invalidKeyFile(path) : .missingKeyFile(path)
        }
        guard let file = plainForm(bytes) ?? (try? JSONDecoder().decode(VaultKeyFile.self, from: Data(bytes))),
            file.format == formatName, file.version == currentVersion, file.isComplete
        else { throw VaultError.invalidKeyFile(path) }
        return file
    }

    public func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try SecureFile.writeAtomically(try encoder.encode(self), to: url)
    }

    /// The vault key if it can be had without asking anyone: stored plainly,
    /// or kept in the keyring by `authcat unlock`. The key is not checked
    /// against the vault here; the caller does that (a sealed value fails to open).
    public func keyWithoutPrompt() -> SecretBytes? {
        switch protection {
        case .none: try? unlock(passphrase: { throw VaultError.passphraseRequired })
        case .passphrase: VaultKeyring.entry(vaultID: vaultID)?.key
        }
    }
}
