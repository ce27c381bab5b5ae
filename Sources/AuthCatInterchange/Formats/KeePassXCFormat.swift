import AuthCatCore
import AuthCatEssentials
import Foundation

/// KeePassXC's CSV export (Database → Export → CSV File, or
/// `keepassxc-cli export --format csv`): a header row naming the columns
/// (`Group`, `Title`, `Username`, `Password`, `URL`, `Notes`, `TOTP`, …),
/// then one row per entry. Rows with a TOTP become accounts; the column
/// holds an `otpauth://` URI (KeePassXC writes every entry's code so,
/// Steam as `encoder=steam`), or KeeOtp's settings `key=…&step=…&size=…`
/// that older databases keep. The group below the root becomes a tag, the
/// notes the note; an entry is named by its URI, else by its title and user name.
public enum KeePassXCFormat: ImportFormatParser {
    public static let format = ImportFormat.keepassxc

    /// The header's first columns, by which the format is recognised.
    static let headerStart = #""Group","Title","Username""#

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let rows = try CSVRows.rows(of: data, format: format)
        guard let header = rows.first?.fields, let totp = header.firstIndex(of: "TOTP") else {
            throw ImportError.malformed(format, "its first row names no TOTP column")
        }
        let column = { (name: String) in header.firstIndex(of: name) }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: rows.count - 1)
        var withoutCode = 0
        for (number, fields) in rows.dropFirst() {
            let value = { (index: Int?) in index.flatMap { $0 < fields.count ? fields[$0] : nil } ?? "" }
            let code = value(totp).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !code.isEmpty else {
                withoutCode += 1
                continue
            }
            let item = Item(
                title: value(column("Title")), userName: value(column("Username")), notes: value(column("Notes")),
                group: value(column("Group")))
            let position = EntryPosition(number: result.entryCount + 1, description: "row \(number)")
            // A row of another width has lost its quoting: any field may hold another's text, the code's too.
            let label = fields.count == header.count ? item.label(besides: code) : nil
            try result.read(position, label: label) { try item.entry(code: code, position: position) }
        }
        if withoutCode > 0 {
            result.warnings.append(
                "\(withoutCode) \(withoutCode == 1 ? "entry has" : "entries have") no TOTP and "
                    + "\(withoutCode == 1 ? "was" : "were") left out")
        }
        return result
    }

    /// What names an entry and comes along with its code.
    struct Item {
        var title: String
        var userName: String
        var notes: String
        /// `Root/Work`: the root group, then the groups below it.
        var group: String

        /// `Title:Username`, for messages; nil when it holds the entry's `code`
        /// or anything that reads like one, which a message must never quote.
        func label(besides code: String) -> String? {
            let parts = [title, userName].filter { !$0.isEmpty }
            let label = parts.joined(separator: ":")
            let lowercased = label.lowercased()
            let quotesACode =
                label.contains(code) || ["otpauth:", "secret=", "key="].contains { lowercased.contains($0) }
            return parts.isEmpty || quotesACode ? nil : label
        }

        /// The groups below the root, as one tag.
        var tags: [String] {
            let below = group.split(separator: "/").dropFirst()
            return below.isEmpty ? [] : Account.normalizedTags([below.joined(separator: "/")])
        }

        func entry(code: String, position: EntryPosition) throws -> ImportEntry {
            try entry(draft: draft(code: code, position: position), position: position)
        }

        /// `draft` with the entry's group as its tag and notes as its note.
        func entry(draft: AccountDraft, position: EntryPosition) throws -> ImportEntry {
            var draft = draft
            draft.tags = tags
            draft.note = notes
            return try ImportEntry(position: position, draft: draft)
        }

        /// The account of an `otpauth://` URI or KeeOtp's settings, named by the entry when the URI names no issuer.
        private func draft(code: String, position: EntryPosition) throws -> AccountDraft {
            guard code.lowercased().hasPrefix("otpauth://") else {
                return try KeeOTPSettings.draft(code, issuer: title, name: userName)
            }
            var draft = try OTPAuthFormat.entry(Substring(code), position: position).draft
            if draft.issuer.isEmpty, draft.name.caseInsensitiveCompare(title) != .orderedSame {
                draft.issuer = title
            }
            return draft
        }
    }
}

/// KeeOtp's settings of an entry, which KeePassXC reads too:
/// `key=BASE32&step=30&size=6&otpHashMode=Sha256`, or `type=Hotp&counter=N`.
enum KeeOTPSettings {
    static func draft(_ settings: String, issuer: String, name: String) throws -> AccountDraft {
        var fields: [String: String] = [:]
        for pair in settings.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw EntryProblem.invalid("its TOTP is neither an otpauth:// URI nor key=… settings")
            }
            fields[parts[0].lowercased()] = parts[1].removingPercentEncoding ?? parts[1]
        }
        guard let key = fields["key"] else {
            throw EntryProblem.invalid("its TOTP is neither an otpauth:// URI nor key=… settings")
        }
        var otp = OTPParameters()
        switch fields["type"]?.lowercased() ?? "totp" {
        case "totp": otp.kind = .totp
        case "hotp": otp.kind = .hotp
        case let other: throw EntryProblem.unsupportedType(other, thisFormatReads: "TOTP and HOTP")
        }
        switch fields["otphashmode"]?.lowercased() ?? "sha1" {
        case "sha1": otp.algorithm = .sha1
        case "sha256": otp.algorithm = .sha256
        case "sha512": otp.algorithm = .sha512
        case let other:
            throw EntryProblem.unsupported(
                "algorithm '\(EntryProblem.shown(other))' is not supported (only SHA1, SHA256 and SHA512)")
        }
        otp.digits = try number(fields["size"], "size") ?? 6
        if otp.kind == .hotp {
            otp.counter = UInt64(try number(fields["counter"], "counter") ?? 0)
        } else {
            otp.period = try number(fields["step"], "step") ?? 30
        }
        return try AccountDraft(issuer: issuer, name: name, otp: otp, base32Secret: key)
    }

    private static func number(_ text: String?, _ name: String) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value >= 0 else { throw EntryProblem.invalid("its '\(name)' is not a number") }
        return value
    }
}
