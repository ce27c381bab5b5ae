import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Foundation

extension AuthCat {
    /// `authcat restore-backup FILE`: brings a backup's accounts and preferences back.
    struct RestoreBackup: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore-backup",
            abstract: "Restore the accounts and synced preferences of an authcat backup.",
            discussion: """
                Restores into an empty vault (creating it) or merges into one in use, as \
                'authcat import' does: accounts already there with the same secret are \
                skipped, ones with the same name and a different secret are reported and left \
                alone, and preferences the vault already has keep the vault's value. Accounts \
                keep their ids and creation dates when the vault has no account with that id. \
                A backup's history is not replayed: the restore is one new entry in this \
                vault's history, by "restore". A vault that the restore creates has no \
                passphrase, and a warning says so: 'authcat passphrase set' adds one.

                The passphrase is read from the file named by AUTHCAT_BACKUP_PASSPHRASE_FILE, \
                else asked for on the terminal. A wrong passphrase, or a file that was cut \
                short or altered, is refused and nothing changes. (To bring back one deleted \
                account, use 'authcat restore'.)

                Examples:
                  authcat restore-backup authcat-backup-20240501-031500.authcat --dry-run
                  ssh nas 'cat authcat.bak' | authcat restore-backup -
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(help: "The backup file, or - for standard input.", completion: .file())
        var file: String

        @Flag(help: "Show what would be restored without changing the vault.")
        var dryRun = false

        @Flag(help: "Print the summary and every entry as JSON.")
        var json = false

        @Flag(help: "List each account skipped (and with --dry-run, each to restore), not only their number.")
        var verbose = false

        func run(in invocation: Invocation) throws {
            var data = try InputPath.read(file, what: "the backup", in: invocation)
            defer { data.resetBytes(in: 0..<data.count) }
            let parsed = try PassphraseSource.opening(
                variable: PassphraseSource.backupVariable, prompt: "backup passphrase", in: invocation
            ) { try AuthCatFormat.parsed(AuthCatFormat.archive(data, context: $0)) }
            let importer = VaultImport(invocation: invocation, options: vaultOptions)
            let outcome = try importer.importing(parsed, author: .restore, dryRun: dryRun, skipInvalid: false)
            try importer.report(
                outcome, json: json, verbose: verbose, source: "the backup", verbs: ("would restore", "restored"))
        }
    }
}
