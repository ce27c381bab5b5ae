import AuthCatCore
import AuthCatEssentials
import Foundation

extension TwoFASFormat {
    /// A 2FAS backup (schema version 4, without a password) holding `items`,
    /// for 2FAS's "Import from file". 2FAS keeps TOTP, HOTP and Steam
    /// accounts, and one group per service: the first tag becomes its group,
    /// and its note `additionalInfo`. Yandex and mOTP accounts are left out.
    static func document(for items: [ExportItem], at date: Date) throws -> (Data, [ExportOmission]) {
        var omitted: [ExportOmission] = []
        var services: [[String: Any]] = []
        var groups: [String: String] = [:]
        for item in items {
            guard let tokenType = tokenType(item.account.otp.kind) else {
                omitted.append(
                    ExportOmission(
                        label: item.account.label, reason: "2FAS has no \(item.account.otp.kind.rawValue) accounts"))
                continue
            }
            var service = serviceObject(item, tokenType: tokenType, position: services.count, at: date)
            if let tag = item.account.tags.first {
                let id = groups[tag] ?? AegisFormat.groupUUID(tag)
                groups[tag] = id
                service["groupId"] = id
            }
            services.append(service)
        }
        let document: [String: Any] = [
            "services": services,
            "groups": groups.sorted { $0.key < $1.key }.map { ["id": $0.value, "name": $0.key, "isExpanded": true] },
            "updatedAt": date.unixMilliseconds, "schemaVersion": 4, "appOrigin": "authcat",
        ]
        var data = try JSONSerialization.data(
            withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        data.append(UInt8(ascii: "\n"))
        return (data, omitted)
    }

    private static func tokenType(_ kind: OTPKind) -> String? {
        switch kind {
        case .totp: "TOTP"
        case .hotp: "HOTP"
        case .steam: "STEAM"
        case .yandex, .motp: nil
        }
    }

    private static func serviceObject(
        _ item: ExportItem, tokenType: String, position: Int, at date: Date
    ) -> [String: Any] {
        let account = item.account
        // A service without an issuer is named by the account alone, as 2FAS names one.
        let accountName = account.issuer.isEmpty ? "" : account.name
        var otp: [String: Any] = [
            "label": accountName, "account": accountName, "issuer": account.issuer,
            "digits": account.otp.digits, "algorithm": account.otp.algorithm.rawValue.uppercased(),
            "tokenType": tokenType, "source": "Manual",
        ]
        if account.otp.kind == .hotp {
            otp["counter"] = account.otp.counter
        } else {
            otp["period"] = account.otp.period
        }
        var service: [String: Any] = [
            "name": account.issuer.isEmpty ? account.name : account.issuer, "secret": Base32.encode(item.secret),
            "updatedAt": date.unixMilliseconds, "otp": otp, "order": ["position": position],
        ]
        if !account.note.isEmpty { service["additionalInfo"] = account.note }
        return service
    }
}
