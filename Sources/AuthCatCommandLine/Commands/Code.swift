import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

extension AuthCat {
    /// `authcat code [QUERY]`: the current code of one account, or of all.
    struct Code: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "code",
            abstract: "Print the current code of an account, or of every account.",
            discussion: """
                QUERY names an account: its id, its exact ISSUER:NAME, or any part of its \
                issuer or name, ignoring case and accents (zoe finds Zoë). When QUERY matches several accounts, authcat \
                lists them and exits with status 1.

                With one account and standard output not a terminal, only the code is \
                printed, so that scripts can capture it. On a terminal the line also shows \
                how many seconds the code stays valid.

                With --copy the code is also put on the clipboard, and taken off again \
                when it expires (at the end of its time step; HOTP codes after 30 seconds) \
                by a small background process that holds only the code and what the \
                clipboard held before, which it then puts back. If something else was \
                copied meanwhile, the clipboard is left alone. --keep (or the setting clipboard.keep) leaves the code there. \
                On a terminal, standard error says the code was copied. Without a clipboard \
                tool, or when the copy fails (no display), the code is printed all the same, \
                with a warning, and the status is 0.

                With --type the code is typed into the focused window instead of printed: \
                with wtype on Wayland, xdotool on X11, ydotool where neither fits; \
                --type-enter presses Enter after it. When fewer than 3 seconds are left in \
                the code's time step, the next code is waited for, so that the typed code is \
                not already stale. 'authcat pick' offers the accounts in a menu first.

                With --watch (on a terminal only) authcat shows a table of the current \
                codes, of every account or of those QUERY matches, with the seconds left \
                in each code's time step, refreshed every second, until q, Ctrl-C or \
                SIGTERM. HOTP accounts are listed without a code, so no counter value is \
                used up, unless QUERY names one HOTP account: its code is then shown, using \
                one counter value as plain 'code' does. Rows that do not fit are counted on \
                the last line. Colours follow NO_COLOR.

                Without QUERY every account is listed, sorted by issuer and name. HOTP \
                accounts show no code then, because each HOTP code uses up a counter value; \
                ask for them by name.

                Examples:
                  authcat code github
                  authcat code GitHub:alice@example.com --copy
                  authcat code --json | jq -r '.[] | select(.issuer == "GitHub") | .code'
                  authcat code github --type --type-enter
                  authcat code test --at 59
                  authcat code --watch
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(
            help: "The account: id, ISSUER:NAME, or part of the issuer or name.",
            completion: AccountCompletion.live)
        var query: String?

        // Unconditional, so that "--at -5" reaches `validate` and its message rather than reading as an option.
        @Option(
            name: .customLong("at"), parsing: .unconditional,
            help: ArgumentHelp(
                "Compute time-based codes at this time (seconds since 1970, not before) instead of now.",
                valueName: "unix-seconds"))
        var time: Int64?

        @Flag(
            help:
                "Print JSON: an object with id, issuer, name, code, type, period and valid_until; an array without QUERY."
        )
        var json = false

        @Flag(
            help: ArgumentHelp(
                "Also copy the code to the clipboard (with wl-copy, xclip or xsel), and clear it when the code expires.",
                discussion:
                    "What the clipboard held before is put back then, unless something else was copied meanwhile."))
        var copy = false

        @Flag(help: "With --copy: leave the code on the clipboard.")
        var keep = false

        @Flag(help: "Type the code into the focused window (with wtype, xdotool or ydotool) instead of printing it.")
        var type = false

        @Flag(name: .customLong("type-enter"), help: "With --type: press Enter after the code.")
        var typeEnter = false

        @Flag(help: "Show a live table of codes with their countdowns until q or Ctrl-C (a terminal only).")
        var watch = false

        func validate() throws {
            if copy, query == nil { throw ValidationError("--copy needs a QUERY naming one account") }
            if keep, !copy { throw ValidationError("--keep applies to --copy only") }
            if typeEnter, !type { throw ValidationError("--type-enter applies to --type only") }
            if type, query == nil { throw ValidationError("--type needs a QUERY naming one account") }
            if type, copy || json || watch || time != nil {
                throw ValidationError("--type types the current code; leave out --copy, --json, --watch and --at")
            }
            if watch, copy || json || time != nil {
                throw ValidationError("--watch shows live codes on a terminal; leave out --copy, --json and --at")
            }
            // Time steps count from 1970: no issuer ever made a code for an earlier time.
            if let time, time < 0 {
                throw ValidationError("--at must be 0 or later: codes count time from 1970, and \(time) is before it")
            }
        }

        func run(in invocation: Invocation) throws {
            if watch {
                try LiveCodeView(invocation: invocation, options: vaultOptions, query: query).run()
                return
            }
            if type, let query {
                try CodeTypist(invocation: invocation, options: vaultOptions, enter: typeEnter).type(query)
                return
            }
            let printer = CodePrinter(
                invocation: invocation, options: vaultOptions, query: query, time: time, json: json, copy: copy,
                keep: keep)
            try printer.run()
        }
    }
}
