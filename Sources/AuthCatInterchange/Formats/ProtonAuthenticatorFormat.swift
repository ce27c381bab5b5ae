import AuthCatCore
import AuthCatEssentials
import Foundation

/// Proton Authenticator's export: `{"version": 1, "entries": [{"id",
/// "content": {"uri": otpauth URI, "entry_type", "name"}, "note"}]}`. Each
/// URI is read as an otpauth line is (`OTPAuthFormat`), but a Steam entry's
/// `steam://SECRET`, named by `name`; the note comes along. Exported with a
/// password, it is `{"version": 1, "salt", "content"}`, opened by
/// `decryptExport`.
public enum ProtonAuthenticatorFormat: ImportFormatParser {
    public static let format = ImportFormat.protonAuthenticator

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let document = try? JSONFields(JSONValue.parse(data, format: format))
        guard let document, isSealed(document.object) else { return try parse(document) }
        var plaintext = try decryptExport(document, context: context)
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        return try parse(try? JSONFields(JSONValue.parse(plaintext, format: format)))
    }

    /// The entries of a plain export.
    private static func parse(_ document: JSONFields?) throws -> ParsedImport {
        guard case .array(let entries)? = document?.object["entries"] else {
            throw ImportError.malformed(format, "it is not a JSON object with an 'entries' list")
        }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: entries.count)
        for (index, value) in entries.enumerated() {
            let position = EntryPosition.entry(index + 1)
            let fields = try? JSONFields(value)
            let content = (try? fields?.fields("content")) ?? nil
            let uri = (try? content?.optionalString("uri")) ?? nil
            try result.read(position, label: uri.flatMap { OTPAuthFormat.label(of: Substring($0)) }) {
                guard let fields, let content else { throw EntryProblem.invalid("field 'content' is missing") }
                var entry = try self.entry(content, position: position)
                entry.draft.note = try fields.optionalString("note") ?? entry.draft.note
                return entry
            }
        }
        return result
    }

    /// The app writes a Steam entry's URI as `steam://SECRET`, its name beside it.
    private static func entry(_ content: JSONFields, position: EntryPosition) throws -> ImportEntry {
        let uri = try content.string("uri")
        guard
            let steam = try SteamFormat.draft(
                fromURI: uri, issuer: "Steam", name: try content.optionalString("name") ?? "")
        else { return try OTPAuthFormat.entry(Substring(uri), position: position) }
        return try ImportEntry(position: position, draft: steam)
    }
}
