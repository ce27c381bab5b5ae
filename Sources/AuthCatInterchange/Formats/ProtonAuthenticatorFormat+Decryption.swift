import AuthCatEssentials
import Foundation

extension ProtonAuthenticatorFormat {
    /// The key's Argon2id cost, fixed by the app: the file does not say it.
    static let cost = Argon2id.Cost(memoryKiB: 19 * 1024, passes: 2, lanes: 1)
    static let saltSize = 16
    /// Bound to every encrypted export, so that no other sealed text of the app opens as one.
    static let associatedData = Data("proton.authenticator.export.v1".utf8)

    /// Whether `object` is an export sealed with a password: `{"version",
    /// "salt", "content"}` and no `entries`.
    static func isSealed(_ object: [String: JSONValue]) -> Bool {
        object["entries"] == nil && object["salt"]?.stringValue != nil && object["content"]?.stringValue != nil
    }

    /// Opens an export sealed with a password: `salt` is 16 bytes (base64),
    /// `content` the 12-byte nonce, the AES-256-GCM ciphertext and its 16-byte
    /// tag (base64). The key is Argon2id of the password and the salt, 32
    /// bytes. The plaintext is the plain export; the caller wipes it.
    static func decryptExport(_ document: JSONFields, context: ImportContext) throws -> Data {
        let salt = try document.optionalString("salt").flatMap { Data(base64Encoded: $0) }
        let content = try document.optionalString("content").flatMap { Data(base64Encoded: $0) }
        guard let salt, salt.count == saltSize else {
            throw ImportError.malformed(format, "'salt' is not \(saltSize) bytes in base64")
        }
        guard let content, content.count >= AESGCM.nonceSize + AESGCM.tagSize else {
            throw ImportError.malformed(format, "'content' is too short for a nonce and a tag in base64")
        }
        let key = try Argon2id.deriveKey(password: context.password(), salt: salt, cost: cost)
        do {
            return try AESGCM.open(
                content.dropFirst(AESGCM.nonceSize).dropLast(AESGCM.tagSize), key: key,
                nonce: content.prefix(AESGCM.nonceSize), tag: content.suffix(AESGCM.tagSize),
                associatedData: associatedData)
        } catch {
            throw ImportError.wrongPassword(format)
        }
    }
}
