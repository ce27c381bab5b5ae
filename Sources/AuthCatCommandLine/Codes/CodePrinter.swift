import AuthCatCore
import AuthCatEssentials
import Foundation

/// What `authcat code` does once its command line is understood. The quick
/// front executable prints the same line for a plain `code QUERY` through
/// `CodeRow`, and hands every other form (HOTP, `--json`, errors) to this.
struct CodePrinter {
    var invocation: Invocation
    var options: VaultOptions
    var query: String?
    /// Seconds since 1970 to compute TOTP codes at; nil for now.
    var time: Int64?
    var json = false
    var copy = false
    /// With `copy`: leave the code on the clipboard instead of clearing it when it expires.
    var keep = false

    private var output: Output { invocation.output }
    private var terminal: Terminal { invocation.terminal }

    func run() throws {
        let clipboard = copy ? clipboard() : nil
        guard let vault = try options.openExistingVault(in: invocation) else {
            throw NoAccountsError(options, in: invocation)
        }
        let now = time.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? invocation.now
        if let query {
            try printCode(of: query, in: vault, at: now, clipboard: clipboard)
        } else {
            try printAllCodes(in: vault, at: now)
        }
    }

    private func printCode(of query: String, in vault: Vault, at now: Date, clipboard: Clipboard?) throws {
        let account = try vault.account(matching: query)
        let generated = try vault.generateCode(for: account, at: now)
        if json {
            output.print(try JSONOutput.string(CodeSummary(account: account, code: generated.code)))
        } else if terminal.standardOutputIsTerminal {
            let row = CodeRow.cells(account, generated.code, at: now)
            output.print(TextTable.lines([row], width: terminal.standardOutputWidth, cut: CodeRow.labelColumn)[0])
        } else {
            output.print(generated.code.value)
        }
        guard let clipboard else { return }
        // The code is out before the tool runs, so a tool that hangs or fails
        // never costs the user the code, or an HOTP counter value.
        output.flushStandardOutput()
        CodeCopy(invocation: invocation, keep: keep).copy(generated.code, computedAt: now, to: clipboard, vault: vault)
    }

    /// The tool `--copy` uses; nil, with a warning, when none is installed:
    /// the code the user asked for is still printed, as when a tool fails.
    private func clipboard() -> Clipboard? {
        do {
            return try Clipboard.find(environment: invocation.environment)
        } catch {
            output.warning("\(error)")
            return nil
        }
    }

    private func printAllCodes(in vault: Vault, at now: Date) throws {
        let codes = try vault.accounts().map { account in
            // Listing must not use up HOTP counter values.
            (account, account.otp.kind == .hotp ? nil : try vault.generateCode(for: account, at: now).code)
        }
        if codes.isEmpty { throw NoAccountsError(options, in: invocation) }
        if json {
            output.print(try JSONOutput.string(codes.map(CodeSummary.init)))
            return
        }
        let onTerminal = terminal.standardOutputIsTerminal
        let rows = codes.map { account, code in
            onTerminal ? CodeRow.cells(account, code, at: now) : [code?.value ?? "-", account.label]
        }
        let lines = TextTable.lines(rows, width: terminal.standardOutputWidth, cut: CodeRow.labelColumn)
        lines.forEach { output.print($0) }
    }
}
