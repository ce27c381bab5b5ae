import AuthCatCore
import AuthCatEssentials

/// The one rule for every passphrase authcat is asked to set: the vault's,
/// a backup's and the sync passphrase. It is said in the prompt, before
/// anything is typed, and checked on the first entry (or the file's line).
enum NewPassphraseRule {
    /// Each of these passphrases guards data someone may copy and attack
    /// offline (a stolen laptop, a backup, the remote), so very short ones are refused.
    static let minimumLength = 8

    /// What a prompt says: "new passphrase (at least 8 characters): ".
    static func prompt(_ what: String) -> String {
        "\(what) (at least \(minimumLength) characters): "
    }

    /// Throws unless `passphrase` has at least `minimumLength` characters (UTF-8 sequences, not bytes).
    static func check(_ passphrase: SecretBytes, what: String) throws {
        // Counted in place: no copy of the passphrase is made.
        let characters = passphrase.withUnsafeBytes { bytes in bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }
        guard characters >= minimumLength else { throw NewPassphraseError.tooShort(what: what, minimum: minimumLength) }
    }
}

enum NewPassphraseError: UserFacingError {
    case tooShort(what: String, minimum: Int)

    var description: String {
        switch self {
        case .tooShort(let what, let minimum):
            "\(what) must be at least \(minimum) characters long; nothing was changed"
        }
    }
}
