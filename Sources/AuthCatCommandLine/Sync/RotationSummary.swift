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
        var held: Bool
    }

    struct Recipient: Encodable {
        var id: String
        var name: String?
    }

    var remote: String
    var epoch: Int64
    var recipients: [Recipient]
    var revoked: [String]
    var leftOut: [String]
    var keyChanged: [String]
    var objectsRemoved: Int
    var exposedAccounts: [ExposedAccount]
    /// Unix seconds; nil when unknown.
    var revokedLastSeen: Int64?
    var advice: [String]

    enum CodingKeys: String, CodingKey {
        case remote, epoch, recipients, revoked, advice
        case leftOut = "left_out"
        case keyChanged = "key_changed"
        case objectsRemoved = "objects_removed"
        case exposedAccounts = "exposed_accounts"
        case revokedLastSeen = "revoked_last_seen"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(remote, forKey: .remote)
        try container.encode(epoch, forKey: .epoch)
        try container.encode(recipients, forKey: .recipients)
        try container.encode(revoked, forKey: .revoked)
        try container.encode(leftOut, forKey: .leftOut)
        try container.encode(keyChanged, forKey: .keyChanged)
        try container.encode(objectsRemoved, forKey: .objectsRemoved)
        try container.encode(exposedAccounts, forKey: .exposedAccounts)
        // Always present, null when unknown, as the devices' dates are.
        try container.encode(revokedLastSeen, forKey: .revokedLastSeen)
        try container.encode(advice, forKey: .advice)
    }

    init(_ outcome: SyncService.RotationOutcome) {
        remote = outcome.remote
        epoch = outcome.epoch
        recipients = outcome.recipients.map { Recipient(id: $0.id, name: $0.name) }
        revoked = outcome.revoked
        leftOut = outcome.leftOut
        keyChanged = outcome.keyChanged
        objectsRemoved = outcome.objectsRemoved
        exposedAccounts = outcome.exposedAccounts.map {
            ExposedAccount(issuer: $0.issuer, name: $0.name, deleted: $0.deleted, held: $0.held)
        }
        revokedLastSeen = outcome.revokedLastSeen.map { Int64($0.timeIntervalSince1970) }
        advice = outcome.revoked.isEmpty ? [] : Self.advice
    }

    static let advice = [
        "consider the secret of every account listed known to whoever holds the revoked device: those added "
            + "after its last sync known here too, since a sync that changes nothing leaves no trace, and a copy "
            + "of its files with its storage credentials could read them on the remote until this rotation",
        "re-key each at its site: sign in, turn two-factor authentication off and on again (or 'reset "
            + "authenticator'), scan the new code with 'authcat add', then remove the old account with 'authcat remove'",
        "revoke the storage credentials the device held (S3 keys, WebDAV or rclone passwords, folder access) "
            + "with the storage provider: authcat cannot",
    ]

    /// The lines for people; `headline` says what was done, the rest what it reached.
    static func lines(_ outcome: SyncService.RotationOutcome, headline: String? = nil) -> [String] {
        var lines = [
            headline
                ?? "the sync key of \(outcome.remote) was rotated (key epoch \(outcome.epoch)); "
                + "the other devices take the new key at their next sync",
            "the new key was sealed to: "
                + TerminalText.sanitized(outcome.recipients.map(\.label).joined(separator: ", ")),
            "objects of the old key removed: \(outcome.objectsRemoved)",
        ]
        if !outcome.leftOut.isEmpty {
            lines.append(
                "left out (joined before devices had keys; turn sync off and on again there with the passphrase): "
                    + outcome.leftOut.joined(separator: ", "))
        }
        if !outcome.keyChanged.isEmpty {
            lines.append(
                "given no key, because their key on the remote is not the one this device first read for them "
                    + "(whoever held the old passphrase could have replaced it; revoke them, or turn sync off and "
                    + "on again there): " + outcome.keyChanged.joined(separator: ", "))
        }
        guard !outcome.revoked.isEmpty else { return lines }
        lines.append("revoked: \(outcome.revoked.joined(separator: ", ")); it can read nothing written from now on")
        let unheld =
            outcome.revokedLastSeen.map { "added after its last sync known here, \(Timestamp.text($0))" }
            ?? "no sync of it known here"
        lines.append("lost-device checklist: every account the revoked device could read")
        lines += outcome.exposedAccounts.map { account in
            let label = account.issuer.isEmpty ? account.name : "\(account.issuer): \(account.name)"
            let notes = [account.held ? nil : unheld, account.deleted ? "deleted since" : nil]
            let note = notes.compactMap { $0 }.joined(separator: ", ")
            return "  \(TerminalText.sanitized(label))" + (note.isEmpty ? "" : " (\(note))")
        }
        lines += advice.map { "- \($0)" }
        return lines
    }
}
