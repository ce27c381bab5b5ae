import AuthCatCore
import AuthCatEssentials
import Foundation

/// Proton Pass's CSV export: a header row naming the columns (`type`, `name`,
/// `url`, `email`, `username`, `password`, `note`, `totp`, `createTime`,
/// `modifyTime`, `vault`; older exports lack `type`, `email` or `vault`),
/// then one row per item. A row's `totp` is read as a login's `totpUri` is
/// in the JSON export, named by `name` and `username` (else `email`); the
/// vault becomes a tag, the note the note. The CSV keeps no trash and no
/// extra fields.
extension ProtonPassFormat {
    /// Whether `line`, the file's first, is the header of Proton Pass's CSV:
    /// its timestamps' columns are the app's own names.
    static func isCSVHeader(_ line: Substring) -> Bool {
        let columns = Set(line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        return columns.isSuperset(of: ["name", "totp", "createTime", "modifyTime"])
    }

    static func parseCSV(_ data: Data) throws -> ParsedImport {
        let rows = try CSVRows.rows(of: data, format: format)
        guard let header = rows.first?.fields, let totp = header.firstIndex(of: "totp") else {
            throw ImportError.malformed(format, "its first row names no totp column")
        }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: rows.count - 1)
        var withoutCode = 0
        for (number, fields) in rows.dropFirst() {
            let value = { (name: String) in
                header.firstIndex(of: name).flatMap { $0 < fields.count ? fields[$0] : nil } ?? ""
            }
            let code = LoginCode(field: "", code: totp < fields.count ? fields[totp] : "")
            guard !code.code.isEmpty else {
                withoutCode += 1
                continue
            }
            // A row of another width has lost its quoting: any field may hold another's text, the code's too.
            let title = fields.count == header.count ? value("name") : ""
            let userName = value("username").isEmpty ? value("email") : value("username")
            try LoginCode.read([code], title: title, at: "row \(number)", into: &result) { code, _, position in
                var draft = try code.draft(title: value("name"), userName: userName, suffix: nil, position: position)
                draft.tags = Account.normalizedTags([value("vault")])
                draft.note = value("note")
                return try ImportEntry(position: position, draft: draft)
            }
        }
        LoginCode.noteItemsWithoutCode(withoutCode, in: &result)
        return result
    }
}
