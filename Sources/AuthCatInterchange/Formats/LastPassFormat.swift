import AuthCatCore
import AuthCatEssentials
import Foundation

/// LastPass Authenticator's JSON export: `{"version": 3 (1 on iOS),
/// "deviceName", …, "accounts": [account…], "folders": [{"id", "name",
/// "isOpened"}], "backupInfo"}`.
///
/// An account is `{"accountID", "issuerName", "originalIssuerName",
/// "userName", "originalUserName", "secret": Base32, "timeStep", "digits",
/// "algorithm", "folderData": {"folderId", "position"}, "isFavorite",
/// "pushNotification", "creationTimestamp"}`, always TOTP. The names the user
/// gave (`issuerName`, `userName`) win over those of the QR code
/// (`original…`); names holding `%XX` escapes are decoded, as some exports
/// write them. The folder an account sits in becomes a tag, except the
/// app's own "Other accounts" (id 0), where every account without a folder sits.
public enum LastPassFormat: ImportFormatParser {
    public static let format = ImportFormat.lastPass

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let document = try JSONFields.document(data, format: format)
        let accounts: [JSONValue]
        let folders: [String: String]
        do {
            accounts = try document.array("accounts")
            folders = try folderNames(document.array("folders"))
        } catch EntryProblem.invalid(let why) {
            throw ImportError.malformed(format, why)
        }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: accounts.count)
        for (index, value) in accounts.enumerated() {
            let position = EntryPosition.entry(index + 1)
            let account = try? JSONFields(value)
            try result.read(position, label: account.flatMap(label)) {
                try entry(JSONFields(value), folders: folders, position: position)
            }
        }
        return result
    }

    /// Whether a JSON object is LastPass's: a list of `accounts` and fields no other export has.
    static func claims(_ object: [String: JSONValue]) -> Bool {
        guard let accounts = object["accounts"]?.arrayValue else { return false }
        let first = accounts.first?.objectValue ?? [:]
        return object["deviceSecret"] != nil || object["localDeviceId"] != nil || first["issuerName"] != nil
            || first["originalIssuerName"] != nil
    }

    /// Folder names by id (a number or its text), without the default folder.
    private static func folderNames(_ folders: [JSONValue]) throws -> [String: String] {
        var names: [String: String] = [:]
        for folder in folders {
            let fields = try JSONFields(folder, what: "a folder")
            guard let id = identifier(fields.object["id"]), id != defaultFolder,
                let name = try fields.optionalString("name")
            else {
                continue
            }
            names[id] = name
        }
        return names
    }

    /// The folder the app puts every account in that the user filed nowhere:
    /// "Other accounts" ("Other Accounts" on iOS). Tagging every account with it
    /// would say nothing.
    private static let defaultFolder = "0"

    private static func identifier(_ value: JSONValue?) -> String? {
        switch value {
        case .number(let number)? where number.rounded() == number && abs(number) < 1e15: String(Int(number))
        case .string(let text)?: text
        default: nil
        }
    }

    private static func entry(
        _ account: JSONFields, folders: [String: String], position: EntryPosition
    ) throws -> ImportEntry {
        var otp = try account.otpParameters(kind: .totp, algorithmKey: "algorithm")
        otp.period = try account.optionalInt("timeStep") ?? 30
        let names = try self.names(account)
        let folder = try account.has("folderData") ? identifier(account.fields("folderData").object["folderId"]) : nil
        let tags = folder.flatMap { folders[$0] }.map { [$0] } ?? []
        let draft = try AccountDraft(
            issuer: names.issuer, name: names.name, otp: otp, tags: tags, base32Secret: account.string("secret"))
        var entry = try ImportEntry(position: position, draft: draft)
        entry.sourceID = try account.optionalString("accountID").flatMap { $0.isEmpty ? nil : $0 }
        return entry
    }

    /// The names the user gave, else those of the QR code.
    private static func names(_ account: JSONFields) throws -> (issuer: String, name: String) {
        func name(_ given: String, _ original: String) throws -> String {
            let given = decoded(try account.optionalString(given) ?? "")
            return given.isEmpty ? decoded(try account.optionalString(original) ?? "") : given
        }
        return (try name("issuerName", "originalIssuerName"), try name("userName", "originalUserName"))
    }

    /// `Issuer:name`, for messages.
    private static func label(_ account: JSONFields) -> String? {
        guard let names = try? names(account) else { return nil }
        let label = [names.issuer, names.name].filter { !$0.isEmpty }.joined(separator: ":")
        return label.isEmpty ? nil : label
    }

    /// `text` with its `%XX` escapes decoded, when they are all valid UTF-8.
    private static func decoded(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.contains("%") else { return trimmed }
        return trimmed.removingPercentEncoding ?? trimmed
    }
}
