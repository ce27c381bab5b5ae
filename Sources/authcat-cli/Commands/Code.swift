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
                help: ArgumentHelp("Compute time-based codes at this time (seconds since 1970, not before) instead of now.",
                                   valueName: "unix-seconds"))
        var time: Int64?

        @Flag(help: "Print JSON: an object with id, issuer, name, code, type, period and valid_until; an array without QUERY.")
        var json = false

        @Flag(help: "Also copy the code to the clipboard (with wl-copy, xclip or xsel).")
        var copy = false

        func validate() throws {
            if copy, query == nil { throw ValidationError("--copy needs a QUERY naming one account") }
            // Time steps count from 1970: no issuer ever made a code for an earlier time.
            if let time, time < 0 { throw ValidationError("--at must be 0 or later: codes count time from 1970, and \(time) is before it") }
        }

        func run() throws {
            let printer = CodePrinter(options: vaultOptions, query: query, time: time, json: json, copy: copy)
            try printer.run()
        }
    }
}
