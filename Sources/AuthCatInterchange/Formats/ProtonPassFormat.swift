import AuthCatCore
import AuthCatEssentials
import Foundation

/// Proton Pass's export (Settings → Export, ZIP): a ZIP archive holding
/// `Proton Pass/data.json`, or that file alone: `{"version", "userId",
/// "encrypted": false, "vaults": {ID: {"name", "items": [item]}}}`, an item
/// `{"itemId", "state", "data": {"type", "metadata": {"name", "note"},
/// "content": {"itemUsername", "itemEmail", "totpUri", …}, "extraFields":
/// [{"fieldName", "type", "data": {"totpUri"}}]}}`. A login's `totpUri` and
/// each extra field of type `totp` hold an `otpauth://` URI or a bare Base32
/// secret; each becomes an account, named by its URI or by the item's name
/// (issuer) and its username (else its email; `username` in exports before
/// 1.18), an item's later code also by its field's name. The vault's name
/// becomes a tag, the note the note. Items in the trash (`state` 2) are
/// reported, not imported. Its CSV export is read too (`ProtonPassFormat+CSV.swift`);
/// its encrypted export (`.pgp`, the ZIP archive sealed with a passphrase in
/// OpenPGP) is opened by the command line with the user's gpg, then read here.
public enum ProtonPassFormat: ImportFormatParser {
    public static let format = ImportFormat.protonPass

    /// The archive's file that holds the items.
    static let dataPath = "Proton Pass/data.json"

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        if isSealed(data) {
            throw ImportError.encryptedUnsupported(format, hint: "decrypt it first: gpg --decrypt FILE.pgp > FILE.zip")
        }
        if !BoundedZIP.looksLike(data) && !FormatDetector.startsLikeJSON(data) { return try parseCSV(data) }
        var json = try BoundedZIP.file(dataPath, of: data, format: format)
        defer { json.resetBytes(in: 0..<json.count) }
        let document = try JSONFields.document(json, format: format)
        if try document.optionalBool("encrypted") == true {
            throw ImportError.encryptedUnsupported(
                format, hint: "export it again from Proton Pass as a ZIP file without encryption")
        }
        guard case .object(let vaults)? = document.object["vaults"] else {
            throw ImportError.malformed(format, "it has no 'vaults' object")
        }
        var result = ParsedImport(format: format)
        var withoutCode = 0
        // The file's vaults by name (then ID), so that positions stay the same from run to run.
        let named = vaults.map { (id: $0.key, vault: try? JSONFields($0.value)) }
            .map { (id: $0.id, vault: $0.vault, name: (try? $0.vault?.optionalString("name")).flatMap { $0 } ?? "") }
            .sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        for (_, vault, name) in named {
            for (index, value) in ((try? vault?.array("items")) ?? []).enumerated() {
                let item = Item(value, vault: name)
                guard !item.codes.isEmpty else {
                    withoutCode += 1
                    continue
                }
                let place = "vault '\(TerminalText.sanitized(name))', item \(index + 1)"
                try LoginCode.read(item.codes, title: item.title, at: place, into: &result) {
                    try item.entry($0, suffix: $1, position: $2)
                }
            }
        }
        LoginCode.noteItemsWithoutCode(withoutCode, in: &result)
        return result
    }

    /// Whether `data` is an OpenPGP message sealed with a passphrase, as the
    /// encrypted export is: armored, or binary starting with a
    /// symmetric-key encrypted session key packet (tag 3, in the old or the
    /// new packet format, with a one-byte length and version 4 to 6), which
    /// a random first few bytes (an encrypted andOTP backup's) match about
    /// once in ten million.
    public static func isSealed(_ data: Data) -> Bool {
        if data.starts(with: Array("-----BEGIN PGP MESSAGE-----".utf8)) { return true }
        let head = Array(data.prefix(4))
        guard head.count == 4, head[0] == 0x8c || head[0] == 0xc3 else { return false }
        return (4..<192).contains(head[1]) && (4...6).contains(head[2]) && (1...13).contains(head[3])
    }

    /// One item of a vault, with the codes it holds.
    struct Item {
        var item: JSONFields?
        var data: JSONFields?
        var vault: String
        var codes: [LoginCode] = []

        init(_ value: JSONValue, vault: String) {
            self.vault = vault
            item = try? JSONFields(value)
            data = try? item?.fields("data")
            let content = try? data?.fields("content")
            if let uri = (try? content?.optionalString("totpUri")).flatMap({ $0 }), !uri.isEmpty {
                codes.append(LoginCode(field: "", code: uri))
            }
            for value in (try? data?.array("extraFields")) ?? [] {
                guard let field = try? JSONFields(value), (try? field.optionalString("type")) == "totp" else {
                    continue
                }
                codes.append(
                    LoginCode(
                        field: (try? field.optionalString("fieldName")).flatMap { $0 } ?? "",
                        code: (try? field.fields("data").optionalString("totpUri")).flatMap { $0 } ?? ""))
            }
        }

        var title: String { (try? data?.fields("metadata").optionalString("name")).flatMap { $0 } ?? "" }

        func entry(_ code: LoginCode, suffix: String?, position: EntryPosition) throws -> ImportEntry {
            guard let item, let data else { throw EntryProblem.invalid("field 'data' is missing") }
            if try item.optionalInt("state") == 2 { throw EntryProblem.unsupported("it is in Proton Pass's trash") }
            var draft = try code.draft(title: title, userName: try userName(), suffix: suffix, position: position)
            draft.tags = Account.normalizedTags([vault])
            draft.note = try data.has("metadata") ? data.fields("metadata").optionalString("note") ?? "" : ""
            return try ImportEntry(position: position, draft: draft)
        }

        /// The login's username, else its email (`username` before Proton Pass 1.18, which held either).
        private func userName() throws -> String {
            guard let content = try data?.has("content") == true ? data?.fields("content") : nil else { return "" }
            for key in ["itemUsername", "itemEmail", "username"] {
                if let value = try content.optionalString(key), !value.isEmpty { return value }
            }
            return ""
        }
    }
}
