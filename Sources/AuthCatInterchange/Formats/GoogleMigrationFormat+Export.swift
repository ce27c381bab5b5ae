import AuthCatCore
import Foundation
import SwiftProtobuf

extension GoogleMigrationFormat {
    /// Accounts per QR code: a batch this size stays a QR code a phone reads
    /// easily from a terminal, as Google's own exports do.
    public static let accountsPerCode = 10

    /// Migration URIs for `items`, `accountsPerCode` accounts each, and the
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
        let batches = stride(from: 0, to: parameters.count, by: accountsPerCode).map {
            Array(parameters[$0..<min($0 + accountsPerCode, parameters.count)])
        }
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

    /// `otpauth-migration://offline?data=` and the percent-encoded base64 of `payload`.
    static func uri(for payload: Data) -> String {
        "\(scheme)://offline?data=" + URIComponent.encode(payload.base64EncodedString())
    }

    private static func unsupportedReason(_ account: Account) -> String? {
        if account.otp.kind == .steam { return "Google Authenticator has no Steam codes" }
        if account.otp.kind == .totp && account.otp.period != 30 {
            return "Google Authenticator only imports 30-second codes, not \(account.otp.period)-second ones"
        }
        if ![6, 8].contains(account.otp.digits) { return "Google Authenticator only imports 6 or 8 digits, not \(account.otp.digits)" }
        return nil
    }

    private static func otpParameters(_ item: ExportItem) -> GoogleMigrationPayload.OtpParameters {
        var parameters = GoogleMigrationPayload.OtpParameters()
        let account = item.account
        parameters.secret = item.secret.unprotectedData()
        parameters.issuer = account.issuer
        // Google shows the name as the label, so it carries the issuer as its own exports do.
        parameters.name = account.issuer.isEmpty ? account.name : "\(account.issuer):\(account.name)"
        parameters.algorithm = switch account.otp.algorithm {
        case .sha1: .sha1
        case .sha256: .sha256
        case .sha512: .sha512
        }
        parameters.digits = account.otp.digits == 8 ? .eight : .six
        parameters.type = account.otp.kind == .hotp ? .hotp : .totp
        parameters.counter = account.otp.kind == .hotp ? Int64(account.otp.counter) : 0
        return parameters
    }
}
