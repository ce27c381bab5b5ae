import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Foundation

extension AuthCat {
    /// `authcat backup`: an encrypted backup file, made for cron; `--verify` checks one.
    struct Backup: InvokedCommand, OffersChoices {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "Write an encrypted backup of the vault, or check one with --verify.",
            discussion: """
                The backup holds every account (secrets, tags, notes) and the synced \
                preferences; --with-history adds the vault's history. It is encrypted with \
                libsodium's secretstream (XChaCha20-Poly1305) under a key derived with \
                Argon2id from a backup passphrase, which is read from the file named by \
                AUTHCAT_BACKUP_PASSPHRASE_FILE or typed twice on the terminal, and has at least \
                8 characters. The format is \
                described in docs/FORMAT.md, so it can be read without authcat.

                Made for scripts: no question is asked when the passphrase file is set, \
                --output - writes to standard output, the file is written whole or not at all \
                (a temporary file renamed into place, mode 0600), an existing file is replaced \
                only with --force, and any failure exits non-zero. A symbolic link is followed; \
                a FIFO, a device or /dev/fd/N is written straight through; a folder or a socket \
                is refused, and so is a link, FIFO or file of another user in a folder others \
                can write (such as /tmp), for the output and the passphrase file alike. \
                --verify FILE decrypts a backup and checks it is complete and valid, without \
                touching the vault. Restore with 'authcat restore-backup'.

                --output-dir DIR writes a dated backup into DIR \
                (authcat-backup-YYYYMMDD-HHMMSS.authcat; -2, -3... are added when that \
                second is taken, so no backup is ever overwritten), reads it back and \
                verifies it, and only then, with --keep N, deletes the oldest authcat \
                backups in DIR beyond N. Only your own files named like that are counted or \
                deleted; nothing else in DIR is touched (another user's files neither), and the new backup is always kept. If \
                anything fails, the command exits non-zero and the earlier backups are left \
                alone; a new file that does not verify is removed.

                --kdf picks libsodium's Argon2id limits: interactive (64 MiB), moderate \
                (256 MiB, the default) or sensitive (1 GiB); the cost is paid again to restore.

                Examples:
                  authcat backup --output ~/backups/authcat-$(date +%F).authcat
                  export AUTHCAT_BACKUP_PASSPHRASE_FILE=~/.config/authcat/backup-pass
                  authcat backup --output - | ssh nas 'cat > authcat.bak'
                  authcat backup --verify ~/backups/authcat-2024-05-01.authcat --json
                  authcat backup --output-dir ~/backups --keep 14
                """)

        enum Strength: String, CaseIterable, ExpressibleByArgument {
            case interactive, moderate, sensitive

            func parameters() throws -> KDFParameters {
                switch self {
                case .interactive: try KDFParameters.interactive()
                case .moderate: try KDFParameters.moderate()
                // libsodium's crypto_pwhash_OPSLIMIT_SENSITIVE and MEMLIMIT_SENSITIVE.
                case .sensitive: try KDFParameters(opsLimit: 4, memLimit: 1 << 30)
                }
            }
        }

        @OptionGroup var vaultOptions: VaultOptions

        @Option(
            help: ArgumentHelp(
                "The backup file, or - for standard output (default: authcat-backup-DATE.authcat here).",
                valueName: "file"), completion: .file())
        var output: String?

        @Option(
            help: ArgumentHelp(
                "Write a dated backup into this folder, verify it, then rotate with --keep.",
                valueName: "dir"), completion: .directory)
        var outputDir: String?

        @Option(
            help: ArgumentHelp(
                "With --output-dir: keep this many authcat backups in the folder, deleting the oldest.",
                valueName: "n"))
        var keep: Int?

        @Flag(help: "Replace the backup file if it exists.")
        var force = false

        @Flag(help: "Include the vault's history.")
        var withHistory = false

        @Option(
            help: ArgumentHelp(
                "Check that this backup decrypts and is complete, without restoring it.", valueName: "file"),
            completion: .file())
        var verify: String?

        @Option(help: "Argon2id strength: interactive, moderate or sensitive.")
        var kdf: Strength = .moderate

        @Flag(help: "Print a JSON summary (on standard error when the backup goes to standard output).")
        var json = false

