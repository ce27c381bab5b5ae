import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange

extension AuthCat {
    /// `authcat show QUERY`: one account's details, or with `--uri` its otpauth URI.
    struct Show: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show the details of one account; with --uri, its otpauth URI, secret included.",
            discussion: """
                Without --uri nothing secret is shown: id, issuer, name, type, algorithm, \
                digits, period or counter, tags, note, and when the account was created and \
                last changed. A Yandex or mOTP account's PIN is not shown either.

                --uri prints the account's otpauth:// URI, which contains the secret (and the \
                PIN of a Yandex or mOTP account, as Aegis writes it: otpauth://yaotp/… and \
                motp://…): use \
                it to move the account to another authenticator (for example as a QR code \
                with qrencode -t ansiutf8), and keep it out of logs and shared screens.

                --json prints the details as one object: the keys of 'list --json' (id, \
                issuer, name, type, algorithm, digits, period, counter, tags) and note, \
                created_at and updated_at (seconds since 1970); see docs/JSON.md.

                Examples:
                  authcat show github
                  authcat show GitHub:alice@example.com --uri | qrencode -t ansiutf8
                  authcat show github --json | jq -r .note
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(
            help: "The account: id, ISSUER:NAME, or part of the issuer or name.",
            completion: AccountCompletion.live)
        var query: String

        @Flag(help: "Print the otpauth:// URI, which includes the secret.")
        var uri = false

        @Flag(help: "Draw the otpauth:// URI as a QR code in the terminal, to scan with a phone.")
        var qr = false

        @Flag(help: "Print the details as a JSON object (never the secret).")
        var json = false

        func validate() throws {
            if json, uri || qr { throw ValidationError("--json prints the details; leave out --uri and --qr") }
        }

        func run(in invocation: Invocation) throws {
            let vault = try vaultOptions.openVault(in: invocation)
            let account = try vault.account(matching: query)
            if uri || qr {
                let secret = try vault.secret(for: account.id)
                let pin = account.otp.kind.needsPIN ? try vault.pin(for: account.id) : nil
                let text = OTPAuthURI.make(
                    issuer: account.issuer, name: account.name, parameters: account.otp, secret: secret, pin: pin)
                if uri { invocation.output.print(text) }
                if qr { invocation.output.print(try QRCode.encode(text).terminalText(), terminator: "") }
                return
            }
            if json { return invocation.output.print(try JSONOutput.string(AccountDetails(account))) }
            TextTable.lines(Self.details(of: account)).forEach { invocation.output.print($0) }
        }

        private static func details(of account: Account) -> [[String]] {
            let otp = account.otp
            var rows = [
                ["id", account.id.vaultString], ["issuer", account.issuer], ["name", account.name],
                ["type", otp.kind.rawValue], ["algorithm", otp.algorithm.rawValue], ["digits", "\(otp.digits)"],
            ]
            rows.append(otp.kind == .hotp ? ["counter", "\(otp.counter)"] : ["period", "\(otp.period)s"])
            rows += [
                ["tags", account.tags.joined(separator: ", ")], ["note", account.note],
                ["created", Timestamp.text(account.createdAt)], ["updated", Timestamp.text(account.updatedAt)],
            ]
            return rows
        }
    }
}
