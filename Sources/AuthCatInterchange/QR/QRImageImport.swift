import AuthCatCore
import AuthCatEssentials
import Foundation

/// Imports the QR codes of a screenshot: `otpauth://` codes of single
/// accounts and Google Authenticator's `otpauth-migration://` codes, mixed freely.
public enum QRImageImport {
    /// The accounts in every QR code of the PNG `data`, as one parsed import
    /// (format `google` if any code is a migration code, else `otpauth`).
    public static func parse(png data: Data) throws -> ParsedImport {
        // As for any import, rather than libpng's words for zero bytes.
        if data.isEmpty { throw ImportError.empty }
        return try parse(texts: QRScanner.scan(png: data))
    }

    /// The accounts in scanned QR code `texts`, in reading order.
    public static func parse(texts: [String]) throws -> ParsedImport {
        let migration = GoogleMigrationFormat.scheme + "://"
        let hasMigration = texts.contains { $0.lowercased().hasPrefix(migration) }
        var result = ParsedImport(format: hasMigration ? .google : .otpauth)
        var batches = GoogleMigrationFormat.BatchTracker()
        for (index, text) in texts.enumerated() {
            let container = "QR code \(index + 1)"
            let uri = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
            if uri.lowercased().hasPrefix(migration) {
                try GoogleMigrationFormat.read(uri: uri, container: container, into: &result, batches: &batches)
            } else {
                let position = EntryPosition(number: result.entryCount + 1, description: container)
                try result.read(position, label: OTPAuthFormat.label(of: uri)) {
                    try OTPAuthFormat.entry(uri, position: position)
                }
            }
        }
        result.warnings += batches.warnings
        return result
    }
}
