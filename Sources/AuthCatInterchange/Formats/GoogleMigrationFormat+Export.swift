import AuthCatCore
import AuthCatEssentials
import Foundation
import SwiftProtobuf

extension GoogleMigrationFormat {
    /// Accounts per QR code at most, as in Google's own exports.
    public static let maximumAccountsPerCode = 10
    /// URI characters per QR code at most: a version 14 code (73 modules, level
    /// M), which a terminal 80 columns wide draws whole with its quiet zone.
    public static let maximumURILength = 360

    /// Migration URIs for `items`, as many accounts per code as fit, and the
    /// accounts Google Authenticator cannot hold.
    static func uris(for items: [ExportItem], batchID: Int32) throws -> (uris: [String], omitted: [ExportOmission]) {
        var omitted: [ExportOmission] = []
        var parameters: [GoogleMigrationPayload.OtpParameters] = []
        for item in items {
            if let reason = unsupportedReason(item.account) {
                omitted.append(ExportOmission(label: item.account.label, reason: reason))
            } else {
                parameters.append(otpParameters(item))
            }
        }
        let batches = try batched(parameters)
        let uris = try batches.enumerated().map { index, batch in
            var payload = GoogleMigrationPayload()
            payload.otpParameters = batch
            payload.version = 1
            payload.batchSize = Int32(batches.count)
            payload.batchIndex = Int32(index)
            payload.batchID = batchID
            return uri(for: try payload.serializedBytes())
        }
        return (uris, omitted)
    }

    /// Consecutive accounts, as many per code as fit; one account too large
    /// for the limit gets a (larger) code of its own.
    private static func batched(
        _ parameters: [GoogleMigrationPayload.OtpParameters]
    ) throws -> [[GoogleMigrationPayload.OtpParameters]] {
        var batches: [[GoogleMigrationPayload.OtpParameters]] = []
        var current: [GoogleMigrationPayload.OtpParameters] = []
        for account in parameters {
            let full = current.count == maximumAccountsPerCode
            if !current.isEmpty, try full || !fits(current + [account]) {
                batches.append(current)
                current = []
            }
            current.append(account)
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// Whether a code holding `accounts` stays within `maximumURILength`,
    /// leaving room for the version and batch fields (at most 24 bytes, 34 characters).
    private static func fits(_ accounts: [GoogleMigrationPayload.OtpParameters]) throws -> Bool {
        var payload = GoogleMigrationPayload()
        payload.otpParameters = accounts
        return uri(for: try payload.serializedBytes()).utf8.count + 34 <= maximumURILength
    }

    /// `otpauth-migration://offline?data=` and the percent-encoded base64 of `payload`.
    static func uri(for payload: Data) -> String {
        "\(scheme)://offline?data=" + PercentEncoding.encode(payload.base64EncodedString())
    }

    private static func unsupportedReason(_ account: Account) -> String? {
        switch account.otp.kind {
        case .steam: return "Google Authenticator has no Steam codes"
        case .yandex: return "Google Authenticator has no Yandex codes"
        case .motp: return "Google Authenticator has no mOTP codes"
        case .totp, .hotp: break
        }
        if account.otp.kind == .totp && account.otp.period != 30 {
            return "Google Authenticator only imports 30-second codes, not \(account.otp.period)-second ones"
        }
        if ![6, 8].contains(account.otp.digits) {
            return "Google Authenticator only imports 6 or 8 digits, not \(account.otp.digits)"
        }
        return nil
    }

    private static func otpParameters(_ item: ExportItem) -> GoogleMigrationPayload.OtpParameters {
        var parameters = GoogleMigrationPayload.OtpParameters()
        let account = item.account
        parameters.secret = item.secret.unprotectedData()
        parameters.issuer = account.issuer
        // Google shows the name as the label, so it carries the issuer as its own exports do.
        parameters.name = account.issuer.isEmpty ? account.name : "\(account.issuer):\(account.name)"
        parameters.algorithm =
            switch account.otp.algorithm {
            case .sha1: .sha1
            case .sha256: .sha256
            case .sha512: .sha512
            // Only mOTP uses MD5, and mOTP accounts are omitted above.
            case .md5: .md5
            }
        parameters.digits = account.otp.digits == 8 ? .eight : .six
        parameters.type = account.otp.kind == .hotp ? .hotp : .totp
        parameters.counter = account.otp.kind == .hotp ? Int64(account.otp.counter) : 0
        return parameters
    }
}
