import AuthCatCore
import AuthCatEssentials
import Foundation

extension FreeOTPFormat {
    /// Reads FreeOTP 2's backup, a serialized map of strings:
    ///
    /// - `masterKey`: JSON `{"mAlgorithm": "PBKDF2withHmacSHA1"|"PBKDF2withHmacSHA512",
    ///   "mIterations", "mSalt": [bytes], "mEncryptedKey": sealed}`. PBKDF2 of the
    ///   password gives a 32-byte key that opens the sealed 32-byte master key.
    /// - `UUID`: `{"key": "sealed, as a JSON string"}`, the token's secret
    ///   sealed under the master key.
    /// - `UUID-token`: the token's JSON, as FreeOTP 1 keeps it but without its
    ///   secret; its counter is the next code's.
    ///
    /// A sealed value is `{"mCipher": "AES/GCM/NoPadding", "mCipherText": [bytes,
    /// the 16-byte tag last], "mParameters": [DER of the GCM parameters, the
    /// nonce an OCTET STRING], "mToken": name}`; `mToken` (`AES`,
    /// `HmacSHA1`…) is the associated data.
    static func parseBackup(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let map: JavaSerializedStringMap
        do {
            map = try JavaSerializedStringMap(data)
        } catch let failure as JavaSerializedStringMap.Failure {
            throw ImportError.malformed(format, failure.description)
        }
        guard let masterKeyText = map.value("masterKey") else {
            throw ImportError.malformed(format, "its backup has no 'masterKey'")
        }
        let sealedMasterKey = try MasterKey(masterKeyText)
        let masterKey = try sealedMasterKey.open(password: context.password())
        let tokens = map.pairs.filter { $0.key != "masterKey" && !$0.key.hasSuffix("-token") }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: tokens.count)
        for (index, pair) in tokens.enumerated() {
            let position = EntryPosition.entry(index + 1)
            let tokenText = map.value(pair.key + "-token")
            try result.read(position, label: tokenText.flatMap(label(ofToken:))) {
                guard let tokenText else { throw EntryProblem.invalid("its token has no settings") }
                let sealed = try JSONFields(JSONValue.decode(Data((pair.value ?? "").utf8)))
                let sealedSecret = try SealedValue(JSONFields(JSONValue.decode(Data(sealed.string("key").utf8))))
                var token = try JSONFields(JSONValue.decode(Data(tokenText.utf8)))
                if !token.has("algo"), let algorithm = sealedSecret.hmacAlgorithm {
                    token = try JSONFields(.object(token.object.merging(["algo": .string(algorithm)]) { $1 }))
                }
                let secret: SecretBytes
                do {
                    secret = try sealedSecret.open(key: masterKey)
                } catch {
                    throw EntryProblem.invalid("its secret does not decrypt under the backup's master key")
                }
                return try entry(token, secret: secret, counterOffset: 0, position: position)
            }
        }
        return result
    }

    private static func label(ofToken text: String) -> String? {
        guard let token = try? JSONFields(JSONValue.decode(Data(text.utf8))) else { return nil }
        let parts = [try? token.optionalString("issuerExt"), try? token.optionalString("label")]
            .compactMap { $0 ?? nil }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ":")
    }

    /// The password-sealed master key, its KDF checked as it is read.
    struct MasterKey {
        var hash: PBKDF2.Hash
        var iterations: UInt64
        var salt: SecretBytes
        var sealed: SealedValue

        init(_ text: String) throws {
            guard let document = try? JSONValue.decode(Data(text.utf8)) else {
                throw ImportError.malformed(format, "its master key is not JSON")
            }
            do {
                let fields = try JSONFields(document)
                switch try fields.string("mAlgorithm").lowercased() {
                case "pbkdf2withhmacsha1": hash = .sha1
                case "pbkdf2withhmacsha512": hash = .sha512
                default:
                    throw ImportError.malformed(format, "its master key uses a key derivation authcat does not know")
                }
                let iterations = try fields.int("mIterations")
                guard iterations > 0 else { throw EntryProblem.invalid("no iterations") }
                self.iterations = UInt64(iterations)
                salt = try FreeOTPFormat.bytes(fields, "mSalt")
                sealed = try SealedValue(fields.fields("mEncryptedKey"))
            } catch EntryProblem.invalid(let why), EntryProblem.unsupported(let why) {
                throw ImportError.malformed(format, "its master key cannot be read (\(why))")
            }
            do {
                try PBKDF2.checkIterations(iterations)
            } catch let error as KeyDerivationLimitError {
                throw error.from("the FreeOTP backup")
            }
        }

        /// The master key; `wrongPassword` when the password does not open it.
        func open(password: SecretBytes) throws -> SecretBytes {
            let key = try PBKDF2.deriveKey(
                password: password, salt: salt.unprotectedData(), iterations: iterations, hash: hash,
                length: AESGCM.keySize)
            do {
                let masterKey = try sealed.open(key: key)
                guard masterKey.count == AESGCM.keySize else {
                    throw ImportError.malformed(format, "its master key is not an AES-256 key")
                }
                return masterKey
            } catch CryptoError.authenticationFailed {
                throw ImportError.wrongPassword(format)
            }
        }
    }

    /// A value sealed with AES-256-GCM the way FreeOTP's `EncryptedKey` is written.
    struct SealedValue {
        var ciphertext: SecretBytes
        var nonce: Data
        var associatedData: Data

        init(_ fields: JSONFields) throws {
            guard try fields.string("mCipher") == "AES/GCM/NoPadding" else {
                throw EntryProblem.unsupported("it is sealed with a cipher other than AES/GCM/NoPadding")
            }
            ciphertext = try FreeOTPFormat.bytes(fields, "mCipherText")
            guard ciphertext.count > AESGCM.tagSize else {
                throw EntryProblem.invalid("its sealed bytes are too short")
            }
            nonce = try Self.nonce(fromDER: FreeOTPFormat.bytes(fields, "mParameters").unprotectedData())
            associatedData = Data(try fields.string("mToken").utf8)
        }

        /// The algorithm of a token's HMAC key (`mToken` `HmacSHA256` → `SHA256`), if it names one.
        var hmacAlgorithm: String? {
            let name = String(decoding: associatedData, as: UTF8.self)
            return name.hasPrefix("Hmac") ? String(name.dropFirst(4)) : nil
        }

        /// The plaintext; `CryptoError.authenticationFailed` under a wrong key.
        func open(key: SecretBytes) throws -> SecretBytes {
            let sealed = ciphertext.unprotectedData()
            var plaintext = try AESGCM.open(
                sealed.prefix(sealed.count - AESGCM.tagSize), key: key, nonce: nonce,
                tag: sealed.suffix(AESGCM.tagSize), associatedData: associatedData)
            defer { plaintext.resetBytes(in: 0..<plaintext.count) }
            return SecretBytes(plaintext)
        }

        /// The nonce in Java's GCM parameters: an OCTET STRING, alone or
        /// first in a SEQUENCE (with the tag length). Short DER lengths only,
        /// each checked against the bytes there are.
        static func nonce(fromDER der: Data) throws -> Data {
            let bytes = [UInt8](der)
            func element(at start: Int) throws -> (tag: UInt8, body: Range<Int>) {
                guard start + 2 <= bytes.count, bytes[start + 1] < 0x80,
                    start + 2 + Int(bytes[start + 1]) <= bytes.count
                else { throw EntryProblem.invalid("its GCM parameters are not DER") }
                return (bytes[start], (start + 2)..<(start + 2 + Int(bytes[start + 1])))
            }
            var next = try element(at: 0)
            if next.tag == 0x30 { next = try element(at: next.body.lowerBound) }
            guard next.tag == 0x04, !next.body.isEmpty else {
                throw EntryProblem.invalid("its GCM parameters hold no nonce")
            }
            return Data(bytes[next.body])
        }
    }
}
