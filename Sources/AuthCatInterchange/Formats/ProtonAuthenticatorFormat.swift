import AuthCatCore
import AuthCatEssentials
import Foundation

/// Proton Authenticator's export: `{"version": 1, "entries": [{"id",
/// "content": {"uri": otpauth URI, "entry_type", "name"}, "note"}]}`. Each
/// URI is read as an otpauth line is (`OTPAuthFormat`); the note comes along.
public enum ProtonAuthenticatorFormat: ImportFormatParser {
    public static let format = ImportFormat.protonAuthenticator

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        guard let document = try? JSONFields(JSONValue.parse(data, format: format)),
            case .array(let entries)? = document.object["entries"]
        else {
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
                var entry = try OTPAuthFormat.entry(Substring(try content.string("uri")), position: position)
                entry.draft.note = try fields.optionalString("note") ?? entry.draft.note
                return entry
            }
        }
        return result
    }
}
