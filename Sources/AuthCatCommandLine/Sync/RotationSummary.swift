import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// What `sync rotate` did, and after a revocation the lost-device checklist,
/// as lines for people and as the `--json` document (docs/JSON.md). Accounts
/// are named by issuer and name only, never a secret.
struct RotationSummary: Encodable {
    struct ExposedAccount: Encodable {
        var issuer: String
        var name: String
        var deleted: Bool
    }

    var remote: String
    var epoch: Int64
    var revoked: [String]
    var leftOut: [String]
    var objectsRemoved: Int
    var exposedAccounts: [ExposedAccount]
    var advice: [String]

    enum CodingKeys: String, CodingKey {
        case remote, epoch, revoked, advice
        case leftOut = "left_out"
        case objectsRemoved = "objects_removed"
        case exposedAccounts = "exposed_accounts"
    }

    init(_ outcome: SyncService.RotationOutcome) {
        remote = outcome.remote
        epoch = outcome.epoch
        revoked = outcome.revoked
        leftOut = outcome.leftOut
        objectsRemoved = outcome.objectsRemoved
        exposedAccounts = outcome.exposedAccounts.map {
            ExposedAccount(issuer: $0.issuer, name: $0.name, deleted: $0.deleted)
        }
        advice = outcome.revoked.isEmpty ? [] : Self.advice
    }

    static let advice = [
        "consider the secret of every account listed known to whoever holds the revoked device",
        "re-key each at its site: sign in, turn two-factor authentication off and on again (or 'reset "
            + "authenticator'), scan the new code with 'authcat add', then remove the old account with 'authcat remove'",
        "revoke the storage credentials the device held (S3 keys, WebDAV or rclone passwords, folder access) "
            + "with the storage provider: authcat cannot",
    ]

    static func lines(_ outcome: SyncService.RotationOutcome) -> [String] {
        var lines = [
            "the sync key of \(outcome.remote) was rotated (key epoch \(outcome.epoch)); "
                + "the other devices take the new key at their next sync",
            "objects of the old key removed: \(outcome.objectsRemoved)",
        ]
        if !outcome.leftOut.isEmpty {
            lines.append(
                "left out (joined before devices had keys; turn sync off and on again there with the passphrase): "
                    + outcome.leftOut.joined(separator: ", "))
        }
        guard !outcome.revoked.isEmpty else { return lines }
        lines.append("revoked: \(outcome.revoked.joined(separator: ", ")); it can read nothing written from now on")
        lines.append("lost-device checklist: the revoked device held these accounts at its last sync")
        lines += outcome.exposedAccounts.map { account in
            let label = account.issuer.isEmpty ? account.name : "\(account.issuer): \(account.name)"
            return "  \(TerminalText.sanitized(label))" + (account.deleted ? " (deleted since)" : "")
        }
        lines += advice.map { "- \($0)" }
        return lines
    }
}
