import AuthCatCore
import AuthCatEssentials
import Foundation

/// What `authcat code QUERY --type` does: the account's code, fresh
/// (`FreshCode`), typed into the focused window by the session's typing tool.
struct CodeTypist {
    var invocation: Invocation
    var options: VaultOptions
    /// `--type-enter`: press Enter after the code.
    var enter: Bool

    func type(_ query: String) throws {
        // A missing tool is said before anything is asked or an HOTP counter value used.
        let typist = try TypingTool.find(environment: invocation.environment)
        guard let vault = try options.openExistingVault(in: invocation) else {
            throw NoAccountsError(options, in: invocation)
        }
        let account = try vault.account(matching: query)
        let generated = try FreshCode.generate(for: account, in: vault, invocation: invocation)
        try typist.type(generated.code.value, enter: enter)
        if invocation.terminal.standardErrorIsTerminal { invocation.output.note("typed with \(typist.kind.rawValue)") }
    }
}
