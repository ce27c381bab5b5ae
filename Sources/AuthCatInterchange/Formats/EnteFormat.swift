import AuthCatCore
import AuthCatEssentials
import Foundation

/// Ente Auth's encrypted export: `{"version": 1, "kdfParams": {"memLimit",
/// "opsLimit", "salt"}, "encryptedData", "encryptionNonce"}`. The key is
/// libsodium's `crypto_pwhash` (Argon2id 1.3, one lane) of the password and
/// the 16-byte salt with `memLimit` bytes and `opsLimit` passes; the data is
/// one chunk of `crypto_secretstream_xchacha20poly1305`, tagged final, whose
/// 24-byte header is `encryptionNonce`; base64 everywhere. The plaintext is
/// Ente's plain export, `otpauth://` lines (read as `OTPAuthFormat` reads them).
public enum EnteFormat: ImportFormatParser {
    public static let format = ImportFormat.ente

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let document = try JSONFields.document(data, format: format)
        let sealed = try Sealed(document)
        var plaintext = try sealed.open(password: context.password())
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        var result = try OTPAuthFormat.parse(plaintext, context: context)
        result.format = format
        return result
    }

    /// What the file holds, every size and cost checked before the password is asked for.
    struct Sealed {
        var cost: Argon2id.Cost
        var salt: Data
        var header: Data
        var ciphertext: Data

        init(_ document: JSONFields) throws {
            do {
                let kdf = try document.fields("kdfParams")
                guard let salt = Data(base64Encoded: try kdf.string("salt")),
                    let header = Data(base64Encoded: try document.string("encryptionNonce")),
                    let ciphertext = Data(base64Encoded: try document.string("encryptedData"))
                else { throw EntryProblem.invalid("not base64") }
                let memLimit = try kdf.int("memLimit")
                let opsLimit = try kdf.int("opsLimit")
                guard memLimit > 0, opsLimit > 0 else { throw EntryProblem.invalid("range") }
                (self.salt, self.header, self.ciphertext) = (salt, header, ciphertext)
                // libsodium's memLimit is in bytes, libargon2's in KiB: same derivation, one lane.
                guard memLimit % 1024 == 0 else { throw EntryProblem.invalid("memLimit") }
                cost = Argon2id.Cost(memoryKiB: UInt64(memLimit) / 1024, passes: UInt64(opsLimit), lanes: 1)
                try Self.check(cost)
            } catch is EntryProblem {
                throw ImportError.malformed(
                    format, "'kdfParams', 'encryptedData' or 'encryptionNonce' is missing or invalid")
            }
            guard salt.count == KDFParameters.saltSize, header.count == SecretStream.headerSize,
                ciphertext.count >= SecretStream.overhead
            else {
                throw ImportError.malformed(format, "its salt, nonce or encrypted data has the wrong size")
            }
        }

        private static func check(_ cost: Argon2id.Cost) throws {
            do {
                try Argon2id.check(cost)
            } catch let error as KeyDerivationLimitError {
                throw error.from("the Ente Auth export")
            } catch CryptoError.invalidInput(let why) {
                throw ImportError.malformed(format, "its key derivation cannot be used (\(why))")
            }
        }

        /// The plaintext, or `wrongPassword` when the stream does not open.
        func open(password: SecretBytes) throws -> Data {
            let key = try Argon2id.deriveKey(password: password, salt: salt, cost: cost, length: SecretStream.keySize)
            let chunk: (plaintext: Data, tag: SecretStream.Tag)
            do {
                chunk = try SecretStream.decrypting(key: key, header: header).open(ciphertext)
            } catch {
                throw ImportError.wrongPassword(format)
            }
            guard chunk.tag == .final else {
                var plaintext = chunk.plaintext
                plaintext.resetBytes(in: 0..<plaintext.count)
                throw ImportError.malformed(format, "its encrypted data is not one final chunk")
            }
            return chunk.plaintext
        }
    }
}
