import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange

extension AuthCat {
    /// `authcat follow now`: applies what changed in every followed file.
    struct FollowNow: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "now",
            abstract: "Apply what changed in every followed file.",
            discussion: """
                A file whose content is the one last applied is not read further. A file being \
                written is read once it has been left alone for a second, so a half-written \
                file is not applied; one that cannot be read, opened or parsed changes nothing \
                and is reported. When a file holds entries that cannot be read, no account is \
                removed.

                With --watch, authcat stays running and applies each change as soon as the file \
                is written whole (closed, or renamed into place as Syncthing and Nextcloud do), \
                until interrupted.

                Exit status: 0 when every file was applied or unchanged; 1 when one could not \
                be (see its line, or its 'status' in --json).

                Examples:
                  authcat follow now
                  authcat follow now --json | jq '.[] | select(.status != "unchanged")'
                  authcat follow now --watch
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(help: "Only the followed files with these names (default: every one).")
        var names: [String] = []

        @Flag(help: "Print what was done as JSON: one object per file.")
        var json = false

        @Flag(help: "Keep running, and apply each change as soon as a file is written.")
        var watch = false

        func run(in invocation: Invocation) async throws {
            let vault = try vaultOptions.openVault(in: invocation)
            let files = try chosenFiles(of: vault)
            guard !files.isEmpty else {
                throw FollowCommandError.nothingFollowed
            }
            let look = FollowedFileLook(vault: vault, invocation: invocation)
            if watch { return try await FollowWatch(look: look, json: json).run(files) }
            let reports = try files.map(look.check)
            if reports.contains(where: \.changedAccounts) { VaultChangeHook.vaultDidChange(vault, in: invocation) }
            try Self.print(reports, json: json, in: invocation)
            let failed = reports.filter { $0.status == .failed || $0.status == .passwordNeeded }
            if !failed.isEmpty { throw FollowCommandError.notApplied(failed.count, of: reports.count) }
        }

        private func chosenFiles(of vault: Vault) throws -> [FollowedFile] {
            guard !names.isEmpty else { return try vault.followedFiles() }
            return try names.map(vault.followedFile(named:))
        }

        static func print(_ reports: [FollowReport], json: Bool, in invocation: Invocation) throws {
            for report in reports { FollowReportOutput.printWarnings(report, in: invocation) }
            if json { return invocation.output.print(try JSONOutput.string(reports.map(FollowDocument.init))) }
            invocation.output.print(reports.flatMap(FollowReportOutput.lines).joined(separator: "\n"))
        }
    }
}
