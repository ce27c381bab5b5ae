import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// What `sync passphrase change` did, as lines for people and as the
/// `--json` document (docs/JSON.md): the rotation it was (`RotationSummary`)
/// and whether the recovery key changed. The new recovery key itself is
/// shown once, before the change is written, never here.
struct PassphraseChangeSummary: Encodable {
    var remote: String
    var newRecoveryKey: Bool
    /// The rotation; nil for a vault made by an earlier authcat, upgraded in place.
    var rotation: RotationSummary?

    enum CodingKeys: String, CodingKey {
        case remote, rotation
        case newRecoveryKey = "new_recovery_key"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(remote, forKey: .remote)
        try container.encode(newRecoveryKey, forKey: .newRecoveryKey)
        // Always present, null after an in-place upgrade.
        try container.encode(rotation, forKey: .rotation)
    }

    init(_ outcome: SyncService.PassphraseChangeOutcome) {
        remote = outcome.remote
        newRecoveryKey = outcome.recoveryKey != nil
        rotation = outcome.rotation.map(RotationSummary.init)
    }

    static func lines(_ outcome: SyncService.PassphraseChangeOutcome, keyFile: String?) -> [String] {
        var lines: [String]
        if let rotation = outcome.rotation {
            lines = RotationSummary.lines(
                rotation,
                headline: "the sync passphrase of \(outcome.remote) was changed, and with it the keys (key epoch "
                    + "\(rotation.epoch)): the old passphrase opens nothing written from now on; the other "
                    + "devices keep syncing")
        } else {
            lines = [
                "the sync passphrase of \(outcome.remote) was changed; other devices keep syncing",
                "this remote vault was made by an earlier authcat, and its master key stays until it is rotated: "
                    + "run 'authcat sync rotate' now if the old passphrase may be known to someone else",
            ]
        }
        if outcome.recoveryKey != nil {
            if let keyFile { lines.append("the new recovery key was written to \(keyFile)") }
            lines.append("the old recovery key no longer works")
        } else if outcome.rotation != nil {
            lines.append("the recovery key still works")
        }
        return lines
    }
}
