import AuthCatCore
import AuthCatEssentials
import Foundation

/// A Bitwarden JSON export, unencrypted or password-protected
/// (`BitwardenFormat+Decryption.swift`). Only login items with a `login.totp`
/// become accounts; it holds an `otpauth://` URI, a `steam://SECRET` or a
/// bare Base32 secret. A bare secret is named by the item's name (issuer)
/// and its username; the item's notes become the note and its folder a tag.
public enum BitwardenFormat: ImportFormatParser {
    public static let format = ImportFormat.bitwarden

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        var document = try JSONFields.document(data, format: format)
        if try document.optionalBool("encrypted") == true {
            document = try decryptExport(document, context: context)
        }
        guard case .array(let items)? = document.object["items"] else {
            throw ImportError.malformed(format, "it has no 'items' list")
        }
        let folders = try folderNames(document)
        var result = ParsedImport(format: format)
        var withoutCode = 0
        for (index, value) in items.enumerated() {
            guard hasTOTP(value) else {
                withoutCode += 1
                continue
            }
            let position = EntryPosition(number: index + 1, description: "item \(index + 1)")
            try result.read(position, label: label(of: value)) {
                try entry(value, folders: folders, position: position)
            }
        }
        if withoutCode > 0 {
            result.warnings.append(
                "\(withoutCode) item\(withoutCode == 1 ? " has" : "s have") no TOTP secret and \(withoutCode == 1 ? "was" : "were") ignored"
            )
        }
        return result
    }

    static func entry(_ value: JSONValue, folders: [String: String], position: EntryPosition) throws -> ImportEntry {
        let item = try JSONFields(value)
        let login = try item.fields("login")
        let totp = try login.string("totp").trimmingCharacters(in: .whitespacesAndNewlines)
        let itemName = try item.optionalString("name") ?? ""
        var draft: AccountDraft
        if totp.lowercased().hasPrefix("otpauth://") {
            draft = try OTPAuthFormat.entry(Substring(totp), position: position).draft
            if draft.issuer.isEmpty && draft.name.caseInsensitiveCompare(itemName) != .orderedSame {
                draft.issuer = itemName
            }
        } else if let steam = try SteamFormat.draft(
            fromURI: totp, issuer: itemName, name: try login.optionalString("username") ?? "")
        {
            draft = steam
        } else {
            draft = try AccountDraft(
                issuer: itemName, name: try login.optionalString("username") ?? "", base32Secret: totp)
        }
        draft.note = try item.optionalString("notes") ?? ""
        if let folder = try item.optionalString("folderId").flatMap({ folders[$0] }) {
            draft.tags = Account.normalizedTags([folder])
        }
        return try ImportEntry(position: position, draft: draft)
    }

    private static func hasTOTP(_ value: JSONValue) -> Bool {
        guard let item = try? JSONFields(value), let login = try? item.fields("login") else { return false }
        switch login.object["totp"] {
        case nil, .null?: return false
        case .string(let text)?: return !text.trimmingCharacters(in: .whitespaces).isEmpty
        default: return true
        }
    }

    private static func folderNames(_ document: JSONFields) throws -> [String: String] {
        guard let list = try? document.array("folders") else {
            throw ImportError.malformed(format, "its 'folders' is not a list")
        }
        var names: [String: String] = [:]
        for value in list {
            if let folder = try? JSONFields(value), let id = try? folder.string("id"),
                let name = try? folder.string("name")
            {
                names[id] = name
            }
        }
        return names
    }

    private static func label(of value: JSONValue) -> String? {
        guard let item = try? JSONFields(value), let name = try? item.optionalString("name") else { return nil }
        return name.isEmpty ? nil : name
    }
}
