import AuthCatCore
import AuthCatEssentials
import Foundation

// The command line's own errors, kept together: each is one lowercase line
// (`UserFacingError`), which `ErrorReport` prefixes with `authcat: `. Errors
// that belong to one type stay nested in it (`SecretInput.URIGivenError`).

/// Problems with what the user typed or piped in. Messages never repeat the input.
enum InputError: UserFacingError {
    case tooLong(what: String, limit: Int)
    case noTerminal(what: String, hint: String)
    case readFailed(what: String, reason: String)
    case unreadableFile(variable: String, path: String, reason: String)
    case emptyPassphrase(source: String)
    case passphrasesDiffer
    case notConfirmed(String)
    /// Never repeats the answer: a passphrase typed there by habit would show.
    case notYesOrNo

    var description: String {
        switch self {
        case .tooLong(let what, let limit): "\(what) is longer than \(limit) bytes; nothing was changed"
        case .noTerminal(let what, let hint): "cannot ask for \(what) without a terminal; \(hint)"
        case .readFailed(let what, let reason): "cannot read \(what): \(reason)"
        case .unreadableFile(let variable, let path, let reason): "cannot read the \(variable) file \(path): \(reason)"
        case .emptyPassphrase(let source): "the passphrase from \(source) is empty"
        case .passphrasesDiffer: "the two passphrases differ; nothing was changed"
        case .notConfirmed(let message): message
        case .notYesOrNo: "the answer was neither y nor n; nothing was changed"
        }
    }
}

/// Problems specific to the `config` commands.
enum ConfigError: UserFacingError {
    case notSet(key: String, noun: String)
    case unknownKey(String, synced: Bool, nearest: String?)
    case badValue(key: String, expected: String)
    case noVault

    var description: String {
        switch self {
        case .notSet(let key, let noun): "no \(noun) named \(TerminalText.sanitized(key).debugDescription)"
        case .unknownKey(let key, let synced, let nearest):
            "\(TerminalText.sanitized(key).debugDescription) is not a \(synced ? "synced preference" : "setting") authcat reads"
                + (nearest.map { "; did you mean \($0.debugDescription)?" } ?? "")
                + (synced
                    ? "; synced preferences are your own, named user.NAME"
                    : "; see 'authcat config --help', or name a setting of your own user.NAME")
        case .badValue(let key, let expected): "\(key) takes \(expected)"
        case .noVault: "there is no vault yet, so nothing to configure; 'authcat add' creates it"
        }
    }
}

/// `list`, `code` and `history` with no account to show, the vault missing
/// or empty: one message on standard error and status 1 for all, with
/// `--json` too, instead of an empty output that looks like success. The
/// quick front hands these cases over, so it says the same.
struct NoAccountsError: UserFacingError {
    var folder: String

    init(_ options: VaultOptions, in invocation: Invocation) {
        folder = (try? options.location(in: invocation).folder.path) ?? "the vault"
    }

    /// The words of `VaultStoreError.noVault`, which the other commands give.
    var description: String { VaultStoreError.noVault(folder).description }
    var nextStep: NextStep? { .addAccount }
}

/// A Yandex or mOTP account added without its PIN.
enum PINInputError: UserFacingError {
    case missing

    var description: String {
        "this kind of account needs its PIN: pipe it on the line after the secret (or URI), or type it on a terminal"
    }
}

/// Why `authcat code --watch` cannot show its view.
enum LiveViewError: UserFacingError {
    case notATerminal
    case noMatch(String)

    var description: String {
        switch self {
        case .notATerminal:
            "--watch needs a terminal on standard output; for scripts use 'authcat code --json'"
        case .noMatch(let query):
            "no account matches \(AccountQuery(query).quotedForMessages)"
        }
    }
}

/// `list --tag T` when no account has every tag given.
struct NoTaggedAccountsError: UserFacingError {
    var tags: [String]

    var description: String {
        let named = tags.map { TerminalText.sanitized($0).debugDescription }.joined(separator: " and ")
        return "no account is tagged \(named)"
    }
}

/// Why a code could not be put on the clipboard.
enum ClipboardError: UserFacingError {
    case noTool
    /// The tool named failed; `reason` is its own message when it gave one.
    case failed(String, reason: String)
    /// What the clipboard holds could not be read, so it cannot be put back.
    case unreadable(String)
    /// The process that would clear the clipboard later could not be started.
    case cannotSchedule(String)

