import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

extension AuthCat {
    /// `authcat follow list`: the followed files and how they stand.
    struct FollowList: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the followed files.",
            discussion: """
                For each file: its name, its path, its format, whether its password is kept, \
                when a change of it was last applied, and the problem of the last look, if any.

                Examples:
                  authcat follow list
                  authcat follow list --json | jq -r '.[] | select(.problem != null) | .name'
                """,
            aliases: ["ls"])

        @OptionGroup var vaultOptions: VaultOptions

        @Flag(help: "Print the list as JSON.")
        var json = false

        func run(in invocation: Invocation) throws {
            let vault = try vaultOptions.openVault(in: invocation)
            let files = try vault.followedFiles()
            if json { return invocation.output.print(try JSONOutput.string(files.map(FollowedFileDocument.init))) }
            guard !files.isEmpty else {
                return invocation.output.print("no file is followed; 'authcat follow add FILE' follows one")
            }
            let rows = files.map { file in
                [
                    TerminalText.sanitized(file.name), TerminalText.sanitized(file.path), file.format,
                    file.hasPassword ? "kept" : "-", file.changedAt.map(Timestamp.text) ?? "never",
                    file.problem.map(TerminalText.sanitized) ?? "ok",
                ]
            }
            let header = ["NAME", "PATH", "FORMAT", "PASSWORD", "CHANGED", "LAST LOOK"]
            invocation.output.print(TextTable.lines([header] + rows).joined(separator: "\n"))
        }
    }
}

/// A followed file as `follow list --json` prints it (docs/JSON.md).
struct FollowedFileDocument: Encodable {
    var name: String
    var path: String
    var format: String
    var passwordKept: Bool
    var addedAt: Date
    @NullWhenAbsent var checkedAt: Date?
    @NullWhenAbsent var changedAt: Date?
    @NullWhenAbsent var problem: String?

    enum CodingKeys: String, CodingKey {
        case name, path, format, problem
        case passwordKept = "password_kept"
        case addedAt = "added_at"
        case checkedAt = "checked_at"
        case changedAt = "changed_at"
    }

    init(_ file: FollowedFile) {
        name = file.name
        path = file.path
        format = file.format
        passwordKept = file.hasPassword
        addedAt = file.addedAt
        checkedAt = file.checkedAt
        changedAt = file.changedAt
        problem = file.problem
    }
}
