import AuthCatCore
import AuthCatEssentials
import Foundation

extension BitwardenFormat {
    /// Opens a password-protected export: `{"encrypted": true,
    /// "passwordProtected": true, "salt", "kdfType", "kdfIterations",
    /// "kdfMemory", "kdfParallelism", "encKeyValidation_DO_NOT_EDIT", "data"}`.
    ///
    /// The password's key is PBKDF2-HMAC-SHA-256 of the password and the salt
    /// text (`kdfType` 0), or Argon2id of the password and SHA-256 of the salt
    /// text with `kdfMemory` MiB, `kdfIterations` passes and `kdfParallelism`
    /// lanes (`kdfType` 1). HKDF-Expand with SHA-256 stretches it into an
    /// encryption key (info "enc") and a MAC key ("mac"), 32 bytes each. The
    /// two strings are Bitwarden EncStrings of type 2, `2.iv|ciphertext|mac`
    /// in base64: AES-256-CBC with PKCS#7 padding under a 16-byte IV, and
    /// HMAC-SHA-256 of IV ‖ ciphertext. `data` holds the unencrypted export's JSON.
    static func decryptExport(_ document: JSONFields, context: ImportContext) throws -> JSONFields {
        guard try document.optionalBool("passwordProtected") == true else {
            throw ImportError.encryptedUnsupported(
                format, hint: "export from Bitwarden again choosing 'Password protected' (or plain .json)")
        }
        let kdf = try KeyDerivation(document)
        let validation = try EncString(document, key: "encKeyValidation_DO_NOT_EDIT")
        let data = try EncString(document, key: "data")
        let keys = try kdf.stretchedKeys(password: context.password())
        var check = try validation.open(keys)
        check.resetBytes(in: 0..<check.count)
        var plaintext = try data.open(keys)
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        guard let inner = try? JSONFields(JSONValue.decode(plaintext)) else {
            throw ImportError.malformed(format, "its decrypted 'data' is not a JSON object")
        }
        return inner
    }

    /// The password's key derivation, bounded before the password is asked for.
    struct KeyDerivation {
        enum Function: Equatable {
            case pbkdf2(iterations: UInt64)
            case argon2id(Argon2id.Cost)
        }

        var function: Function
        var salt: Data

        init(_ document: JSONFields) throws {
            do {
                salt = Data(try document.string("salt").utf8)
                let iterations = try document.int("kdfIterations")
                guard iterations > 0 else { throw EntryProblem.invalid("range") }
                switch try document.int("kdfType") {
                case 0:
                    function = .pbkdf2(iterations: UInt64(iterations))
                case 1:
                    let memory = try document.int("kdfMemory")
                    let lanes = try document.int("kdfParallelism")
                    guard memory > 0, lanes > 0 else { throw EntryProblem.invalid("range") }
                    // Memory in MiB, read as KiB without overflow: 2^53 MiB would not fit.
                    let kibibytes = UInt64(memory).multipliedReportingOverflow(by: 1024)
                    function = .argon2id(
                        Argon2id.Cost(
                            memoryKiB: kibibytes.overflow ? .max : kibibytes.partialValue, passes: UInt64(iterations),
                            lanes: UInt64(lanes)))
                case let type:
                    throw ImportError.malformed(
                        format, "its key derivation (kdfType \(type)) is not one Bitwarden writes")
                }
            } catch is EntryProblem {
                throw ImportError.malformed(format, "its key derivation fields are missing or of the wrong type")
            }
            guard !salt.isEmpty else { throw ImportError.malformed(format, "its 'salt' is empty") }
            try checkCost()
        }

        private func checkCost() throws {
            do {
                switch function {
                case .pbkdf2(let iterations): try PBKDF2.checkIterations(iterations)
                case .argon2id(let cost): try Argon2id.check(cost)
                }
            } catch let error as KeyDerivationLimitError {
                throw error.from("the Bitwarden export")
            } catch CryptoError.invalidInput(let why) {
                throw ImportError.malformed(format, "its key derivation cannot be used (\(why))")
            }
        }

        /// The encryption and MAC keys of `password`.
        func stretchedKeys(password: SecretBytes) throws -> (encryption: SecretBytes, mac: SecretBytes) {
            let key: SecretBytes
            switch function {
            case .pbkdf2(let iterations):
                key = try PBKDF2.deriveKey(password: password, salt: salt, iterations: iterations, hash: .sha256)
            case .argon2id(let cost):
                key = try Argon2id.deriveKey(password: password, salt: Data(SHA256.hash(salt)), cost: cost)
            }
            return (
                try SHA256.expandKey(key, info: Data("enc".utf8), length: 32),
                try SHA256.expandKey(key, info: Data("mac".utf8), length: 32)
            )
        }
    }

    /// A Bitwarden EncString of type 2 (AES-256-CBC, HMAC-SHA-256), its parts' sizes checked.
    struct EncString {
        var iv: Data
        var ciphertext: Data
        var mac: Data

        init(_ document: JSONFields, key: String) throws {
            let text = (try? document.string(key)) ?? ""
            guard text.hasPrefix("2.") else {
                throw ImportError.malformed(format, "its '\(key)' is not an encrypted string of type 2")
            }
            let parts = text.dropFirst(2).split(separator: "|", omittingEmptySubsequences: false)
            let decoded = parts.compactMap { Data(base64Encoded: String($0)) }
            guard parts.count == 3, decoded.count == 3, decoded[0].count == AESCBC.blockSize,
                !decoded[1].isEmpty, decoded[1].count % AESCBC.blockSize == 0, decoded[2].count == SHA256.size
            else {
                throw ImportError.malformed(format, "its '\(key)' is not 'iv|ciphertext|mac' of the right sizes")
            }
            (iv, ciphertext, mac) = (decoded[0], decoded[1], decoded[2])
        }

        /// The plaintext, once the MAC matches; `wrongPassword` when it does not.
        func open(_ keys: (encryption: SecretBytes, mac: SecretBytes)) throws -> Data {
            let expected = SHA256.authenticationCode(for: iv + ciphertext, key: keys.mac)
            guard expected == SecretBytes(mac) else { throw ImportError.wrongPassword(format) }
            do {
                return try AESCBC.open(ciphertext, key: keys.encryption, iv: iv)
            } catch {
                throw ImportError.malformed(format, "it is authentic but its padding is wrong")
            }
        }
    }
}
