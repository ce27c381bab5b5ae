import AuthCatCore
import AuthCatEssentials
import Foundation

extension AndOTPFormat {
    static let saltSize = 12
    static let nonceSize = 12
    /// The least plaintext a backup can hold: `[]`.
    static let smallestPlaintext = 2

    /// Opens an encrypted backup (`.json.aes`): AES-256-GCM over the JSON
    /// list, as `nonce (12) ‖ ciphertext ‖ tag (16)`. Since andOTP 0.6.3 that
    /// follows a header, `iterations (4, big-endian) ‖ salt (12)`, and the
    /// key is PBKDF2-HMAC-SHA-1 of the password, 32 bytes; before, there was
    /// no header and the key was SHA-256 of the password.
    ///
    /// Nothing in the file tells the two apart: an old backup starts with
    /// its random nonce. So a header whose count is within `PBKDF2`'s bound
    /// is tried as the current layout first; the old layout, one hash, is
    /// tried always. A count beyond the bound is never run: such a file is
    /// read as an old backup only.
    static func decrypt(_ data: Data, context: ImportContext) throws -> JSONValue {
        guard data.count >= nonceSize + AESGCM.tagSize + smallestPlaintext else {
            throw ImportError.malformed(format, "it is neither JSON nor long enough to be an encrypted backup")
        }
        let current = CurrentLayout(data)
        let password = try context.password()
        if let current, let plaintext = open(current.sealed, key: try current.key(password)) {
            return try document(plaintext)
        }
        if let plaintext = open(data, key: SHA256.hash(password)) { return try document(plaintext) }
        throw ImportError.wrongPassword(format)
    }

    /// The header of the current layout, when its iteration count is one authcat runs.
    struct CurrentLayout {
        var iterations: UInt64
        var salt: Data
        var sealed: Data

        init?(_ data: Data) {
            let header = 4 + saltSize
            guard data.count >= header + nonceSize + AESGCM.tagSize + smallestPlaintext else { return nil }
            let bytes = Array(data.prefix(4))
            iterations = bytes.reduce(0) { $0 << 8 | UInt64($1) }
            guard (try? PBKDF2.checkIterations(iterations)) != nil else { return nil }
            salt = data.dropFirst(4).prefix(saltSize)
            sealed = data.dropFirst(header)
        }

        func key(_ password: SecretBytes) throws -> SecretBytes {
            try PBKDF2.deriveKey(password: password, salt: salt, iterations: iterations, hash: .sha1)
        }
    }

    /// The plaintext of `nonce ‖ ciphertext ‖ tag`, or nil when the tag does not match.
    private static func open(_ sealed: Data, key: SecretBytes) -> Data? {
        let nonce = sealed.prefix(nonceSize)
        let ciphertext = sealed.dropFirst(nonceSize).dropLast(AESGCM.tagSize)
        return try? AESGCM.open(
            Data(ciphertext), key: key, nonce: Data(nonce), tag: Data(sealed.suffix(AESGCM.tagSize)))
    }

    private static func document(_ plaintext: Data) throws -> JSONValue {
        var plaintext = plaintext
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        guard let document = try? JSONValue.decode(plaintext) else {
            throw ImportError.malformed(format, "it decrypts, but what it holds is not JSON")
        }
        return document
    }
}
