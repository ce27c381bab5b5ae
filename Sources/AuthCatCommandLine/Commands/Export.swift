import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Foundation

extension AuthCat {
    /// `authcat export`: every account, secrets included, in another app's format.
    struct Export: InvokedCommand, OffersChoices {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export every account, secrets included, to move to another authenticator.",
            discussion: """
                Formats:
                  otpauth  one otpauth:// URI per line; tags and notes ride along in Ente
                           Auth's
                           codeDisplay parameter, which other apps ignore
                  google   Google Authenticator migration URIs, 10 accounts each; with --qr,
                           drawn as QR codes to scan with "Transfer accounts > Import accounts"
                  aegis    an Aegis vault (tags become groups), plain, or with --encrypt
                           encrypted with a password as Aegis encrypts its own: Aegis's "Import
                           from file"
                  2fas     a 2FAS backup (the first tag becomes its group): 2FAS's "Import from
                           file"
                  json     authcat's own JSON, the complete plain export
                otpauth, aegis and json hold every account exactly: 'authcat import' of the \
                export into an empty vault gives the same accounts. Google Authenticator cannot \
                hold Steam accounts, periods other than 30 seconds or digits other than 6 and 8; \
                such accounts are left out with a warning, and tags and notes are lost. 2FAS \
                cannot hold Yandex or mOTP accounts (left out with a warning), and keeps one tag.

                --encrypt asks for the password twice on the terminal, or reads it from the file \
                AUTHCAT_EXPORT_PASSPHRASE_FILE names; it is never taken from the command line.

                A plain export holds every secret, so it is written only where you say: a file \
                readable by you alone (--output, mode 0600, written whole or not at all) or \
                standard output (--stdout). An existing file is replaced only with --force; a \
                symbolic link is followed; a FIFO, a device or /dev/fd/N (such as >(gpg -e)) is \
                written straight through; a folder or a socket is refused. A link, FIFO or file \
                of another user in a folder others can write (such as /tmp) is refused: they could \
                have planted it to catch the export. For a backup to keep, \
                use 'authcat backup', which encrypts.

                Examples:
                  authcat export --format aegis --encrypt --output aegis-import.json
                  authcat export --format 2fas --output 2fas-import.2fas
                  authcat export --format google --qr
                  authcat export --format otpauth --stdout | pass insert -m otp-uris
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Option(help: "otpauth, google, aegis, 2fas or json.")
        var format: ExportFormat

        @Flag(help: "Encrypt the export with a password (aegis only).")
        var encrypt = false

        static let choices = [ArgumentChoice("--format", ExportFormat.self)]

        @Option(
            help: ArgumentHelp(
                "The file to write (mode 0600), or a FIFO or device to write through.", valueName: "file"),
            completion: .file())
        var output: String?

        @Flag(help: "Replace the --output file if it exists.")
        var force = false

        @Flag(help: "Print the export, secrets included, on standard output.")
        var stdout = false

        @Flag(help: "Draw each URI as a QR code in the terminal (otpauth and google).")
        var qr = false

        func validate() throws {
            if output == "-" { throw ValidationError("a plain export holds every secret; say --stdout to print it") }
            if stdout, output != nil { throw ValidationError("give either --output or --stdout, not both") }
            if qr, format != .otpauth, format != .google {
                throw ValidationError("--qr draws otpauth and google exports only")
            }
            if encrypt, format != .aegis { throw ValidationError("--encrypt encrypts aegis exports only") }
            if force, output == nil {
                throw ValidationError("--force replaces an existing --output file; name one with --output")
            }
            if !qr, !stdout, output == nil {
                throw ValidationError(
                    "a plain export holds every secret: name a file with --output (created 0600) or print it with --stdout"
                )
            }
        }

        func run(in invocation: Invocation) throws {
            // Before the vault is opened, so that a bad path fails first and
            // /dev/fd/N can only name a descriptor the shell handed over.
            let destination = try output.map {
                try OutputDestination($0, replacing: force, standard: invocation.standardDescriptors)
            }
            let vault = try vaultOptions.openVault(in: invocation)
            try vault.unlock()
            let password = try encrypt ? Self.exportPassword(in: invocation) : nil
            var result = try Exporter.export(
                Exporter.items(of: vault), format: format, vaultID: vault.identity.vaultID, password: password)
            defer { result.data.resetBytes(in: 0..<result.data.count) }
            for omission in result.omitted { invocation.output.warning("left out \(omission)") }
            if qr { try draw(result.qrTexts, output: invocation.output) }
            if stdout { try invocation.standardOutput.writeNow(result.data) }
            if let destination {
                invocation.output.flushStandardOutput()
                try destination.write(result.data)
                let summary =
                    "exported \(result.exported.counted("account")) to \(destination.path) (\(format.rawValue))"
                // With --qr, or an export to /dev/stdout, standard output holds
                // the real output; the summary must not land in it.
                if qr || destination.isStandardOutput {
                    invocation.output.aside(summary)
                } else {
                    invocation.output.print(summary)
                }
            }
        }

        /// The variable that names a file holding the password of an encrypted export.
        static let passwordVariable = "AUTHCAT_EXPORT_PASSPHRASE_FILE"

        /// The password of an encrypted export: from the file, else typed twice.
        private static func exportPassword(in invocation: Invocation) throws -> SecretBytes {
            try PassphraseSource.forFile(
                variable: passwordVariable, prompt: "password for the encrypted export", confirm: true, in: invocation)
        }

        private func draw(_ texts: [String], output: Output) throws {
            for (index, text) in texts.enumerated() {
                if texts.count > 1 { output.print("QR code \(index + 1) of \(texts.count)") }
                output.print(try QRCode.encode(text).terminalText(), terminator: "")
            }
        }
    }
}
