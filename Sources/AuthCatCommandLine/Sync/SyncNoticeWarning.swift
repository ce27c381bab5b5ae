import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// Prints the sync notice (see `SyncNotice`) as one warning line on standard
/// error before a command runs; standard output, which scripts parse, is
/// never touched.
enum SyncNoticeWarning {
    /// Called once per command line, from the root command's validation.
    /// Not for the `sync` commands and `doctor`, which report sync's state
    /// themselves, nor for `help` and shell completion.
    static func show(arguments: [String], home: String?) {
        let path = CommandPath.of(arguments)
        guard path.count > 1, !["sync", "doctor", "help"].contains(path[1]),
            !arguments.contains(where: { $0.hasPrefix("---") || $0 == "--help" || $0 == "-h" }),
            let location = try? VaultAccess(home: home ?? homeOption(in: arguments)).location(),
            let notice = SyncNotice.current(in: location)
        else { return }
        Output.warning("\(notice) (\(NextStep.seeSyncStatus.advice))")
    }

    /// `--home` given after the subcommand, which the root command does not see.
    private static func homeOption(in arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument.hasPrefix("--home=") { return String(argument.dropFirst("--home=".count)) }
            if argument == "--home", index + 1 < arguments.count { return arguments[index + 1] }
        }
        return nil
    }
}
