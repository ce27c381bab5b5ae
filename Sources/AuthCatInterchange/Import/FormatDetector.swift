import Foundation

/// Recognises an import file's format from its content, for `authcat import`
/// without `--format`.
public enum FormatDetector {
    /// The format of `data`.
    /// - Throws: `ImportError.unrecognizedFormat`, or `.damagedJSON` for
    ///   JSON that does not parse (a truncated export, say).
    public static func detect(_ data: Data) throws -> ImportFormat {
        if BackupHeader.hasMagic(data) { return .authcat }
        if let image = imageKind(data) { throw ImportError.image(image) }
        let start = data.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d }
        let withoutBOM = start.starts(with: [0xef, 0xbb, 0xbf]) ? start.dropFirst(3) : start
        switch withoutBOM.first {
        case UInt8(ascii: "{")?, UInt8(ascii: "[")?:
            return try detectJSON(data)
        case nil:
            throw ImportError.empty
        default:
            return try detectText(Data(withoutBOM))
        }
    }

    /// The kind of image `data` starts like, by the signatures of its format.
    private static func imageKind(_ data: Data) -> String? {
        let signatures: [(String, [UInt8])] = [
            ("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), ("JPEG", [0xFF, 0xD8, 0xFF]),
            ("GIF", Array("GIF8".utf8)), ("BMP", Array("BM".utf8)),
        ]
        if let (kind, _) = signatures.first(where: { data.starts(with: $0.1) }) { return kind }
        if data.starts(with: Array("RIFF".utf8)), data.dropFirst(8).starts(with: Array("WEBP".utf8)) { return "WebP" }
        return nil
    }

    private static func detectJSON(_ data: Data) throws -> ImportFormat {
        guard let document = try? JSONValue.decode(data) else { throw ImportError.damagedJSON }
        switch document {
        case .object(let object):
            if object["db"] != nil && object["header"] != nil { return .aegis }
            if object["services"] != nil || object["servicesEncrypted"] != nil { return .twoFAS }
            if object["items"] != nil || object["encKeyValidation_DO_NOT_EDIT"] != nil { return .bitwarden }
            if object["format"] == .string(AuthCatArchive.formatName) { return .authcat }
        case .array(let list):
            if list.allSatisfy({ $0.objectValue?["secret"] != nil }) { return .andOTP }
        default:
            break
        }
        throw ImportError.unrecognizedFormat
    }

    /// Text formats are told apart by the scheme of their first URI.
    private static func detectText(_ data: Data) throws -> ImportFormat {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        if head.hasPrefix(KeePassXCFormat.headerStart) { return .keepassxc }
        let firstLine =
            head.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && !$0.hasPrefix("#") }?
            .lowercased() ?? ""
        if firstLine.hasPrefix(GoogleMigrationFormat.scheme + "://") { return .google }
        if firstLine.hasPrefix("otpauth://") || firstLine.hasPrefix("motp://") { return .otpauth }
        throw ImportError.unrecognizedFormat
    }
}
