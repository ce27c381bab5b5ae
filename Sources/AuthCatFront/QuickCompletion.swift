import AuthCatEssentials

/// The completion scripts' request for account names (`authcat ---completion
/// code -- ...` on every Tab), answered by `AccountLabelCompletion`, the rule
/// `authcat-cli` completes with, from the vault opened read-only; so a Tab
/// costs what a `code` does.
enum QuickCompletion {
    /// The shell that asks and its version, as swift-argument-parser's scripts pass them.
    static let shellVariables = ["SAP_SHELL", "SAP_SHELL_VERSION"]

    /// The candidates, as swift-argument-parser prints them; nil to hand
    /// over, as for a vault the front does not open (an older schema).
    static func reply(
        _ scope: AccountLabelCompletion.Scope, words: [String], prefix: String,
        environment: [String: String]
    ) -> QuickAnswer.Reply? {
        let shell = environment["SAP_SHELL"].flatMap { knownShells.contains($0) ? $0 : nil }
        let completion = AccountLabelCompletion(
            shell: shell, shellVersion: environment["SAP_SHELL_VERSION"],
            environment: environment)
        guard let location = completion.location(words: words) else { return .output(formatted([], shell: shell)) }
        guard
            let accounts = QuickVault.read(
                location, { vault in try? vault.reader.names(live: scope.includesLive, deleted: scope.includesDeleted) }
            )
        else { return nil }
        return .output(formatted(completion.candidates(prefix: prefix, accounts: accounts), shell: shell))
    }

    /// The shells swift-argument-parser's `CompletionShell` knows; it takes any other `SAP_SHELL` as none.
    private static let knownShells: Set = ["bash", "zsh", "fish"]

    /// One candidate a line, as swift-argument-parser's `CompletionShell.format`
    /// writes them: for zsh with a last line of one space, which the zsh
    /// script removes (it keeps an empty candidate from being dropped).
    private static func formatted(_ candidates: [String], shell: String?) -> String {
        (shell == "zsh" ? candidates + [" "] : candidates).joined(separator: "\n")
    }
}
