import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// Prints the sync notice (see `SyncNotice`) as one warning line on standard
/// error before a command runs; standard output, which scripts parse, is
/// never touched.
enum SyncNoticeWarning {
    /// Called once per command line, by `CommandRunner` before parsing.
    /// Not for the `sync` commands and `doctor`, which report sync's state
    /// themselves, nor for `help` and shell completion. The vault is the one
    /// the first `--home` names, before or after the subcommand.
    static func show(in invocation: Invocation) {
        let arguments = invocation.arguments
        let path = CommandPath.of(arguments)
        let home = ArgumentScanner.firstValue(of: "--home", in: arguments)
        guard path.count > 1, !["sync", "doctor", "help"].contains(path[1]),
            !arguments.contains(where: { $0.hasPrefix("---") || $0 == "--help" || $0 == "-h" }),
            let location = try? VaultAccess(home: home, in: invocation).location(),
            let notice = SyncNotice.current(in: location)
        else { return }
        invocation.output.warning("\(notice) (\(NextStep.seeSyncStatus.advice))")
    }
}
