import ArgumentParser
import AuthCatCore
import Foundation

extension AuthCat {
    /// `authcat code [QUERY]`: the current code of one account, or of all.
    struct Code: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the current code of an account, or of every account.",
            discussion: """
                QUERY names an account: its id, its exact ISSUER:NAME, or any part of its \
                issuer or name, ignoring case. When QUERY matches several accounts, authcat \
                lists them and exits with status 1.

                With one account and standard output not a terminal, only the code is \
                printed, so that scripts can capture it. On a terminal the line also shows \
                how many seconds the code stays valid.

                Without QUERY every account is listed, sorted by issuer and name. HOTP \
                accounts show no code then, because each HOTP code uses up a counter value; \
                ask for them by name.

                Examples:
                  authcat code github
                  authcat code GitHub:alice@example.com --copy
                  authcat code --json | jq -r '.[] | select(.issuer == "GitHub") | .code'
                  authcat code test --at 59
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(help: "The account: id, ISSUER:NAME, or part of the issuer or name.",
                  completion: AccountCompletion.live)
        var query: String?

        @Option(name: .customLong("at"),
                help: ArgumentHelp("Compute TOTP codes at this time instead of now.", valueName: "unix-seconds"))
        var time: Int64?

        @Flag(help: "Print JSON: an object with id, issuer, name, code, type, period and valid_until; an array without QUERY.")
        var json = false

        @Flag(help: "Also copy the code to the clipboard (with wl-copy, xclip or xsel).")
        var copy = false

        func validate() throws {
            if copy, query == nil { throw ValidationError("--copy needs a QUERY naming one account") }
        }

        func run() throws {
            let clipboard = copy ? try Clipboard.find(environment: vaultOptions.environment) : nil
            let vault = try vaultOptions.openVault()
            let now = time.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? Date()
            if let query {
                try printCode(of: query, in: vault, at: now, clipboard: clipboard)
            } else {
                try printAllCodes(in: vault, at: now)
            }
        }

        private func printCode(of query: String, in vault: Vault, at now: Date, clipboard: Clipboard?) throws {
            let account = try vault.account(matching: query)
            let generated = try vault.generateCode(for: account, at: now)
            if account.otp.kind == .hotp {
                VaultChangeHook.vaultDidChange(vault, options: vaultOptions)
            }
            try clipboard?.copy(generated.code.value)
            if json {
                print(try JSONOutput.string(CodeSummary(account: account, code: generated.code)))
            } else if Terminal.standardOutputIsTerminal {
                print(TextTable.lines([row(account, generated.code, at: now)])[0])
            } else {
                print(generated.code.value)
            }
        }

        private func printAllCodes(in vault: Vault, at now: Date) throws {
            let codes = try vault.accounts().map { account in
                // Listing must not use up HOTP counter values.
                (account, account.otp.kind == .hotp ? nil : try vault.generateCode(for: account, at: now).code)
            }
            if json {
                print(try JSONOutput.string(codes.map(CodeSummary.init)))
            } else {
                let onTerminal = Terminal.standardOutputIsTerminal
                let rows = codes.map { account, code in
                    onTerminal ? row(account, code, at: now) : [code?.value ?? "-", account.label]
                }
                TextTable.lines(rows).forEach { print($0) }
            }
        }

        /// Code, label and how long it stays valid, for a person reading a terminal.
        private func row(_ account: Account, _ code: OTPCode?, at now: Date) -> [String] {
            let status: String
            if let seconds = code?.secondsRemaining(at: now) {
                status = "\(seconds)s left"
            } else if account.otp.kind == .hotp {
                status = code == nil ? "hotp: ask by name" : "hotp"
            } else {
                status = ""
            }
            return [code?.value ?? "-", account.label, status]
        }
    }
}
