import AuthCatCore
import AuthCatEssentials
import Foundation

/// An Aegis vault (`aegis-export-*.json`), plain or encrypted with a password.
///
/// `{"version": 1, "header": {"slots", "params"}, "db": …}`: `db` is an
/// object when plain, the base64 of its AES-256-GCM encryption otherwise
/// (see `AegisFormat+Decryption`). Entries are TOTP, HOTP, Steam, Yandex or
/// mOTP; the last two carry their `pin` in `info`, and their algorithm,
/// digits and period are their kind's only ones (Aegis ignores the stored
/// values too). Groups become tags and each entry's note its note.
public enum AegisFormat: ImportFormatParser {
    public static let format = ImportFormat.aegis

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let document = try fields(of: JSONValue.parse(data, format: format), what: "the file")
        let database: JSONFields
        switch document.object["db"] {
        case .object?:
            database = try fields(of: document.object["db"] ?? .null, what: "'db'")
        case .string(let encrypted)?:
            database = try fields(
                of: decryptDatabase(encrypted, header: document, context: context), what: "the decrypted 'db'")
        default:
            throw ImportError.malformed(format, "it has no 'db' object or encrypted 'db' text")
        }
        return try entries(of: database)
    }

    private static func entries(of database: JSONFields) throws -> ParsedImport {
        let groups = try groupNames(database)
        let list: [JSONValue]
        do {
            list = try database.array("entries")
        } catch {
            throw ImportError.malformed(format, "its 'entries' is not a list")
        }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: list.count)
        for (index, value) in list.enumerated() {
            let position = EntryPosition.entry(index + 1)
            try result.read(position, label: label(of: value)) { try entry(value, groups: groups, position: position) }
        }
        return result
    }

    static func entry(_ value: JSONValue, groups: [String: String], position: EntryPosition) throws -> ImportEntry {
        let entry = try JSONFields(value)
        let type = try entry.string("type").lowercased()
        let kind: OTPKind
        switch type {
        case "totp": kind = .totp
        case "hotp": kind = .hotp
        case "steam": kind = .steam
        case "yandex": kind = .yandex
        case "motp": kind = .motp
        default:
            throw EntryProblem.unsupported(
                "OTP type '\(EntryProblem.shown(type))' is not supported (Aegis files bring TOTP, HOTP, Steam, Yandex "
                    + "and mOTP)")
        }
        let info = try entry.fields("info")
        let otp = kind.needsPIN ? OTPParameters(kind: kind) : try info.otpParameters(kind: kind, algorithmKey: "algo")
        let decoded = try Base32.decodeSecret(info.string("secret"))
        var tags = try entry.strings("groups").compactMap { groups[$0.lowercased()] }
        if let legacyGroup = try entry.optionalString("group") { tags.append(legacyGroup) }
        var draft = AccountDraft(
            issuer: try entry.optionalString("issuer") ?? "", name: try entry.optionalString("name") ?? "",
            otp: otp, tags: tags, note: try entry.optionalString("note") ?? "", secret: decoded.secret)
        draft.secretLeftover = decoded.leftover
        if kind.needsPIN {
            draft.pin = SecretBytes(utf8: try info.string("pin"))
            // Aegis keeps the 16-byte key; an older file may hold the 26-byte form with its checksum.
            if kind == .yandex { draft.secret = try OTPPIN.yandexSecret(draft.secret) }
        }
        var imported = try ImportEntry(position: position, draft: draft)
        imported.sourceID = try entry.optionalString("uuid")?.lowercased()
        return imported
    }

    /// Group uuid (lowercase) → name, from `db.groups` (vault version 3 and later).
    private static func groupNames(_ database: JSONFields) throws -> [String: String] {
        var names: [String: String] = [:]
        let list: [JSONValue]
        do {
            list = try database.array("groups")
        } catch {
            throw ImportError.malformed(format, "its 'groups' is not a list")
        }
        for value in list {
            guard let group = try? JSONFields(value), let uuid = try? group.string("uuid"),
                let name = try? group.string("name")
            else {
                throw ImportError.malformed(format, "a group lacks a uuid or a name")
            }
            names[uuid.lowercased()] = name
        }
        return names
    }

    private static func label(of value: JSONValue) -> String? {
        guard let entry = try? JSONFields(value) else { return nil }
        let issuer = (try? entry.optionalString("issuer")) ?? nil
        let name = (try? entry.optionalString("name")) ?? nil
        let parts = [issuer, name].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ":")
    }

    static func fields(of value: JSONValue, what: String) throws -> JSONFields {
        guard let fields = try? JSONFields(value) else {
            throw ImportError.malformed(format, "\(what) is not a JSON object")
        }
        return fields
    }
}
