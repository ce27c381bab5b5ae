import AuthCatEssentials
import Glibc

/// Answers a `Shortcut` from the vault, when the vault is in the everyday
/// state: current, in a folder that needs no warning.
///
/// Whenever the answer is not certain to be the one `authcat-cli` gives, the
/// result is nil, before anything is printed or written, and `authcat-cli`
/// then runs the same command line from the start: HOTP (which writes the
/// vault), a passphrase prompt, several or
/// no matches, no vault yet, a sync notice to show, any error. So the front
/// has no messages of its own and cannot behave differently from the full
/// program.
enum QuickAnswer {
    /// The whole output, without its final line break (empty: print nothing); nil to hand over.
    static func output(for shortcut: Shortcut) -> String? {
        guard let location = try? VaultLocation.resolve(override: shortcut.home, environment: environment()),
              (try? location.checkPermissions().isEmpty) == true,
              // A sync problem to warn about: authcat-cli prints the warning.
              access(location.noticeFileURL.path, F_OK) != 0,
              let vault = QuickVault(location)
        else { return nil }
        switch shortcut.command {
        case let .code(query, time):
            return try? QuickCode.line(query: query, time: time, vault: vault, keyFile: location.keyFileURL)
        case .list:
            return QuickList.table(vault)
        }
    }

    /// The variables the vault location depends on; copying all of
    /// `ProcessInfo.environment` would cost more than computing a code.
    private static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for name in VaultLocation.environmentVariables {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }
}
