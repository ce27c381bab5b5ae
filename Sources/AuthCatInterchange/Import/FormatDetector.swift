import AuthCatEssentials
import Foundation

/// Recognises an import file's format from its content, for `authcat import`
/// without `--format`.
public enum FormatDetector {
    /// The format of `data`.
    /// - Throws: `ImportError.unrecognizedFormat`, or `.damagedJSON` for
    ///   JSON that does not parse (a truncated export, say).
    public static func detect(_ data: Data) throws -> ImportFormat {
        if BackupHeader.hasMagic(data) { return .authcat }
        if data.starts(with: StratumFormat.Sealed.header) || data.starts(with: StratumFormat.Sealed.legacyHeader) {
            return .stratum
        }
        if let image = imageKind(data) { throw ImportError.image(image) }
        if data.starts(with: JavaSerializedStringMap.magic) { return .freeOTP }
        if BoundedZIP.looksLike(data) { return try detectZIP(data) }
        if ProtonPassFormat.isSealed(data) { return .protonPass }
        if SQLiteSnapshot.looksLike(data) {
            guard let format = AuthenticatorDatabase.detect(data) else { throw ImportError.unrecognizedFormat }
            return format
        }
        switch BoundedXML.rootName(of: data) {
        case "map": return try detectSharedPreferences(data)
        case "KeePassFile": return .keepassXML
        default: break
        }
        let content = significant(data)
        if content.isEmpty { throw ImportError.empty }
        if startsLikeJSON(data) { return try detectJSON(data) }
        if !isText(content) { return .andOTP }
        return try detectText(Data(content))
    }

    /// Whether `data`, after blank space and a byte-order mark, starts with
    /// `{` or `[` and is not ciphertext, which starts with either byte now
    /// and then, by chance (an encrypted andOTP or Stratum backup): it holds
    /// no control character (JSON in any 8-bit encoding, damaged or not), or
    /// it parses (JSON in UTF-16 or UTF-32 without a byte-order mark).
    static func startsLikeJSON(_ data: Data) -> Bool {
        let content = significant(data)
        guard content.first == UInt8(ascii: "{") || content.first == UInt8(ascii: "[") else { return false }
        return !hasControlBytes(content) || (try? JSONValue.decode(data)) != nil
    }

    /// Whether the start of `data` (its first 4 KiB) holds a control
    /// character other than blank space, as text in no 8-bit encoding does.
    private static func hasControlBytes(_ data: Data.SubSequence) -> Bool {
        data.prefix(4096).contains { (byte: UInt8) in byte < 0x20 && byte != 0x09 && byte != 0x0a && byte != 0x0d }
    }

    /// `data` without leading blank space and byte-order mark.
    private static func significant(_ data: Data) -> Data.SubSequence {
        let start = data.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d }
        return start.starts(with: [0xef, 0xbb, 0xbf]) ? start.dropFirst(3) : start
    }

    /// Whether the start of `data` is UTF-8 text without control characters
    /// other than blank space, or UTF-16 text with its byte-order mark. A
    /// binary file that no other format claims is taken for an encrypted
    /// andOTP backup, the one format that is nothing but ciphertext: it has
    /// no signature to recognise it by.
    private static func isText(_ data: Data.SubSequence) -> Bool {
        if data.starts(with: [0xff, 0xfe]) || data.starts(with: [0xfe, 0xff]) { return true }
        guard !hasControlBytes(data) else { return false }
        var head = Data(data.prefix(4096))
        // A multi-byte character cut at the end of the window is still text.
        for _ in 0..<3 where String(data: head, encoding: .utf8) == nil && !head.isEmpty { head.removeLast() }
        return String(data: head, encoding: .utf8) != nil
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
            if object["Authenticators"] != nil { return .stratum }
            if object["kdfParams"] != nil && object["encryptedData"] != nil { return .ente }
            if object["tokens"] != nil && object["tokenOrder"] != nil { return .freeOTPPlus }
            if LastPassFormat.claims(object) { return .lastPass }
            if object["shared_secret"] != nil || object["accounts"]?.objectValue != nil { return .steam }
            if object["entries"] != nil && object["encrypted"] != nil { return .steam }
            if object["entries"]?.arrayValue?.first?.objectValue?["content"] != nil { return .protonAuthenticator }
            if ProtonAuthenticatorFormat.isSealed(object) { return .protonAuthenticator }
            if object["accounts"]?.arrayValue?.first?.objectValue?["vaults"] != nil { return .onePassword }
            if object["vaults"]?.objectValue != nil && object["userId"] != nil { return .protonPass }
        case .array(let list) where !list.isEmpty && list.allSatisfy({ $0.objectValue?["otpGenerator"] != nil }):
            return .duo
        case .array(let list):
            if list.allSatisfy({ $0.objectValue?["secret"] != nil }) { return .andOTP }
        default:
            break
        }
        throw ImportError.unrecognizedFormat
    }

    /// ZIP exports are told apart by the files they hold, read from their
    /// directory (nothing is inflated).
    private static func detectZIP(_ data: Data) throws -> ImportFormat {
        let archive: BoundedZIP
        do {
            archive = try BoundedZIP(data)
        } catch let failure as BoundedZIP.Failure {
            throw ImportError.unreadableArchive(failure.description)
        }
        let paths = Set(archive.entries.map(\.path))
        if paths.contains(OnePasswordFormat.dataPath) { return .onePassword }
        if paths.contains(ProtonPassFormat.dataPath) { return .protonPass }
        throw ImportError.unrecognizedFormat
    }

    /// Android shared preferences are told apart by the names of their values.
    private static func detectSharedPreferences(_ data: Data) throws -> ImportFormat {
        guard let preferences = try? SharedPreferencesXML(data) else { throw ImportError.unrecognizedFormat }
        if preferences.value("tokenOrder") != nil { return .freeOTP }
        if AuthyFormat.preferenceNames.contains(where: { preferences.value($0) != nil }) { return .authy }
        if preferences.value(BattleNetFormat.secretName) != nil { return .battleNet }
        if preferences.value(TOTPAuthenticatorFormat.listName) != nil { return .totpAuthenticator }
        throw ImportError.unrecognizedFormat
    }

    /// Text formats are told apart by the scheme of their first URI.
    private static func detectText(_ data: Data) throws -> ImportFormat {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        if head.hasPrefix(KeePassXCFormat.headerStart) { return .keepassxc }
        if let header = head.split(whereSeparator: \.isNewline).first, ProtonPassFormat.isCSVHeader(header) {
            return .protonPass
        }
        let firstLine =
            head.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && !$0.hasPrefix("#") }?
            .lowercased() ?? ""
        if firstLine.hasPrefix(GoogleMigrationFormat.scheme + "://") { return .google }
        if firstLine.hasPrefix("otpauth://") || firstLine.hasPrefix("motp://") { return .otpauth }
        // Stratum's HTML export, the one HTML page with otpauth:// links authcat knows.
        if firstLine.hasPrefix("<"), data.range(of: Data("otpauth://".utf8)) != nil { return .stratum }
        // Base64 of whole AES blocks: TOTP Authenticator's backup (an encrypted maFile alone needs --format steam).
        if TOTPAuthenticatorFormat.looksLikeBackup(data) { return .totpAuthenticator }
        throw ImportError.unrecognizedFormat
    }
}