    var description: String {
        switch self {
        case .noTool:
            "no clipboard tool found, so the code was not copied; install wl-clipboard (Wayland), xclip or xsel, or leave out --copy"
        case .failed(let tool, let reason):
            "could not copy the code with \(tool): \(reason)"
        case .unreadable(let reason):
            "could not read the clipboard: \(reason)"
        case .cannotSchedule(let reason):
            "the code stays on the clipboard: could not start the process that clears it (\(reason))"
        }
    }
}

/// Why `backup --output-dir` failed; the earlier backups are untouched.
enum BackupCommandError: UserFacingError {
    case unverified(String, reason: String, removed: Bool)
    case noFreeName(String)

    var description: String {
        switch self {
        case .unverified(let path, let reason, let removed):
            "the new backup \(path) did not verify\(removed ? " and was removed" : "") (\(reason)); no old backup was deleted"
        case .noFreeName(let folder):
            "\(folder) has something at each of the 99 names for a backup made this second; try again in a second"
        }
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

/// Output that is the command's product could not be written (a full disk,
/// a reader that went away).
struct StandardStreamError: UserFacingError {
    var reason: String
    var description: String { "cannot write to standard output: \(reason.lowercased())" }
}

/// A library's error with a step that only the command knows to offer (one
/// of its own options, say): the library cannot name it, since the same error
/// comes from commands without that option.
struct AdvisedError: UserFacingError {
    var error: any UserFacingError
    var nextStep: NextStep?

    var description: String { error.description }
}

extension UserFacingError {
    /// The description with its next step worded: how every error reads on the command line.
    var advisedDescription: String { NextStep.advised(description, nextStep) }
}

/// Problems the `sync` commands find before the sync engine is involved.
enum SyncCommandError: UserFacingError {
    case syncOff
    case alreadyOn(remote: String)
    case recoveryKeyNeedsExistingVault(remote: String)
    case recoveryKeyFileExists(String)
    case cannotWriteRecoveryKey(String, reason: String)
    case deleteNeedsConfirmation
    case rotateNeedsConfirmation
    case notRotated
    case cleartextNeedsOptIn(endpoint: String)
    case cleartextDeclined
    case notDeleted(syncOn: Bool)
    case neverSetUp
    case cannotStartBackgroundSync(reason: String)
    case firstSyncFailed(Error)
    case remoteNotUpdated(Error)
    case lostStateCannotReachRemote
    case remoteHasProblems(Int)
    case differentVaultNeedsConfirmation(remote: String)
    case differentVaultNotJoined
    case newVaultNotCreated
    case joinedDevicesUnnamed(String)

    var description: String {
        switch self {
        case .syncOff:
            NextStep.advised("sync is off for this vault", .enableSync)
        case .alreadyOn(let remote):
            "sync is already on with \(remote); to use another remote, run authcat sync disable first"
        case .recoveryKeyNeedsExistingVault(let remote):
            "\(remote) holds no vault to join, and a recovery key can only join one; leave out --use-recovery-key to create it"
        case .recoveryKeyFileExists(let path):
            "\(path) already exists; choose a new file for the recovery key, so no file is overwritten"
        case .cannotWriteRecoveryKey(let path, let reason):
            "cannot write the recovery key to \(path): \(reason)"
        case .deleteNeedsConfirmation:
            "--delete-remote deletes every device's synced data; without a terminal to confirm, add --yes"
        case .rotateNeedsConfirmation:
            "sync rotate moves every device to a new sync key; without a terminal to confirm, add --yes"
        case .notRotated:
            "nothing was rotated"
        case .cleartextNeedsOptIn(let endpoint):
            "\(endpoint) is plain http to another machine, where the synced objects travel unencrypted and can be altered; "
                + "use https, or without a terminal to confirm, add --allow-http"
        case .cleartextDeclined:
            "sync was not turned on; use an https:// endpoint, or confirm the http:// one"
        case .notDeleted(let syncOn):
            syncOn ? "nothing was deleted, and sync is still on" : "nothing was deleted"
        case .neverSetUp:
            "sync was never set up for this vault, so there is no remote to turn off or delete"
        case .cannotStartBackgroundSync(let reason):
            "cannot start the background sync: \(reason)"
        case .firstSyncFailed(let error):
            "sync is on, but the first sync failed: \(Self.describe(error, otherwise: .syncNow))"
        case .lostStateCannotReachRemote:
            "this device's sync state was lost, and with it the key to the remote; nothing was changed. Run "
                + "'authcat sync disable' without options to forget the lost state, or run this command on another device"
        case .remoteHasProblems(let count):
            "the sync finished, but the remote has \(count) problem\(count == 1 ? "" : "s") that stay until it is repaired; "
                + "see: authcat sync status"
        case .differentVaultNeedsConfirmation(let remote):
            "\(remote) now holds a different vault than the one this device synced with there; nothing was set up. "
                + "Without a terminal to confirm, add --join-different-vault to join it"
        case .differentVaultNotJoined:
            "nothing was set up, and sync stays off"
        case .newVaultNotCreated:
            "nothing was set up, and sync stays off; check the location, or to join an existing vault, name where it is"
        case .joinedDevicesUnnamed(let devices):
            "devices joined since the sync passphrase was last set, and whoever knew it could have joined one: "
                + "\(devices); name each to cut off with --revoke DEVICE, and keep the rest with --keep-joined. "
                + "The passphrase was not changed"
        case .remoteNotUpdated(let error):
            "sync is off on this device, but the remote could not be updated (\(Self.what(error))); "
                + "to try again, run this command again"
        }
    }

    /// A safe description of an error from elsewhere, with its next step worded
    /// (or `fallback`, when it names none): only `UserFacingError`s are shown verbatim.
    static func describe(_ error: Error, otherwise fallback: NextStep? = nil) -> String {
        NextStep.advised(what(error), (error as? UserFacingError)?.nextStep ?? fallback)
    }

    /// What went wrong, without advice: only `UserFacingError`s are shown verbatim.
    static func what(_ error: Error) -> String {
        (error as? UserFacingError)?.description ?? UnexpectedError.message("sync", error)
    }
}

/// A desktop program that `pick` or `code --type` needs is missing, or failed.
enum DesktopError: UserFacingError {
    /// The program named is not installed; the package installs it.
    case missingProgram(String, package: String)
    /// No menu program fits this session.
    case noMenu(session: DesktopSession)
    /// The program named failed; `reason` is its own message when it gave one.
    case failed(String, reason: String)
    /// The menu was closed without a choice.
    case nothingPicked
    /// A locked vault, and nowhere to ask for its passphrase.
    case nowhereToAsk

    var description: String {
        switch self {
        case .missingProgram(let program, let package):
            "\(program) is not installed; install the package \(package)"
        case .noMenu(let session):
            switch session {
            case .wayland:
                "no menu program found; install fuzzel, wofi, bemenu or rofi, or name one with --menu-command"
            case .x11: "no menu program found; install rofi or suckless-tools (dmenu), or name one with --menu-command"
            case .none:
                "no display and no terminal to show a menu on; run it in a terminal (with fzf) or a desktop session"
            }
        case .failed(let program, let reason):
            "\(program) failed: \(reason)"
        case .nothingPicked:
            "no account was picked; nothing was done"
        case .nowhereToAsk:
            "the vault is locked and there is no terminal to ask for its passphrase on; install pinentry, "
                + "run 'authcat unlock' first, or set \(PassphraseSource.currentVariable)"
        }
    }
}

/// Why a followed file could not be read whole (`authcat follow`).
enum FollowedFileProblem: UserFacingError {
    case gone(String)
    case unreadable(String, Int32)
    case keepsChanging(String)

    var description: String {
        switch self {
        case .gone(let path): "the file is gone: \(TerminalText.sanitized(path))"
        case .unreadable(let path, let code):
            "cannot read \(TerminalText.sanitized(path)): \(String(cString: strerror(code)).lowercased())"
        case .keepsChanging(let path):
            "\(TerminalText.sanitized(path)) kept changing while it was read; nothing was applied, try again"
        }
    }
}

/// A followed file's password is needed and cannot be asked for: no
/// terminal and no AUTHCAT_IMPORT_PASSPHRASE_FILE (`follow now` from cron).
struct PasswordNeeded: UserFacingError {
    var name: String?
    /// Whether a kept password stopped opening the file.
    var changed: Bool

    var description: String {
        let file = name.map { "'\(TerminalText.sanitized($0))'" } ?? "the file"
        let what = changed ? "the kept password no longer opens \(file)" : "\(file) is encrypted"
        return "\(what); give its password on a terminal, or in the file AUTHCAT_IMPORT_PASSPHRASE_FILE names"
    }
}

/// `follow now` with nothing to do, or with files it could not apply.
enum FollowCommandError: UserFacingError {
    case nothingFollowed
    case notApplied(Int, of: Int)

    var description: String {
        switch self {
        case .nothingFollowed: "no file is followed; 'authcat follow add FILE' follows one"
        case .notApplied(let failed, let total):
            "\(failed) of \(total.counted("followed file")) could not be applied; nothing of \(failed == 1 ? "it" : "them") changed"
        }
    }
}