        static let choices = [ArgumentChoice("--kdf", Strength.self)]

        static let passphraseVariable = PassphraseSource.backupVariable

        func validate() throws {
            if verify != nil, output != nil || withHistory || force {
                throw ValidationError(
                    "--verify checks an existing backup; leave --output, --with-history and --force out")
            }
            if outputDir != nil, output != nil || verify != nil || force {
                throw ValidationError("--output-dir names a new, dated file; leave --output, --verify and --force out")
            }
            if let keep {
                guard outputDir != nil else {
                    throw ValidationError("--keep rotates the backups in --output-dir; add --output-dir DIR")
                }
                guard keep >= 1 else { throw ValidationError("--keep must be at least 1") }
            }
        }

        func run(in invocation: Invocation) throws {
            if let verify { return try check(verify, in: invocation) }
            if let outputDir { return try rotate(into: outputDir, in: invocation) }
            let target = output ?? Self.defaultFileName(at: invocation.now)
            // Before the vault is opened and the passphrase asked, so that a bad
            // path fails first and /dev/fd/N can only name a descriptor the shell handed over.
            let destination =
                target == "-"
                ? nil
                : try OutputDestination(target, replacing: force, standard: invocation.standardDescriptors)
            if destination.map(\.isTerminal) ?? invocation.terminal.standardOutputIsTerminal {
                throw ValidationError(
                    "refusing to write a binary backup to the terminal; redirect standard output or use --output FILE")
            }
            let backup = try sealedBackup(in: invocation)
            if let destination {
                invocation.output.flushStandardOutput()
                try destination.write(backup.sealed)
            } else {
                try invocation.standardOutput.writeNow(backup.sealed)
            }
            try summarize(
                backup.summary(output: target), onStandardError: destination?.isStandardOutput ?? true,
                output: invocation.output)
        }

        /// The vault's archive, sealed with the backup passphrase (asked for, or read from its file).
        private func sealedBackup(in invocation: Invocation) throws -> SealedBackup {
            let vault = try vaultOptions.openVault(in: invocation)
            try vault.unlock()
            let archive = try VaultBackup.archive(of: vault, includeHistory: withHistory)
            let passphrase = try PassphraseSource.forFile(
                variable: Self.passphraseVariable, prompt: "backup passphrase",
                confirm: true, in: invocation)
            let parameters = try kdf.parameters()
            return SealedBackup(
                archive: archive, passphrase: passphrase, kdf: parameters,
                sealed: try VaultBackup.seal(archive, passphrase: passphrase, kdf: parameters))
        }

        private struct SealedBackup {
            var archive: AuthCatArchive
            var passphrase: SecretBytes
            var kdf: KDFParameters
            var sealed: Data

            func summary(output: String) -> Summary {
                Summary(archive: archive, output: output, bytes: sealed.count, kdf: kdf)
            }
        }

        /// `--output-dir`: write, read back and verify, and only then delete the oldest beyond `--keep`.
        private func rotate(into folder: String, in invocation: Invocation) throws {
            let backup = try sealedBackup(in: invocation)
            let destination = try writeToNewDatedFile(backup.sealed, in: folder, invocation: invocation)
            do {
                // By the rule of every input path: in a folder others can write, what
                // is there now may no longer be the file just written (a FIFO would hang).
                var written = try InputPath.read(destination.target, what: "the new backup", in: invocation)
                defer { written.resetBytes(in: 0..<written.count) }
                guard !written.isEmpty else { throw BackupError.truncated }
                _ = try VaultBackup.verify(written, context: ImportContext(password: { backup.passphrase }))
            } catch {
                // A file that does not read back as a backup must not count as one in later rotations.
                let removed = unlink(destination.target) == 0
                let reason =
                    (error as? UserFacingError)?.description ?? UnexpectedError.message("reading it back", error)
                throw BackupCommandError.unverified(destination.path, reason: reason, removed: removed)
            }
            let deleted =
                try keep.map {
                    try BackupRotation.prune(
                        folder: folder, keep: $0, newest: (destination.target as NSString).lastPathComponent)
                } ?? []
            var summary = backup.summary(output: destination.path)
            summary.verified = true
            summary.deleted = deleted.map { (folder as NSString).appendingPathComponent($0) }
            try summarize(summary, onStandardError: false, output: invocation.output)
        }

