import AuthCatCore
import AuthCatEssentials
import Foundation

/// 1Password's export, a `.1pux` file (1PUX, 1Password 8): a ZIP archive
/// holding `export.attributes` and `export.data`, JSON of
/// `{"accounts": [{"vaults": [{"attrs": {"name"}, "items": [item]}]}]}`, or
/// that `export.data` alone. An item's one-time passwords are the fields of
/// `details.sections[].fields[]` (and of `details.loginFields`) whose `value`
/// is `{"totp": code}`, the code an `otpauth://` URI or a bare Base32 secret;
/// each becomes an account, named by its URI or by `overview.title` (issuer,
/// else the host of `overview.url`) and the login's username, the item's
/// second code also by its field's title. `overview.tags` become tags,
/// `details.notesPlain` the note. Archived and deleted items (`state`, or
/// `trashed` in older exports, which wrap each item in `{"item": …}`) are
/// reported, not imported.
public enum OnePasswordFormat: ImportFormatParser {
    public static let format = ImportFormat.onePassword

    /// The archive's file that holds the items.
    static let dataPath = "export.data"

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        var json = try BoundedZIP.file(dataPath, of: data, format: format)
        defer { json.resetBytes(in: 0..<json.count) }
        let document = try JSONFields.document(json, format: format)
        guard case .array(let accounts)? = document.object["accounts"] else {
            throw ImportError.malformed(format, "it has no 'accounts' list")
        }
        var result = ParsedImport(format: format)
        var withoutCode = 0
        var vaultNumber = 0
        for account in accounts {
            for vault in (try? JSONFields(account).array("vaults")) ?? [] {
                vaultNumber += 1
                let items = (try? JSONFields(vault).array("items")) ?? []
                for (index, value) in items.enumerated() {
                    let item = Item(value)
                    guard !item.codes.isEmpty else {
                        withoutCode += 1
                        continue
                    }
                    try item.read(into: &result, at: "vault \(vaultNumber), item \(index + 1)")
                }
            }
        }
        LoginCode.noteItemsWithoutCode(withoutCode, in: &result)
        return result
    }

    /// One item of a vault, with the codes it holds.
    struct Item {
        var fields: JSONFields?
        var codes: [LoginCode] = []

        init(_ value: JSONValue) {
            fields = try? JSONFields(Self.unwrapped(value))
            let details = try? fields?.fields("details")
            var candidates = (try? details?.array("loginFields")) ?? []
            for section in (try? details?.array("sections")) ?? [] {
                candidates += (try? JSONFields(section).array("fields")) ?? []
            }
            for candidate in candidates {
                guard let field = try? JSONFields(candidate), let value = try? field.fields("value"),
                    value.has("totp")
                else { continue }
                codes.append(
                    LoginCode(
                        field: (try? field.optionalString("title")).flatMap { $0 } ?? "",
                        code: (try? value.optionalString("totp")).flatMap { $0 } ?? ""))
            }
        }

        /// The item itself: 1Password 8's first exports wrapped each one in
        /// `{"item": {…}}` (with `trashed` for its state).
        private static func unwrapped(_ value: JSONValue) -> JSONValue {
            guard let object = value.objectValue, object.count == 1, let item = object["item"] else { return value }
            return item
        }

        var title: String { (try? fields?.fields("overview").optionalString("title")).flatMap { $0 } ?? "" }

        /// Records each of the item's codes, or its rejection.
        func read(into result: inout ParsedImport, at place: String) throws {
            try LoginCode.read(codes, title: title, at: place, into: &result) {
                try entry($0, suffix: $1, position: $2)
            }
        }

        private func entry(_ code: LoginCode, suffix: String?, position: EntryPosition) throws -> ImportEntry {
            guard let fields else { throw EntryProblem.invalid("the item should be an object") }
            let state = try fields.optionalString("state")
            if state == "archived" { throw EntryProblem.unsupported("it is archived in 1Password") }
            let trashed = try fields.optionalBool("trashed") == true
            if state == "trashed" || trashed {
                throw EntryProblem.unsupported("it is in 1Password's trash")
            }
            let overview = try fields.has("overview") ? fields.fields("overview") : nil
            let issuer = title.isEmpty ? (try overview?.optionalString("url")).flatMap(Self.host) ?? "" : title
            var draft = try code.draft(title: issuer, userName: try userName(), suffix: suffix, position: position)
            draft.tags = Account.normalizedTags(try overview?.strings("tags") ?? [])
            draft.note = try fields.has("details") ? fields.fields("details").optionalString("notesPlain") ?? "" : ""
            return try ImportEntry(position: position, draft: draft)
        }

        /// The value of the login field designated `username`.
        private func userName() throws -> String {
            guard let details = try fields?.has("details") == true ? fields?.fields("details") : nil else { return "" }
            for value in try details.array("loginFields") {
                if let field = try? JSONFields(value), (try? field.optionalString("designation")) == "username" {
                    return try field.optionalString("value") ?? ""
                }
            }
            return ""
        }

        private static func host(_ url: String) -> String? {
            URLComponents(string: url)?.host
        }
    }
}
