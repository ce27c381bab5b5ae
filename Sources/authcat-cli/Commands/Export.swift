import ArgumentParser
import AuthCatCore
import AuthCatInterchange
import Foundation

extension AuthCat {
    /// `authcat export`: every account, secrets included, in another app's format.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export every account, secrets included, to move to another authenticator.",
            discussion: """
                Formats:
                  otpauth  one otpauth:// URI per line; tags and notes ride along in Ente \
                Auth's codeDisplay parameter, which other apps ignore
                  google   Google Authenticator migration URIs, 10 accounts each; with --qr, \
                drawn as QR codes to scan with "Transfer accounts > Import accounts"
                  aegis    a plain Aegis vault (tags become groups)
                  json     authcat's own JSON, the complete plain export
                Every format but google holds every account exactly: 'authcat import' of the \
                export into an empty vault gives the same accounts. Google Authenticator cannot \
                hold Steam accounts, periods other than 30 seconds or digits other than 6 and 8; \
                such accounts are left out with a warning, and tags and notes are lost.

                A plain export holds every secret, so it is written only where you say: a new \
                file readable by you alone (--output, mode 0600, written whole or not at all) or \
                standard output (--stdout). For a backup to keep, use 'authcat backup', which encrypts.

                Examples:
                  authcat export --format aegis --output aegis-import.json
                  authcat export --format google --qr
                  authcat export --format otpauth --stdout | pass insert -m otp-uris
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Option(help: "otpauth, google, aegis or json.")
        var format: ExportFormat

        @Option(help: ArgumentHelp("The file to write (created with mode 0600).", valueName: "file"), completion: .file())
        var output: String?

        @Flag(help: "Print the export, secrets included, on standard output.")
        var stdout = false

        @Flag(help: "Draw each URI as a QR code in the terminal (otpauth and google).")
        var qr = false

        func validate() throws {
            if output == "-" { throw ValidationError("a plain export holds every secret; say --stdout to print it") }
            if stdout, output != nil { throw ValidationError("give either --output or --stdout, not both") }
            if qr, format != .otpauth, format != .google { throw ValidationError("--qr draws otpauth and google exports only") }
            if !qr, !stdout, output == nil {
                throw ValidationError("a plain export holds every secret: name a file with --output (created 0600) or print it with --stdout")
            }
        }

        func run() throws {
            let vault = try vaultOptions.openVault()
            try vault.unlock()
            var result = try Exporter.export(Exporter.items(of: vault), format: format, vaultID: vault.identity.vaultID)
            defer { result.data.resetBytes(in: 0..<result.data.count) }
            for omission in result.omitted { Output.warning("left out \(omission)") }
            if qr { try draw(result.qrTexts) }
            if stdout { FileHandle.standardOutput.write(result.data) }
            if let output {
                try SecureFile.writeAtomically(result.data, to: URL(fileURLWithPath: output))
                let summary = "exported \(Import.count(result.exported, "account")) to \(output) (\(format.rawValue))"
                // With --qr, standard output holds the codes; the summary must not land between them.
                if qr { Output.standardError(summary) } else { print(summary) }
            }
        }

        private func draw(_ texts: [String]) throws {
            for (index, text) in texts.enumerated() {
                if texts.count > 1 { print("QR code \(index + 1) of \(texts.count)") }
                print(try QRCode.encode(text).terminalText(), terminator: "")
            }
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}
