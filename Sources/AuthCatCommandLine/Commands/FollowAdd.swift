import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Foundation

extension AuthCat {
    /// `authcat follow add FILE`: imports a file now and follows it from then on.
    struct FollowAdd: InvokedCommand, OffersChoices {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Import a file now, and follow what changes in it.",
            discussion: """
                Accounts already in the vault with the same name and secret as an entry are \
                adopted: followed from now on, not added twice. An entry whose name an account \
                here has with another secret is refused, as 'authcat import' refuses it.

                Examples:
                  authcat follow add ~/Sync/aegis/aegis-backup.json
                  authcat follow add ~/Nextcloud/2fas/backup.2fas --name phone
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(help: "The file to follow.", completion: .file())
        var file: String

        @Option(help: "The file's format, as 'authcat import' names it (default: recognised from the content).")
        var format: ImportFormat?

        @Option(help: "What to call the file: history's author follow:NAME (default: the file's name).")
        var name: String?

        @Flag(help: "Print what was done as JSON.")
        var json = false

        static let choices = [ArgumentChoice("--format", ImportFormat.self)]

        func run(in invocation: Invocation) throws {
            let path = Self.absolute(file)
            let name = name ?? FollowedFile.defaultName(for: path)
            try FollowedFile.checkName(name)
            var data = try FollowedFileLook.settledContent(of: path, in: invocation)
            defer { data.resetBytes(in: 0..<data.count) }
            let vault = try vaultOptions.openOrCreateVault(in: invocation)
            let look = FollowedFileLook(vault: vault, invocation: invocation)
            let content = try look.read(
                data, digest: Data(SHA256.hash(data)), format: format, name: nil, kept: nil)
            let (_, report) = try Follower.start(
                content.parsed, digest: content.digest, name: name, path: path, password: content.newPassword,
                in: vault)
            if report.changedAccounts { VaultChangeHook.vaultDidChange(vault, in: invocation) }
            FollowReportOutput.printWarnings(report, in: invocation)
            if json { return invocation.output.print(try JSONOutput.string(FollowDocument(report))) }
            invocation.output.print(FollowReportOutput.lines(report).joined(separator: "\n"))
            invocation.output.print("following \(TerminalText.sanitized(path)) as '\(TerminalText.sanitized(name))'")
        }

        /// `path` made absolute against the working folder, so that a later `follow now` finds it.
        static func absolute(_ path: String) -> String {
            let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            return (full as NSString).standardizingPath
        }
    }
}
