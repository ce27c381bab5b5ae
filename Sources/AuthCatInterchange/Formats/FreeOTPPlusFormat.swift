import AuthCatCore
import AuthCatEssentials
import Foundation

/// A FreeOTP+ export (`freeotp-backup.json`): `{"tokens": [token…],
/// "tokenOrder": [name…]}`, each token the JSON FreeOTP keeps
/// (`FreeOTPFormat`), in the file's order.
public enum FreeOTPPlusFormat: ImportFormatParser {
    public static let format = ImportFormat.freeOTPPlus

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        guard let document = try? JSONFields(JSONValue.parse(data, format: format)) else {
            throw ImportError.malformed(format, "the file is not a JSON object")
        }
        guard case .array(let tokens)? = document.object["tokens"] else {
            throw ImportError.malformed(format, "it has no 'tokens' list")
        }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: tokens.count)
        for (index, value) in tokens.enumerated() {
            let position = EntryPosition.entry(index + 1)
            try result.read(position, label: label(of: value)) {
                let token = try JSONFields(value)
                // As in FreeOTP 1, the counter stored is that of the code shown last.
                return try FreeOTPFormat.entry(
                    token, secret: FreeOTPFormat.bytes(token, "secret"), counterOffset: 1, position: position)
            }
        }
        return result
    }

    private static func label(of value: JSONValue) -> String? {
        guard let token = try? JSONFields(value) else { return nil }
        let parts = [try? token.optionalString("issuerExt"), try? token.optionalString("label")]
            .compactMap { $0 ?? nil }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ":")
    }
}
