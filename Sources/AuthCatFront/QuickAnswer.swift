import AuthCatEssentials
import Glibc

/// Answers a `Shortcut` from the vault, when the vault is in the everyday
/// state: current, in a folder that needs no warning.
///
/// Whenever the answer is not certain to be the one `authcat-cli` gives, the
/// result is nil, before anything is printed or written, and `authcat-cli`
/// then runs the same command line from the start: HOTP (which writes the
/// vault), a passphrase prompt, no vault yet, a sync notice to show, any error but the two below. The front's only
/// errors are a `code` query that names no account or several: the same
/// `VaultError` authcat-cli throws then, printed through the same
/// `ErrorLine`, so the front cannot behave differently from the full program.
public enum QuickAnswer {
    /// What the front prints.
    public enum Reply: Equatable {
        /// The whole standard output, without its final line break (empty: print nothing); status 0.
        case output(String)
        /// One line on standard error through `ErrorLine`; status 1.
        case failure(VaultError)
    }

    /// The reply; nil to hand over.
    /// - Parameter environment: the variables that locate the vault; by default this process's.
    public static func reply(for shortcut: Shortcut, environment: [String: String] = environment()) -> Reply? {
        if case .completion(let scope, let words, let prefix) = shortcut.command {
            return QuickCompletion.reply(scope, words: words, prefix: prefix, environment: environment)
        }
        guard let location = try? VaultLocation.resolve(override: shortcut.home, environment: environment),
            (try? location.checkPermissions().isEmpty) == true,
            // A sync problem to warn about: authcat-cli prints the warning.
            access(location.noticeFilePath, F_OK) != 0
        else { return nil }
        return QuickVault.read(location) { vault -> Reply? in
            switch shortcut.command {
            case .code(let query, let time):
                try? QuickCode.reply(query: query, time: time, vault: vault, keyFile: location.keyFilePath)
            case .list(let json):
                listing(vault, json: json).map(Reply.output)
            case .completion:
                nil  // answered above, without these checks
            }
        }
    }

    /// `authcat list`, the table of live accounts, or with `--json` the same
    /// text as `authcat-cli list --json`; nil to hand over, as for an empty
    /// vault (authcat-cli says it has no accounts).
    private static func listing(_ vault: QuickVault, json: Bool) -> String? {
        guard let accounts = try? vault.reader.accounts(), !accounts.isEmpty else { return nil }
        return json
            ? AccountListJSON.text(accounts)
            : TextTable.lines(accounts.map(AccountRow.cells), width: TerminalWidth.of(STDOUT_FILENO))
                .joined(separator: "\n")
    }

    /// The variables the vault location and a completion depend on; copying all of
    /// `ProcessInfo.environment` would cost more than computing a code.
    public static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for name in AccountLabelCompletion.environmentVariables + QuickCompletion.shellVariables {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }
}
