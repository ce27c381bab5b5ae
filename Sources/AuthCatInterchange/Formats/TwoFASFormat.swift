import AuthCatCore
import AuthCatEssentials
import Foundation

/// A 2FAS backup (`.2fas`, JSON), with or without a password:
/// `{"services": [{"name", "secret", "otp": {"account", "issuer", "digits",
/// "period", "counter", "algorithm", "tokenType"}, "groupId"}], "groups": [{"id", "name"}], "schemaVersion"}`.
/// A service's group becomes a tag. With a password, the services are
/// sealed in `servicesEncrypted` (`TwoFASFormat+Decryption.swift`).
public enum TwoFASFormat: ImportFormatParser {
    public static let format = ImportFormat.twoFAS

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let document = try JSONFields.document(data, format: format)
        let groups = try groupNames(document)
        let services: [JSONValue]
        // A null 'servicesEncrypted' is a plain backup's.
        let encrypted = document.has("servicesEncrypted") ? document.object["servicesEncrypted"] : nil
        switch (encrypted, document.object["services"]) {
        case (.string(let encrypted)?, _): services = try decryptServices(encrypted, context: context)
        case (nil, .array(let list)?): services = list
        case (.some, _): throw ImportError.malformed(format, "its 'servicesEncrypted' is not a string")
        case (nil, _): throw ImportError.malformed(format, "it has no 'services' list")
        }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: services.count)
        for (index, value) in services.enumerated() {
            let position = EntryPosition.entry(index + 1)
            try result.read(position, label: label(of: value)) { try entry(value, groups: groups, position: position) }
        }
        return result
    }

    static func entry(_ value: JSONValue, groups: [String: String], position: EntryPosition) throws -> ImportEntry {
        let service = try JSONFields(value)
        let otpFields = service.has("otp") ? try service.fields("otp") : try JSONFields(.object([:]))
        let (issuer, name) = try names(service, otpFields)
        let otp = try otpFields.otpParameters(typeKey: "tokenType")
        let tags = try service.optionalString("groupId").flatMap { groups[$0] }.map { [$0] } ?? []
        let note = try service.optionalString("additionalInfo") ?? ""
        let draft = try AccountDraft(
            issuer: issuer, name: name, otp: otp, tags: tags, note: note,
            base32Secret: try service.string("secret"))
        return try ImportEntry(position: position, draft: draft)
    }

    /// The service name is the issuer unless `otp.issuer` says otherwise; the
    /// account comes from `otp.account`, else from a label that is not just the issuer.
    private static func names(_ service: JSONFields, _ otp: JSONFields) throws -> (String, String) {
        let serviceName = try service.optionalString("name") ?? ""
        let issuer = try otp.optionalString("issuer").flatMap { $0.isEmpty ? nil : $0 } ?? serviceName
        if let account = try otp.optionalString("account"), !account.isEmpty { return (issuer, account) }
        guard var label = try otp.optionalString("label") else { return (issuer, "") }
        if label.lowercased().hasPrefix(issuer.lowercased() + ":") { label = String(label.dropFirst(issuer.count + 1)) }
        return (issuer, label == issuer ? "" : label)
    }

    private static func groupNames(_ document: JSONFields) throws -> [String: String] {
        guard let list = try? document.array("groups") else {
            throw ImportError.malformed(format, "its 'groups' is not a list")
        }
        var names: [String: String] = [:]
        for value in list {
            guard let group = try? JSONFields(value), let id = try? group.string("id"),
                let name = try? group.string("name")
            else {
                throw ImportError.malformed(format, "a group lacks an id or a name")
            }
            names[id] = name
        }
        return names
    }

    private static func label(of value: JSONValue) -> String? {
        guard let service = try? JSONFields(value) else { return nil }
        let otp = (try? service.fields("otp")) ?? nil
        let issuer = (try? otp?.optionalString("issuer")) ?? nil
        let name = (try? service.optionalString("name")) ?? nil
        let account = (try? otp?.optionalString("account")) ?? nil
        let parts = [issuer ?? name, account].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ":")
    }
}
