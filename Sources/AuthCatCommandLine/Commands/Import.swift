import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Foundation

extension AuthCat {
    /// `authcat import FILE|-`: accounts from another authenticator, a backup or a QR screenshot.
    struct Import: InvokedCommand, OffersChoices {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import accounts from another app's export, an authcat backup, or QR codes in a screenshot.",
            discussion: """
                Formats (recognised from the content unless --format names one):
                  otpauth    one otpauth:// URI per line (Ente Auth, 2FAS, pass-otp, …)
                  google     otpauth-migration:// lines from Google Authenticator's export
                  aegis      an Aegis vault, plain or encrypted with a password
                  2fas       a 2FAS backup (.2fas), with or without a password
                  andotp     an andOTP backup, plain (.json) or encrypted (.json.aes)
                  bitwarden  a Bitwarden .json export, plain or password-protected (items with
                             a
                             TOTP)
                  authcat    an authcat backup or 'authcat export --format json'
                  stratum    a Stratum (Authenticator Pro) backup, plain or encrypted, or its
                             HTML export
                  ente       an Ente Auth encrypted export (its plain export is otpauth)
                  freeotp    FreeOTP: Backup (encrypted with a password); or tokens.xml of
                             FreeOTP 1 or FreeOTP+
                  freeotp-plus  FreeOTP+: Export to JSON
                  steam      Steam Desktop Authenticator: a .maFile, or manifest.json with the
                             maFiles beside it (encrypted or not); an encrypted .maFile alone
                             needs manifest.json beside it and --format steam
                  authy      Authy (rooted phone):
                             shared_prefs/com.authy.storage.tokens.authenticator.xml, plain or
                             encrypted with the backup password
                  battlenet  Battle.net app (rooted phone):
                             shared_prefs/com.blizzard.messenger.authenticator_preferences.xml
                  duo        Duo Mobile (rooted phone): files/duokit/accounts.json
                  proton     Proton Authenticator: Settings → Export (a password optional)
                  google-db  Google Authenticator (rooted phone): databases/databases
                  microsoft  Microsoft Authenticator (rooted phone): databases/PhoneFactor
                  pass       a pass or gopass store: the folder itself (~/.password-store)
                  keepassxc  KeePassXC's CSV export (entries with a TOTP)
                  1password  1Password 8: File → Export → 1PUX (.1pux), or its export.data
                  protonpass Proton Pass: Settings → Export → ZIP (or its data.json), CSV, or
                             PGP (encrypted with a passphrase; opened by your gpg)
                  keepass-xml  KeePassXC's or KeePass 2's XML export (entries with a TOTP)
                  totp-authenticator  TOTP Authenticator: Backup (encrypted; with no password
                             set, none is asked); or, from a rooted phone,
                             shared_prefs/TOTP_Authenticator_Preferences.xml
                  lastpass   LastPass Authenticator: its export of accounts to a JSON file
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

                The password of an encrypted file (Aegis, 2FAS, FreeOTP, Proton Pass, …) is read from the file named by \
                AUTHCAT_IMPORT_PASSPHRASE_FILE, else asked for on the terminal; an authcat \
                backup's passphrase from AUTHCAT_BACKUP_PASSPHRASE_FILE if set. A password \
                store's entries are decrypted by your own gpg (its agent asks for your key's \
                passphrase) or, for gopass's .age entries, by age with the identity file named \
                by AUTHCAT_AGE_IDENTITY_FILE (default: gopass's); entries with an otpauth:// \
                line or a totp: field are imported, named by the URI or else by their path.

                Examples:
                  authcat import aegis-export.json --dry-run
                  authcat import --qr google-export.png
                  authcat import ~/.password-store
                  pass otp uri otp/github | authcat import - --format otpauth
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(help: "The file (or password store folder) to import, or - for standard input.", completion: .file())
        var file: String

        @Option(
            help: "A format listed above (default: recognised from the content).")
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

        static let choices = [ArgumentChoice("--format", ImportFormat.self)]

        func validate() throws {
            if qr, format != nil {
                throw ValidationError("--qr reads the format from the QR codes; leave --format out")
            }
        }

        func run(in invocation: Invocation) throws {
            if !qr, let store = try passStore() { return try bring(readStore(store, in: invocation), in: invocation) }
            var data = try InputPath.read(file, what: qr ? "the image" : "the import file", in: invocation)
            defer { data.resetBytes(in: 0..<data.count) }
            do {
                try bring(parse(data, in: invocation), in: invocation)
            } catch let error as UserFacingError {
                // A file of another format than --format says fails one way or
                // another (an error, or every entry invalid): name the one it looks like.
                guard let format, let detected = try? FormatDetector.detect(data), detected != format else {
                    throw error
                }
                throw FormatMismatch(error: error, given: format, detected: detected)
            }
        }

        /// Imports what was read, or says why not.
        private func bring(_ parsed: ParsedImport, in invocation: Invocation) throws {
            let importer = VaultImport(invocation: invocation, options: vaultOptions)
            let outcome = try importer.importing(parsed, author: .import, dryRun: dryRun, skipInvalid: skipInvalid)
            try importer.report(
                outcome, json: json, verbose: verbose, source: "the \(parsed.format.displayName)",
                verbs: ("would add", "added"), refusalStep: .skipInvalidEntries)
        }

        private func parse(_ data: Data, in invocation: Invocation) throws -> ParsedImport {
            if qr { return try QRImageImport.parse(png: data) }
            let format = try format ?? FormatDetector.detect(data)
            let environment = invocation.environment
            let variable =
                format == .authcat && !(environment[PassphraseSource.backupVariable] ?? "").isEmpty
                ? PassphraseSource.backupVariable : PassphraseSource.importVariable
            return try PassphraseSource.opening(
                variable: variable, prompt: "password of the \(format.displayName)", in: invocation
            ) { context in
                var context = context
                if file != "-" {
                    let folder = (file as NSString).deletingLastPathComponent
                    context.fileName = (file as NSString).lastPathComponent
                    context.companion = { name in
                        let companion = (folder as NSString).appendingPathComponent(name)
                        guard FileManager.default.fileExists(atPath: companion) else { return nil }
                        return try InputPath.read(companion, what: "the file beside the import file", in: invocation)
                    }
                }
                guard format == .protonPass, ProtonPassFormat.isSealed(data) else {
                    return try format.parse(data, context: context)
                }
                var opened = try UserDecryption(invocation: invocation).open(
                    sealed: data, passphrase: context.password(), format: format)
                defer { opened.resetBytes(in: 0..<opened.count) }
                return try format.parse(opened, context: context)
            }
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

    }
}
