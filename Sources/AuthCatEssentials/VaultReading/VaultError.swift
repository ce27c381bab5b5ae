#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// What can go wrong with the vault, said so the user knows what to do.
public enum VaultError: UserFacingError, Equatable {
    case noHome
    case noVault(String)
    case corrupt(String)
    case newerFormat(String)
    case unsafePermissions(String, mode: mode_t)
    case foreignOwner(String, owner: uid_t, isFolder: Bool)
    case foreignParent(String, owner: uid_t)
    case missingKeyFile(String)
    case invalidKeyFile(String)
    case keyDoesNotMatch(String)
    case wrongPassphrase
    case passphraseRequired
    case passphraseAlreadySet
    case noPassphraseSet
    case keyFileChanged
    case emptyName
    case duplicate(String)
    case notFound(String)
    case ambiguous(String, candidates: [String])
    case notDeleted(String)
    case counterExhausted(String)
    case busy
    case storage(String)

    public var description: String {
        switch self {
        case .noHome: "cannot find the vault folder: set AUTHCAT_HOME or HOME"
        case .noVault(let path): "no accounts in \(path) yet"
        case .corrupt(let path):
            "the vault database \(path) is damaged or not an authcat vault; it was left untouched (restore it from a backup)"
        case .newerFormat(let path): "the vault \(path) was written by a newer authcat; upgrade authcat to open it"
        case .unsafePermissions(let path, let mode):
            "\(path) is writable by other users (mode \(String(mode, radix: 8))); refusing to use it until you run: chmod go-w \(path)"
        case .foreignOwner(let path, let owner, let isFolder):
            Self.foreignOwnerMessage(path, owner: owner, isFolder: isFolder)
        case .foreignParent(let path, let owner):
            "refusing to create the vault in \(path): \(owner != geteuid() && owner != 0 ? "it belongs to user \(owner)" : "others can write it"), "
                + "who could replace the vault folder with one of theirs; set AUTHCAT_HOME to a folder of your own"
        case .missingKeyFile(let path):
            "the vault key file \(path) is missing; without it the secrets cannot be read (restore it from a backup)"
        case .invalidKeyFile(let path): "the vault key file \(path) is damaged or in an unknown format"
        case .keyDoesNotMatch(let path): "the key file \(path) does not belong to this vault"
        // No "nothing was changed": most commands that ask change nothing anyway.
        case .wrongPassphrase: "wrong passphrase"
        case .passphraseRequired:
            "this vault is protected by a passphrase: set AUTHCAT_PASSPHRASE_FILE or run in a terminal"
        case .passphraseAlreadySet: "a passphrase is already set"
        case .noPassphraseSet: "no passphrase is set"
        case .keyFileChanged: "another authcat process changed the passphrase meanwhile; nothing was changed, try again"
        case .emptyName: "the account name must not be empty"
        case .duplicate(let label):
            "an account named \(label) already exists (names differing only in case are the same)"
        case .notFound(let query): "no account matches \(AccountQuery(query).quotedForMessages)"
        case .ambiguous(let query, let candidates):
            "\(AccountQuery(query).quotedForMessages) matches \(candidates.count) accounts: \(Self.listed(candidates)); give more of the name, or ISSUER:NAME"
        case .notDeleted(let label): "nothing to restore: \(label) is not removed"
        case .counterExhausted(let label): "the HOTP counter of \(label) cannot advance any further"
        case .busy: "the vault is busy in another authcat process; try again"
        case .storage(let what): "vault storage error: \(what)"
        }
    }

    public var nextStep: NextStep? {
        switch self {
        case .noVault: .addAccount
        case .passphraseAlreadySet: .changePassphrase
        case .noPassphraseSet: .setPassphrase
        default: nil
        }
    }

    /// One line with the fix: the folder is chowned as a whole, since every file in it must be yours.
    private static func foreignOwnerMessage(_ path: String, owner: uid_t, isFolder: Bool) -> String {
        let folder = isFolder ? path : String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let what = isFolder ? "the vault folder \(path)" : "the vault file \(path)"
        let risk = isFolder ? "that user could swap the vault's files" : "that user could change it"
        return "\(what) belongs to user \(owner), not you, and \(risk); refusing to use it "
            + "(fix: if the vault is yours, run as root: chown -R \(geteuid()) \(folder); else set AUTHCAT_HOME to a folder of your own)"
    }

    /// The first few of many names, then how many more: one readable line
    /// even when a short query matches thousands of accounts.
    /// The labels of accounts a query matched, each followed by its id when
    /// another has the same label (case ignored): an older vault, or a
    /// device that synced before labels had to differ, can hold such a pair,
    /// and then only the id tells them apart.
    public static func distinctLabels(_ accounts: [some AccountNaming]) -> [String] {
        var counts: [String: Int] = [:]
        for account in accounts { counts[account.label.lowercased(), default: 0] += 1 }
        return accounts.map { account in
            counts[account.label.lowercased(), default: 0] > 1
                ? "\(account.label) (id \(account.id.vaultString))" : account.label
        }
    }

    static func listed(_ names: [String], shown: Int = 8) -> String {
        let head = names.prefix(shown).joined(separator: ", ")
        return names.count > shown ? "\(head) and \(names.count - shown) more" : head
    }
}
