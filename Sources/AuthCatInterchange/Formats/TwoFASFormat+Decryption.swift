import AuthCatCore
import AuthCatEssentials
import Foundation

extension TwoFASFormat {
    /// 2FAS derives its key with PBKDF2-HMAC-SHA-256 and this many
    /// iterations, in every schema version; the file does not say it.
    static let iterations: UInt64 = 10_000
    /// The longest salt read: 2FAS writes 256 bytes.
    static let maximumSaltSize = 1024
    static let nonceSize = 12

    /// Opens a password-protected backup's `servicesEncrypted`, which holds
    /// three base64 parts joined by colons: the AES-256-GCM ciphertext with
    /// its 16-byte tag appended, the salt and the 12-byte nonce. The key is
    /// PBKDF2-HMAC-SHA-256 of the password and the salt, 32 bytes. The
    /// plaintext is the JSON list that a plain backup keeps in `services`.
    /// (`reference` has the same layout under the same key and holds a fixed
    /// text by which 2FAS checks a password; the services' own tag checks it here.)
    static func decryptServices(_ encrypted: String, context: ImportContext) throws -> [JSONValue] {
        let sealed = try SealedServices(encrypted)
        let key = try PBKDF2.deriveKey(
            password: context.password(), salt: sealed.salt, iterations: iterations, hash: .sha256)
        var plaintext: Data
        do {
            plaintext = try AESGCM.open(sealed.ciphertext, key: key, nonce: sealed.nonce, tag: sealed.tag)
        } catch {
            throw ImportError.wrongPassword(format)
        }
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        guard case .array(let services)? = try? JSONValue.decode(plaintext) else {
            throw ImportError.malformed(format, "its decrypted services are not a JSON list")
        }
        return services
    }

    /// The three parts of `servicesEncrypted`, their sizes checked before the password is asked for.
    struct SealedServices {
        var ciphertext: Data
        var tag: Data
        var salt: Data
        var nonce: Data

        init(_ text: String) throws {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            let decoded = parts.compactMap { Data(base64Encoded: String($0)) }
            guard parts.count == 3, decoded.count == 3 else {
                throw ImportError.malformed(format, "'servicesEncrypted' is not three base64 parts joined by ':'")
            }
            guard decoded[0].count >= AESGCM.tagSize, (1...maximumSaltSize).contains(decoded[1].count),
                decoded[2].count == nonceSize
            else {
                throw ImportError.malformed(
                    format, "'servicesEncrypted' has a ciphertext, salt or nonce of the wrong size")
            }
            ciphertext = decoded[0].dropLast(AESGCM.tagSize)
            tag = decoded[0].suffix(AESGCM.tagSize)
            salt = decoded[1]
            nonce = decoded[2]
        }
    }
}
