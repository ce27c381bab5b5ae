import AuthCatCore
import AuthCatEssentials
import Foundation

/// The one-time codes a password manager keeps beside a login (1Password,
/// Proton Pass): each an `otpauth://` URI, or a bare Base32 secret with the
/// apps' defaults (TOTP, SHA-1, 6 digits, 30 s); an item may hold several.
struct LoginCode {
    /// The title of the field that holds the code; empty when it has none.
    var field: String
    var code: String

    init(field: String, code: String) {
        self.field = field
        self.code = code.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Records each of an item's `codes` as an entry made by `entry`, or its
    /// rejection: at `place`, and at `place, code N` when the item has
    /// several. `entry` is given each code with its name's suffix: nil for
    /// the first, the field's title for the next ones.
    static func read(
        _ codes: [LoginCode], title: String, at place: String, into result: inout ParsedImport,
        entry: (LoginCode, _ suffix: String?, EntryPosition) throws -> ImportEntry
    ) throws {
        for (number, code) in codes.enumerated() {
            let description = codes.count == 1 ? place : "\(place), code \(number + 1)"
            let position = EntryPosition(number: result.entryCount + 1, description: description)
            try result.read(position, label: label(title, besides: code.code)) {
                guard !code.code.isEmpty else { throw EntryProblem.invalid("its one-time password is empty") }
                return try entry(code, number == 0 ? nil : code.field, position)
            }
        }
    }

    /// Says in a warning that `count` items had no code and were left out.
    static func noteItemsWithoutCode(_ count: Int, in result: inout ParsedImport) {
        guard count > 0 else { return }
        result.warnings.append(
            "\(count) item\(count == 1 ? " has" : "s have") no one-time password and \(count == 1 ? "was" : "were") left out"
        )
    }

    /// The account this code describes. A URI names it, with `title` as
    /// issuer when it has none; a bare secret is named by `title` (issuer)
    /// and `userName`, with `suffix` (an item's later code) after it.
    func draft(title: String, userName: String, suffix: String?, position: EntryPosition) throws -> AccountDraft {
        guard code.lowercased().hasPrefix("otpauth://") else {
            var name = userName
            if let suffix, !suffix.isEmpty { name = name.isEmpty ? suffix : "\(name) (\(suffix))" }
            return try AccountDraft(issuer: title, name: name, base32Secret: code)
        }
        var draft = try OTPAuthFormat.entry(Substring(code), position: position).draft
        if draft.issuer.isEmpty && draft.name.caseInsensitiveCompare(title) != .orderedSame {
            draft.issuer = title
        }
        return draft
    }

    /// `title` as the label of an entry's messages; nil when it would quote
    /// the entry's `code`, which a message must never show.
    private static func label(_ title: String, besides code: String) -> String? {
        guard !title.isEmpty, code.isEmpty || !title.contains(code) else { return nil }
        let lowercased = title.lowercased()
        return ["otpauth:", "secret="].contains { lowercased.contains($0) } ? nil : title
    }
}

extension BoundedZIP {
    /// The file at `path` of the ZIP archive `data`, or `data` itself when it
    /// is not an archive (that file, given alone); the caller wipes it.
    /// - Throws: `ImportError.malformed` naming `format` when the archive
    ///   cannot be read or has no such file.
    static func file(_ path: String, of data: Data, format: ImportFormat) throws -> Data {
        guard looksLike(data) else { return data }
        do {
            guard let file = try BoundedZIP(data).contents(of: path) else {
                throw ImportError.malformed(format, "its archive has no \(path)")
            }
            return file
        } catch let failure as Failure {
            throw ImportError.malformed(format, failure.description)
        }
    }
}
