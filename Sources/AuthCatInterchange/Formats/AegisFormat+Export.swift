import AuthCatCore
import AuthCatEssentials
import Foundation

extension AegisFormat {
    /// A plain Aegis vault (database version 3) holding `items`: tags become
    /// groups, notes notes, and Yandex and mOTP entries carry their `pin`.
    /// Aegis imports it with "Import from file".
    static func document(for items: [ExportItem]) throws -> Data {
        try encoded(["version": 1, "header": ["slots": NSNull(), "params": NSNull()], "db": database(for: items)])
    }

    /// The database of a vault holding `items`: its entries and the groups they name.
    static func database(for items: [ExportItem]) -> [String: Any] {
        let tagNames = Set(items.flatMap(\.account.tags)).sorted()
        let groups = tagNames.map { ["uuid": groupUUID($0), "name": $0] }
        return ["version": 3, "entries": items.map { entryObject($0) }, "groups": groups]
    }

    static func encoded(_ document: [String: Any]) throws -> Data {
        var data = try JSONSerialization.data(
            withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        data.append(UInt8(ascii: "\n"))
        return data
    }

    private static func entryObject(_ item: ExportItem) -> [String: Any] {
        let account = item.account
        var info: [String: Any] = [
            "secret": Base32.encode(item.secret),
            "algo": account.otp.algorithm.rawValue.uppercased(),
            "digits": account.otp.digits,
        ]
        if account.otp.kind == .hotp {
            info["counter"] = account.otp.counter
        } else {
            info["period"] = account.otp.period
        }
        if let pin = item.pin {
            // `OTPPIN.check` let only UTF-8 text into the vault.
            info["pin"] = String(decoding: pin.unprotectedData(), as: UTF8.self)
        }
        return [
            "type": account.otp.kind.rawValue,
            "uuid": account.id.vaultString,
            "name": account.name,
            "issuer": account.issuer,
            "note": account.note,
            "favorite": false,
            "icon": NSNull(),
            "info": info,
            "groups": account.tags.map(groupUUID),
        ]
    }

    /// A UUID made from the tag's name, so the same tags give the same file.
    static func groupUUID(_ name: String) -> String {
        var bytes = Array(SHA256.hash(Data("authcat-aegis-group:\(name)".utf8)).prefix(16))
        bytes[6] = bytes[6] & 0x0f | 0x50
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
            hex.dropFirst(20),
        ]
        return parts.joined(separator: "-")
    }
}
