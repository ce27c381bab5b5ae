import AuthCatCore
import AuthCatEssentials
import Foundation

extension AegisFormat {
    /// Opens an encrypted vault's `db`: the password, through scrypt with a
    /// password slot's `n`, `r`, `p` and `salt`, gives a key that
    /// AES-256-GCM-decrypts the slot's `key` (with `key_params` nonce and tag)
    /// into the master key; the master key decrypts the base64 `db` with
    /// `header.params` nonce and tag. Hex everywhere but `db`.
    static func decryptDatabase(
        _ encrypted: String, header document: JSONFields, context: ImportContext
    ) throws -> JSONValue {
        let header = try fields(of: document.object["header"] ?? .null, what: "'header'")
        let slots = try passwordSlots(header)
        guard !slots.isEmpty else {
            throw ImportError.malformed(format, "it is encrypted but has no password slot (only biometric unlock?)")
        }
        // Every slot's cost is checked before the password is asked for and before the first derivation.
        try slots.forEach(checkCost)
        let masterKey = try unlock(slots, password: context.password())
        let params = try fields(of: header.object["params"] ?? .null, what: "'header.params'")
        guard let ciphertext = Data(base64Encoded: encrypted, options: .ignoreUnknownCharacters) else {
            throw ImportError.malformed(format, "its encrypted 'db' is not base64")
        }
        var plaintext = try open(ciphertext, key: masterKey, params: params, what: "header.params")
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        do {
            return try JSONValue.decode(plaintext)
        } catch {
            throw ImportError.malformed(format, "its decrypted 'db' is not JSON")
        }
    }

    /// A password slot: type 1, with scrypt parameters.
    struct PasswordSlot {
        var key: Data
        var keyParams: JSONFields
        var n: UInt64
        var r: UInt32
        var p: UInt32
        var salt: Data
    }

    /// The most slots a header may list. Aegis writes one password slot and
    /// perhaps a biometric one per device; each password slot costs a scrypt
    /// derivation, so a file with thousands would take hours.
    static let maximumSlots = 16

    private static func passwordSlots(_ header: JSONFields) throws -> [PasswordSlot] {
        guard case .array(let slots)? = header.object["slots"] else {
            throw ImportError.malformed(format, "it is encrypted but 'header.slots' is not a list")
        }
        guard slots.count <= maximumSlots else {
            throw ImportError.malformed(
                format, "its header lists \(slots.count) key slots; authcat reads at most \(maximumSlots)")
        }
        return try slots.compactMap { value in
            do {
                let slot = try JSONFields(value)
                guard try slot.int("type") == 1 else { return nil }
                guard let key = Hex.decode(try slot.string("key")), let salt = Hex.decode(try slot.string("salt"))
                else {
                    throw EntryProblem.invalid("not hex")
                }
                let n = try slot.int("n")
                let r = try slot.int("r")
                let p = try slot.int("p")
                guard n > 0, r > 0, p > 0, r <= Int(UInt32.max), p <= Int(UInt32.max) else {
                    throw EntryProblem.invalid("range")
                }
                return PasswordSlot(
                    key: key, keyParams: try slot.fields("key_params"), n: UInt64(n), r: UInt32(r), p: UInt32(p),
                    salt: salt)
            } catch is EntryProblem {
                throw ImportError.malformed(format, "a password slot is incomplete or has fields of the wrong type")
            }
        }
    }

    private static func checkCost(_ slot: PasswordSlot) throws {
        do {
            try Scrypt.checkParameters(n: slot.n, r: slot.r, p: slot.p)
        } catch AuthCatEssentials.CryptoError.invalidInput(let why) {
            throw ImportError.malformed(format, "its password slot has unusable scrypt parameters (\(why))")
        } catch let error as KeyDerivationLimitError {
            throw error.from("the Aegis file")
        }
    }

    /// The master key from the first slot the password opens.
    private static func unlock(_ slots: [PasswordSlot], password: SecretBytes) throws -> SecretBytes {
        for slot in slots {
            let slotKey: SecretBytes
            do {
                slotKey = try Scrypt.deriveKey(password: password, salt: slot.salt, n: slot.n, r: slot.r, p: slot.p)
            } catch AuthCatEssentials.CryptoError.invalidInput(let why) {
                throw ImportError.malformed(format, "its password slot is unusable (\(why))")
            }
            do {
                var master = try open(slot.key, key: slotKey, params: slot.keyParams, what: "key_params")
                defer { master.resetBytes(in: 0..<master.count) }
                return SecretBytes(master)
            } catch ImportError.wrongPassword {
                continue
            }
        }
        throw ImportError.wrongPassword(format)
    }

    /// AES-256-GCM decryption with the hex `nonce` and `tag` of `params`;
    /// throws `wrongPassword` when authentication fails.
    private static func open(_ ciphertext: Data, key: SecretBytes, params: JSONFields, what: String) throws -> Data {
        guard let nonceText = try? params.string("nonce"), let tagText = try? params.string("tag"),
            let nonceBytes = Hex.decode(nonceText), let tag = Hex.decode(tagText)
        else {
            throw ImportError.malformed(format, "'\(what)' lacks a hex nonce or tag")
        }
        guard key.count == AESGCM.keySize, tag.count == AESGCM.tagSize, !nonceBytes.isEmpty else {
            throw ImportError.malformed(format, "'\(what)' has a nonce, tag or key of the wrong size")
        }
        do {
            return try AESGCM.open(ciphertext, key: key, nonce: nonceBytes, tag: tag)
        } catch {
            throw ImportError.wrongPassword(format)
        }
    }
}
