import AuthCatEssentials
import AuthCatInterchange

/// The command line's words for the steps the libraries name.
extension NextStep {
    var advice: String {
        switch self {
        case .addAccount: "add one with 'authcat add' or 'authcat import'"
        case .setPassphrase: "to set one, run: authcat passphrase set"
        case .changePassphrase: "to change it, run: authcat passphrase change"
        case .lock: "run 'authcat lock' when you step away"
        case .nameTimeServer: "name a reachable time server: authcat doctor --server HOST"
        case .syncNow: "run: authcat sync now"
        case .confirmRemoteDeletion:
            "run 'authcat sync now' to confirm it (sync then turns off here), "
                + "then 'authcat sync enable --remote URL' to start a new remote vault"
        case .compact: "run: authcat sync compact"
        case .repairRemote:
            "to repair it, put the objects back from a good copy, delete those that no device of the vault wrote, "
                + "or run 'authcat sync compact' on the device concerned"
        case .seeSyncStatus: "see: authcat sync status"
        case .enableSync: "to turn sync on, run: authcat sync enable --remote URL"
        case .rejoinSync:
            "to join the remote vault again as a new device, run 'authcat sync disable', then 'authcat sync enable --remote URL'"
        case .switchRemote:
            "to sync with the right remote, run 'authcat sync disable', then 'authcat sync enable --remote URL'"
        case .joinDifferentVault:
            "to join it anyway, run 'authcat sync enable --remote URL --join-different-vault'"
        case .replaceFile: "add --force to replace it"
        case .nameImportFormat:
            "name it with --format (\(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .readQRCodes: "to import the QR codes in it, add --qr"
        case .convertToPNG: "convert it to PNG, then import it with --qr"
        case .skipInvalidEntries: "pass --skip-invalid to import the valid entries, or fix the file"
        }
    }

    /// `message`, then the step's advice when there is one.
    static func advised(_ message: String, _ step: NextStep?) -> String {
        step.map { "\(message); \($0.advice)" } ?? message
    }
}
