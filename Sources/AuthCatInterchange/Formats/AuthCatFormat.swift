import AuthCatCore
import AuthCatEssentials
import Foundation

/// authcat's own files: an encrypted backup (`authcat backup`) or the plain
/// JSON of `authcat export --format json`. Both hold an `AuthCatArchive`.
/// Accounts keep their ids and creation times where the vault allows;
/// a backup's synced preferences come along.
public enum AuthCatFormat: ImportFormatParser {
    public static let format = ImportFormat.authcat

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        try parsed(archive(data, context: context))
    }

    /// The archive in `data`, decrypting it when it is a backup.
    public static func archive(_ data: Data, context: ImportContext) throws -> AuthCatArchive {
        guard BackupHeader.hasMagic(data) else { return try AuthCatArchive.decode(data) }
        var plaintext = try BackupFile.open(data, key: context.key(forBackupWith:))
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        return try AuthCatArchive.decode(plaintext)
    }

    /// The archive's accounts as entries, its preferences alongside.
    public static func parsed(_ archive: AuthCatArchive) throws -> ParsedImport {
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: archive.accounts.count)
        for (index, account) in archive.accounts.enumerated() {
            let position = EntryPosition(number: index + 1, description: "account \(index + 1)")
            let label = account.issuer.isEmpty ? account.name : "\(account.issuer):\(account.name)"
            try result.read(position, label: label) { try account.entry(position: position) }
        }
        result.preferences = archive.preferences ?? [:]
        return result
    }
}
