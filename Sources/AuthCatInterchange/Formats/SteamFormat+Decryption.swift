import AuthCatCore
import AuthCatEssentials
import Foundation

extension SteamFormat {
    /// SDA's fixed PBKDF2 count; nothing in its files sets it.
    static let iterations: UInt64 = 50_000
    /// Each encrypted file costs a PBKDF2 of `iterations`: a manifest may
    /// name this many (a few seconds in all), far more than anyone keeps in SDA.
    static let maximumEncryptedFiles = 256
    static let manifestName = "manifest.json"

    /// A manifest's `entries`, each file read from beside it and, when the
    /// manifest says so, decrypted with the one password asked for.
    static func parseManifest(_ manifest: JSONFields, context: ImportContext) throws -> ParsedImport {
        guard let entries = try? manifest.array("entries"), let encrypted = try? manifest.optionalBool("encrypted")
        else {
            throw ImportError.malformed(format, "its manifest's 'entries' or 'encrypted' has the wrong type")
        }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: entries.count)
        if encrypted == true, entries.count > maximumEncryptedFiles {
            throw ImportError.malformed(
                format, "its manifest names more than \(maximumEncryptedFiles) encrypted files, the most authcat reads")
        }
        let password = encrypted == true && !entries.isEmpty ? try context.password() : nil
        for (index, value) in entries.enumerated() {
            let position = EntryPosition.entry(index + 1)
            let fields = try? JSONFields(value)
            let name = (try? fields?.optionalString("filename")) ?? nil
            // Decrypted outside `read`, so that a wrong password stops the import rather than rejecting an entry.
            var maFile: Data?
            if let fields, let name, isPlainName(name), let file = try context.companion(name) {
                maFile = try password.map { try decrypt(file, entry: fields, password: $0) } ?? file
            }
            defer { if let count = maFile?.count { maFile?.resetBytes(in: 0..<count) } }
            try result.read(position, label: name) {
                guard let maFile else { throw EntryProblem.invalid("its file is not beside the manifest") }
                guard let account = try? JSONFields(JSONValue.decode(maFile)) else {
                    throw EntryProblem.invalid("its file is not a plain maFile (JSON)")
                }
                return try entry(account, position: position)
            }
        }
        return result
    }

    /// An encrypted maFile given alone: its manifest must lie beside it.
    static func parseEncryptedFile(_ data: Data, context: ImportContext) throws -> ParsedImport {
        guard let manifestData = try context.companion(manifestName), let name = context.fileName,
            let manifest = try? JSONFields(JSONValue.parse(manifestData, format: format)),
            let entries = try? manifest.array("entries")
        else {
            throw ImportError.malformed(
                format,
                "it is not JSON; an encrypted maFile is read with the manifest.json beside it (or import the manifest)")
        }
        guard
            let entry = entries.compactMap({ try? JSONFields($0) }).first(where: {
                (try? $0.optionalString("filename")) == name
            })
        else {
            throw ImportError.malformed(format, "the manifest.json beside it does not name it")
        }
        var plain = try decrypt(data, entry: entry, password: context.password())
        defer { plain.resetBytes(in: 0..<plain.count) }
        var result = ParsedImport(format: format)
        let account = try JSONFields(JSONValue.decode(plain))
        try result.read(.entry(1), label: label(account)) { try self.entry(account, position: .entry(1)) }
        return result
    }

    /// The maFile JSON inside `file`, which the manifest `entry` gives the IV and salt of.
    /// - Throws: `ImportError.wrongPassword` when it does not decrypt to JSON.
    private static func decrypt(_ file: Data, entry: JSONFields, password: SecretBytes) throws -> Data {
        guard let ivText = try? entry.string("encryption_iv"), let saltText = try? entry.string("encryption_salt"),
            let iv = Data(base64Encoded: ivText), let salt = Data(base64Encoded: saltText),
            iv.count == AESCBC.blockSize, (1...64).contains(salt.count)
        else {
            throw ImportError.malformed(format, "a manifest entry lacks a 16-byte IV or a salt (base64)")
        }
        let text = String(decoding: file, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let ciphertext = Data(base64Encoded: text) else {
            throw ImportError.malformed(format, "an encrypted maFile is not base64")
        }
        let key = try PBKDF2.deriveKey(password: password, salt: salt, iterations: iterations, hash: .sha1)
        do {
            var plaintext = try AESCBC.open(ciphertext, key: key, iv: iv)
            // CBC authenticates nothing: padding that checks by chance under a wrong key leaves no JSON.
            guard (try? JSONValue.decode(plaintext)) != nil else {
                plaintext.resetBytes(in: 0..<plaintext.count)
                throw ImportError.wrongPassword(format)
            }
            return plaintext
        } catch is CryptoError {
            throw ImportError.wrongPassword(format)
        }
    }

    /// A name without a folder: the manifest may not send authcat elsewhere.
    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }
}
