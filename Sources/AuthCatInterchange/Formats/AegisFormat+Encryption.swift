import AuthCatCore
import AuthCatEssentials
import Foundation

extension AegisFormat {
    /// The scrypt cost Aegis gives a password slot (N = 2^15, r = 8, p = 1:
    /// 32 MiB), which Aegis on a phone opens in about a second.
    static let exportScrypt = (n: UInt64(1) << 15, r: UInt32(8), p: UInt32(1))

    /// An Aegis vault holding `items`, encrypted as Aegis encrypts its own:
    /// a random master key seals the database with AES-256-GCM (`header.params`),
    /// and one password slot holds the master key sealed with a key that
    /// scrypt derives from `password` and a random salt. Aegis imports it with
    /// "Import from file" and asks for the password.
    static func encryptedDocument(for items: [ExportItem], password: SecretBytes) throws -> Data {
        var database = try JSONSerialization.data(withJSONObject: database(for: items), options: [.sortedKeys])
        defer { database.resetBytes(in: 0..<database.count) }
        let masterKey = try SecretBytes.random(count: AESGCM.keySize)
        let sealedDatabase = try AESGCM.sealWithFreshNonce(database, key: masterKey)
        let salt = try SecretBytes.random(count: 32).unprotectedData()
        let slotKey = try Scrypt.deriveKey(
            password: password, salt: salt, n: exportScrypt.n, r: exportScrypt.r, p: exportScrypt.p)
        var masterKeyBytes = masterKey.unprotectedData()
        defer { masterKeyBytes.resetBytes(in: 0..<masterKeyBytes.count) }
        let sealedKey = try AESGCM.sealWithFreshNonce(masterKeyBytes, key: slotKey)
        let slot: [String: Any] = [
            "type": 1, "uuid": UUID().uuidString.lowercased(), "key": Hex.encode(sealedKey.ciphertext),
            "key_params": ["nonce": Hex.encode(sealedKey.nonce), "tag": Hex.encode(sealedKey.tag)],
            "n": exportScrypt.n, "r": exportScrypt.r, "p": exportScrypt.p, "salt": Hex.encode(salt),
            "repaired": true, "is_backup": false,
        ]
        let header: [String: Any] = [
            "slots": [slot],
            "params": ["nonce": Hex.encode(sealedDatabase.nonce), "tag": Hex.encode(sealedDatabase.tag)],
        ]
        return try encoded(["version": 1, "header": header, "db": sealedDatabase.ciphertext.base64EncodedString()])
    }
}
