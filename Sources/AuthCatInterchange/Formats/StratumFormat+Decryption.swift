import AuthCatCore
import AuthCatEssentials
import Foundation

extension StratumFormat {
    /// An encrypted backup: a 16-byte ASCII header, then
    ///
    /// - `AUTHENTICATORPRO`: salt (16) ‖ nonce (12) ‖ ciphertext ‖ tag (16);
    ///   AES-256-GCM under Argon2id of the password and the salt with 64 MiB,
    ///   3 passes and 4 lanes (the app's constants, not in the file);
    /// - `AuthenticatorPro` (legacy): salt (20) ‖ IV (16) ‖ ciphertext;
    ///   AES-256-CBC with PKCS#7 padding under PBKDF2-HMAC-SHA-1 of the
    ///   password and the salt, 64,000 iterations. Nothing authenticates it:
    ///   a wrong password shows as bad padding or text that is not JSON.
    ///
    /// The plaintext is the JSON backup.
    struct Sealed {
        static let header = Data("AUTHENTICATORPRO".utf8)
        static let legacyHeader = Data("AuthenticatorPro".utf8)
        static let cost = Argon2id.Cost(memoryKiB: 64 << 10, passes: 3, lanes: 4)
        static let legacyIterations: UInt64 = 64_000

        var legacy: Bool
        var salt: Data
        var nonce: Data
        var ciphertext: Data

        /// The parts of an encrypted backup, or nil when `data` has neither header.
        init?(_ data: Data) throws {
            let body = data.dropFirst(Self.header.count)
            switch data.prefix(Self.header.count) {
            case Self.header:
                legacy = false
                (salt, nonce) = (body.prefix(16), body.dropFirst(16).prefix(12))
                ciphertext = body.dropFirst(28)
                guard ciphertext.count >= AESGCM.tagSize else { throw truncated }
            case Self.legacyHeader:
                legacy = true
                (salt, nonce) = (body.prefix(20), body.dropFirst(20).prefix(AESCBC.blockSize))
                ciphertext = body.dropFirst(20 + AESCBC.blockSize)
                guard !ciphertext.isEmpty, ciphertext.count % AESCBC.blockSize == 0 else { throw truncated }
            default:
                return nil
            }
        }

        private var truncated: ImportError {
            ImportError.malformed(format, "it is an encrypted backup cut short (or damaged)")
        }

        /// The JSON backup inside, with the password `context` gives.
        func open(context: ImportContext) throws -> JSONValue {
            var plaintext = try legacy ? openLegacy(context.password()) : openCurrent(context.password())
            defer { plaintext.resetBytes(in: 0..<plaintext.count) }
            guard let backup = try? JSONValue.decode(plaintext) else {
                // Without a MAC, a wrong legacy password can pass the padding check by chance.
                if legacy { throw ImportError.wrongPassword(format) }
                throw ImportError.malformed(format, "it decrypts, but what it holds is not JSON")
            }
            return backup
        }

        private func openCurrent(_ password: SecretBytes) throws -> Data {
            let key = try Argon2id.deriveKey(password: password, salt: salt, cost: Self.cost)
            do {
                return try AESGCM.open(
                    ciphertext.dropLast(AESGCM.tagSize), key: key, nonce: nonce,
                    tag: ciphertext.suffix(AESGCM.tagSize))
            } catch {
                throw ImportError.wrongPassword(format)
            }
        }

        private func openLegacy(_ password: SecretBytes) throws -> Data {
            let key = try PBKDF2.deriveKey(
                password: password, salt: salt, iterations: Self.legacyIterations, hash: .sha1)
            do {
                return try AESCBC.open(ciphertext, key: key, iv: nonce)
            } catch {
                throw ImportError.wrongPassword(format)
            }
        }
    }
}
