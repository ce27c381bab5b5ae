import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Foundation

extension AuthCat {
    /// `authcat import FILE|-`: accounts from another authenticator, a backup or a QR screenshot.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import accounts from another app's export, an authcat backup, or QR codes in a screenshot.",
            discussion: """
                Formats (recognised from the content unless --format names one):
                  otpauth    one otpauth:// URI per line (Ente Auth, 2FAS, pass-otp, …)
                  google     otpauth-migration:// lines from Google Authenticator's export
                  aegis      an Aegis vault, plain or encrypted with a password
                  2fas       a 2FAS backup made without a password
                  andotp     an andOTP plain backup
                  bitwarden  a Bitwarden unencrypted .json export (items with a TOTP)
                  authcat    an authcat backup or 'authcat export --format json'
                With --qr, FILE is a PNG screenshot: every QR code in it is read, \
                otpauth:// codes and Google's migration codes alike.

                The import is one transaction: all accounts are added, or none. An entry \
                whose issuer, name (ignoring case) and secret match an account already in the \
                vault, or an earlier entry, is skipped. One with the same name but a different \
                secret is rejected, and the vault's account is left alone: rename it and import \
                again to keep both. Types authcat cannot use (mOTP, Yandex) are rejected and \
                reported. A malformed entry stops the whole import unless --skip-invalid is given. \
                Entries are named by their position in the file, never by their secret.

                The summary gives counts and lists each rejected entry; --verbose lists \
                the skipped ones too (and with --dry-run the ones to add), and --json prints \
                every entry (docs/JSON.md).

                The password of an encrypted Aegis vault is read from the file named by \
                AUTHCAT_IMPORT_PASSPHRASE_FILE, else asked for on the terminal; an authcat \
                backup's passphrase from AUTHCAT_BACKUP_PASSPHRASE_FILE if set.

                Examples:
                  authcat import aegis-export.json --dry-run
                  authcat import --qr google-export.png
                  pass otp uri otp/github | authcat import - --format otpauth
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(help: "The file to import, or - for standard input.", completion: .file())
        var file: String

        @Option(
            help: "otpauth, google, aegis, 2fas, andotp, bitwarden or authcat (default: recognised from the content).")
        var format: ImportFormat?

        @Flag(help: "FILE is a PNG image: import the QR codes in it.")
        var qr = false

        @Flag(help: "Show what would be imported without changing the vault.")
        var dryRun = false

        @Flag(help: "Import the valid entries even when some are malformed.")
        var skipInvalid = false

        @Flag(help: "Print the summary and every entry as JSON.")
        var json = false

        @Flag(help: "List each entry skipped (and with --dry-run, each to add), not only their number.")
        var verbose = false

        static let importVariable = "AUTHCAT_IMPORT_PASSPHRASE_FILE"
        static let backupVariable = "AUTHCAT_BACKUP_PASSPHRASE_FILE"
        /// Far above any real export (10,000 accounts are about 1 MiB), low enough to refuse a wrong file at once.
        static let inputLimit = 64 << 20

        func validate() throws {
            if qr, format != nil {
                throw ValidationError("--qr reads the format from the QR codes; leave --format out")
            }
        }

        func run() throws {
            var data = try Self.read(file, what: qr ? "the image" : "the import file")
            defer { data.resetBytes(in: 0..<data.count) }
            do {
                let parsed = try parse(data)
                let outcome = try Self.importing(
                    parsed, options: vaultOptions, author: .import, dryRun: dryRun, skipInvalid: skipInvalid)
                try Self.report(
                    outcome, json: json, verbose: verbose, source: "the \(parsed.format.displayName)",
                    verbs: ("would add", "added"), refusalStep: .skipInvalidEntries)
            } catch let error as UserFacingError {
                // A file of another format than --format says fails one way or
                // another (an error, or every entry invalid): name the one it looks like.
                guard let format, let detected = try? FormatDetector.detect(data), detected != format else {
                    throw error
                }
                throw FormatMismatch(error: error, given: format, detected: detected)
            }
        }

        private func parse(_ data: Data) throws -> ParsedImport {
            if qr { return try QRImageImport.parse(png: data) }
            let format = try format ?? FormatDetector.detect(data)
            let environment = vaultOptions.environment
            let variable =
                format == .authcat && !(environment[Self.backupVariable] ?? "").isEmpty
                ? Self.backupVariable : Self.importVariable
            let context = ImportContext(password: {
                try PassphraseSource.forFile(
                    variable: variable, prompt: "password of the \(format.displayName)",
                    confirm: false, environment: environment)
            })
            return try format.parse(data, context: context)
        }

        /// `--format` names another format than the file's content shows.
        struct FormatMismatch: UserFacingError {
            var error: UserFacingError
            var given: ImportFormat
            var detected: ImportFormat

            var description: String {
                "\(error.description); this looks like \(Self.named(detected)), not \(Self.named(given)): "
                    + "leave out --format, or give --format \(detected.rawValue)"
            }

            private static func named(_ format: ImportFormat) -> String {
                ("aeiou".contains(format.displayName.prefix(1).lowercased()) ? "an " : "a ") + format.displayName
            }
        }

        /// Plans against the vault (or, when there is none yet, an empty one),
        /// and unless `dryRun` imports, creating the vault only when something
        /// is added. A refused import changes nothing and is returned, for
        /// `report` to show and throw. Shared with `restore-backup`.
        static func importing(
            _ parsed: ParsedImport, options: VaultOptions, author: HistoryAuthor, dryRun: Bool,
            skipInvalid: Bool
        ) throws -> ImportOutcome {
            let existing = try options.openExistingVault()
            if existing == nil {
                let plan = try Importer.planForEmptyVault(parsed, skipInvalid: skipInvalid)
                guard plan.refusal == nil, !dryRun, plan.changesVault else {
                    return ImportOutcome(plan: plan, added: [], dryRun: dryRun)
                }
            }
            let vault = try existing ?? options.openOrCreateVault()
            let outcome = try Importer(vault: vault, author: author).run(
                parsed, dryRun: dryRun, skipInvalid: skipInvalid)
            if outcome.plan.refusal == nil, !outcome.dryRun, outcome.plan.changesVault {
                VaultChangeHook.vaultDidChange(vault)
            }
            if existing == nil, try !vault.hasPassphrase() {
                // The accounts came from a file that may have been protected; say that they no longer are.
                Output.warning("the new vault has no passphrase; 'authcat passphrase set' protects it")
            }
            return outcome
        }

        /// Prints what an import or restore did: a summary line with counts,
        /// each rejected entry, and with `verbose` each skipped one (and, for a
        /// dry run, each one to add); warnings go to standard error. `--json`
        /// prints every entry. A refused import is reported, then thrown.
        /// - Parameters:
        ///   - verbs: what the summary says for a dry run and for a real one.
        ///   - refusalStep: what the command offers when invalid entries refuse the import.
        static func report(
            _ outcome: ImportOutcome, json: Bool, verbose: Bool, source: String,
            verbs: (dryRun: String, done: String), refusalStep: NextStep? = nil
        ) throws {
            let plan = outcome.plan
            if let refusal = plan.refusal {
                if json { Output.print(try JSONOutput.string(outcome.summary)) }
                throw AdvisedError(error: refusal, nextStep: refusalStep)
            }
            for warning in plan.warnings { Output.warning(warning) }
            if json { return Output.print(try JSONOutput.string(outcome.summary)) }
            let verb = outcome.dryRun ? verbs.dryRun : verbs.done
            var line = "\(verb) \(count(plan.additions.count, "account")) from \(source)"
            if !plan.preferences.isEmpty { line += " and \(count(plan.preferences.count, "synced preference"))" }
            line += "; skipped \(plan.skipped.count), rejected \(plan.rejections.count)"
            if !plan.preferencesKept.isEmpty {
                line += "; kept the vault's value of \(count(plan.preferencesKept.count, "preference"))"
            }
            let hidden = outcome.dryRun ? plan.additions.count + plan.skipped.count : plan.skipped.count
            if !verbose, hidden > 0 { line += " (--verbose lists each)" }
            var lines = [line]
            if verbose, outcome.dryRun {
                lines += plan.additions.map { "  add      \($0.position): \(TerminalText.sanitized($0.label))" }
            }
            if verbose { lines += plan.skipped.map { "  skipped  \($0)" } }
            lines += plan.rejections.map { "  rejected \($0)" }
            Output.print(lines.joined(separator: "\n"))
        }

        static func count(_ number: Int, _ noun: String) -> String {
            "\(number) \(noun)\(number == 1 ? "" : "s")"
        }

        /// The bytes of `path`, or of standard input for `-`, up to `inputLimit`.
        /// Devices and pipes (`<(…)`) are read like files; `/dev/stdin` and its
        /// kin are the invocation's descriptors (`InputPath`).
        static func read(_ path: String, what: String) throws -> Data {
            if path == "-" {
                var bytes = try StandardInput.read(limit: inputLimit, what: what)
                defer { Wipe.bytes(&bytes) }
                return Data(bytes)
            }
            let fd = try InputPath.open(path)
            guard fd >= 0 else {
                let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno)).lowercased()
                throw InputError.readFailed(what: "\(what) \(path)", reason: reason)
            }
            defer { close(fd) }
            var status = stat()
            let isRegular = fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
            guard !isRegular || Int(status.st_size) <= inputLimit else {
                throw InputError.tooLong(what: what, limit: inputLimit)
            }
            // A regular file's size bounds the buffer (with room for a file still being written).
            let limit = isRegular ? min(inputLimit, Int(status.st_size) + 65536) : inputLimit
            var bytes = try FileDescriptorReader.readAll(fd, limit: limit, what: "\(what) \(path)")
            defer { Wipe.bytes(&bytes) }
            return Data(bytes)
        }
    }
}

extension ImportFormat: ExpressibleByArgument {}
