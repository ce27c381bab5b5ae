import AuthCatCore
import AuthCatEssentials
import Foundation

/// An andOTP plain backup (`otp_accounts.json`): a list of
/// `{"secret", "issuer", "label", "digits", "type", "algorithm", "period", "counter", "tags"}`.
/// Older backups have no `issuer` and a label `Issuer:account`. Tags are kept.
/// A file that does not start like JSON is an encrypted backup (`AndOTPFormat+Decryption.swift`).
public enum AndOTPFormat: ImportFormatParser {
    public static let format = ImportFormat.andOTP

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let document =
            FormatDetector.startsLikeJSON(data)
            ? try JSONValue.parse(data, format: format) : try decrypt(data, context: context)
        guard case .array(let list) = document else {
            throw ImportError.malformed(format, "the file is not a JSON list")
        }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: list.count)
        for (index, value) in list.enumerated() {
            let position = EntryPosition.entry(index + 1)
            try result.read(position, label: label(of: value)) { try entry(value, position: position) }
        }
        return result
    }

    static func entry(_ value: JSONValue, position: EntryPosition) throws -> ImportEntry {
        let entry = try JSONFields(value)
        let otp = try entry.otpParameters(typeKey: "type")
        let (issuer, name) = try names(entry)
        let draft = try AccountDraft(
            issuer: issuer, name: name, otp: otp, tags: try entry.strings("tags"),
            base32Secret: try entry.string("secret"))
        return try ImportEntry(position: position, draft: draft)
    }

    private static func names(_ entry: JSONFields) throws -> (String, String) {
        let label = try entry.optionalString("label") ?? ""
        if let issuer = try entry.optionalString("issuer"), !issuer.isEmpty {
            let prefix = issuer + ":"
            let name = label.lowercased().hasPrefix(prefix.lowercased()) ? String(label.dropFirst(prefix.count)) : label
            return (issuer, name)
        }
        if let dash = label.range(of: " - ") {
            // Backups of andOTP before 0.6.3 label `Issuer - Issuer:account`.
            let issuer = String(label[..<dash.lowerBound])
            let rest = label[dash.upperBound...]
            return (issuer, rest.hasPrefix(issuer + ":") ? String(rest.dropFirst(issuer.count + 1)) : String(rest))
        }
        guard let colon = label.firstIndex(of: ":") else { return ("", label) }
        return (String(label[..<colon]), String(label[label.index(after: colon)...]))
    }

    private static func label(of value: JSONValue) -> String? {
        guard let entry = try? JSONFields(value), let (issuer, name) = try? names(entry) else { return nil }
        let parts = [issuer, name].filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ":")
    }
}