        /// Writes `sealed` to the first free dated name in `folder`, and says where.
        ///
        /// Anything found at a name (a file, a FIFO, a device, a folder, a
        /// symbolic link wherever it leads) takes it: a rotation writes only
        /// new files in its folder, which it can read back and later prune,
        /// and never waits on a FIFO. `OutputDestination` creates the file only
        /// if the name is still free, so a backup made meanwhile takes it too.
        private func writeToNewDatedFile(
            _ sealed: Data, in folder: String, invocation: Invocation
        ) throws -> OutputDestination {
            let now = invocation.now
            for sequence in 1...99 {
                let path = (folder as NSString).appendingPathComponent(
                    BackupRotation.fileName(at: now, sequence: sequence))
                var existing = stat()
                guard lstat(path, &existing) != 0, errno == ENOENT else { continue }
                do {
                    let destination = try OutputDestination(
                        path, replacing: false, standard: invocation.standardDescriptors)
                    guard destination.kind == .newFile else { continue }
                    try destination.write(sealed)
                    return destination
                } catch OutputDestinationError.exists, OutputDestinationError.refused {
                    continue
                }
            }
            throw BackupCommandError.noFreeName(folder)
        }

        private func check(_ path: String, in invocation: Invocation) throws {
            var data = try InputPath.read(path, what: "the backup", in: invocation)
            defer { data.resetBytes(in: 0..<data.count) }
            let verification = try PassphraseSource.opening(
                variable: Self.passphraseVariable, prompt: "backup passphrase", in: invocation
            ) { try VaultBackup.verify(data, context: $0) }
            if json {
                invocation.output.print(try JSONOutput.string(verification))
                return
            }
            let history = verification.historyTransactions.map { ", \($0.counted("history transaction"))" } ?? ""
            invocation.output.print(
                "\(path): valid backup of \(verification.accounts.counted("account")), "
                    + "\(verification.preferences.counted("synced preference"))\(history)")
        }

        /// What `--json` prints about a new backup.
        struct Summary: Encodable {
            var output: String
            var bytes: Int
            var accounts: Int
            var preferences: Int
            @NullWhenAbsent var historyTransactions: Int?
            var kdfOpsLimit: UInt64
            var kdfMemLimit: UInt64
            /// With --output-dir: the new backup read back and verified.
            @NullWhenAbsent var verified: Bool?
            /// With --output-dir: the old backups deleted by --keep, oldest first.
            @NullWhenAbsent var deleted: [String]?

            enum CodingKeys: String, CodingKey {
                case output, bytes, accounts, preferences, verified, deleted
                case historyTransactions = "history_transactions"
                case kdfOpsLimit = "kdf_ops_limit"
                case kdfMemLimit = "kdf_mem_limit"
            }

            init(archive: AuthCatArchive, output: String, bytes: Int, kdf: KDFParameters) {
                self.output = output
                self.bytes = bytes
                accounts = archive.accounts.count
                preferences = archive.preferences?.count ?? 0
                historyTransactions = archive.history?.count
                kdfOpsLimit = kdf.opsLimit
                kdfMemLimit = kdf.memLimit
            }
        }

        /// The summary goes to standard error when the backup itself is on standard output.
        private func summarize(_ summary: Summary, onStandardError: Bool, output: Output) throws {
            var text =
                json
                ? try JSONOutput.string(summary)
                : "backed up \(summary.accounts.counted("account")) and "
                    + "\(summary.preferences.counted("synced preference")) to \(summary.output == "-" ? "standard output" : summary.output)"
                    + (summary.verified == true ? " (verified)" : "")
            if !json, let deleted = summary.deleted {
                text += deleted.map { "\ndeleted old backup \($0)" }.joined()
            }
            if onStandardError { output.aside(text) } else { output.print(text) }
        }

        /// `authcat-backup-20240501-031500.authcat`, in local time, so nightly runs do not overwrite each other.
        static func defaultFileName(at now: Date) -> String {
            BackupRotation.fileName(at: now)
        }
    }
}
