import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

extension AuthCat {
    /// `authcat add`: a new account from a Base32 secret or an otpauth URI.
    struct Add: InvokedCommand, OffersChoices {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an account; its secret is read from standard input or typed.",
            discussion: """
                The Base32 secret (spaces, dashes, lowercase and missing padding are fine) \
                is read from standard input when it is not a terminal; on a terminal authcat \
                asks for it without echo. Secrets are never taken as arguments, where other \
                users could see them in the process list or your shell history.

                Without --issuer, NAME may be ISSUER:NAME, as list shows it: GitHub:alice is \
                the account alice at GitHub. With --issuer, NAME is the name as given (a \
                leading ISSUER: that repeats --issuer is dropped). No two accounts may share \
                a label. With --uri, standard input holds an otpauth:// URI instead (the text of a \
                QR code); it sets the type, algorithm, digits, period and counter, and NAME \
                and --issuer, when given, replace the URI's.

                Yandex (--type yandex: 8 letters) and mOTP (--type motp: its secret in hex) \
                codes also need the PIN you chose with the issuer. It is asked for after the \
                secret on a terminal; piped, it is the line after the secret or URI. Like the \
                secret, it is never an argument, and it is stored encrypted.

                The vault is created by the first add. A secret shorter than 80 bits is \
                accepted with a warning, and so is one of a Base32 length no key has (11, 17 \
                or 19 characters, which 2FAS, Ente Auth and Proton Authenticator accept): its \
                extra bits are dropped, as those apps drop them.

                Examples:
                  authcat add alice@example.com --issuer GitHub
                  wl-paste | authcat add bob --issuer Example --tag work
                  authcat add counter-key --type hotp --counter 3 < secret.txt
                  printf '%s\\n' "$SECRET" "$PIN" | authcat add Yandex:ivan --type yandex
                  zbarimg -q --raw qr.png | authcat add --uri
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(
            help: ArgumentHelp(
                "The account at the issuer, such as alice@example.com, or ISSUER:NAME (optional with --uri).",
                valueName: "name"))
        var label: String?

        @Option(name: .customLong("issuer"), help: "Who issued the secret, such as GitHub.")
        var givenIssuer: String?

        @Option(name: .customLong("type"), help: "The kind of code; totp when left out.")
        var kind: OTPKind?

        @Option(help: "The HMAC hash function; sha1 when left out.")
        var algorithm: OTPAlgorithm?

        @Option(
            help: ArgumentHelp("Digits per code, 6 to 10 (default 6; Steam codes have 5 characters).", valueName: "n"))
        var digits: Int?

        @Option(help: ArgumentHelp("Seconds per TOTP code (default 30).", valueName: "seconds"))
        var period: Int?

        @Option(help: ArgumentHelp("The next HOTP counter value (default 0).", valueName: "n"))
        var counter: UInt64?

        @Option(name: .customLong("tag"), help: ArgumentHelp("A tag; repeat for several.", valueName: "tag"))
        var tags: [String] = []

        @Option(help: "A free-form note.")
        var note: String?

        @Flag(help: "Read an otpauth:// URI from standard input instead of a secret.")
        var uri = false

        /// The account name, without an `ISSUER:` in front.
        private var name: String? { label.map { Self.split($0, issuer: givenIssuer).name } }

        /// `--issuer`, else the issuer in front of NAME's first colon.
        private var issuer: String? { givenIssuer ?? label.flatMap { Self.split($0, issuer: nil).issuer } }

        /// `ISSUER:NAME` read as issuer and name, since that is how `list`
        /// shows it and how the lookup reads it: stored whole as a name
        /// without an issuer, it would share its label with the account
        /// `NAME` at `ISSUER`. The issuer is what precedes the first colon
        /// (an otpauth label splits there too). With `--issuer` given, only
        /// a leading copy of that issuer is taken off.
        static func split(_ label: String, issuer given: String?) -> (issuer: String?, name: String) {
            guard let colon = label.firstIndex(of: ":") else { return (nil, label) }
            let issuer = label[..<colon].trimmingCharacters(in: .whitespaces)
            let name = String(label[label.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            guard !issuer.isEmpty, !name.isEmpty else { return (nil, label) }
            if let given, given.lowercased() != issuer.lowercased() { return (nil, label) }
            return (issuer, name)
        }

        static let choices = [ArgumentChoice("--type", OTPKind.self), ArgumentChoice("--algorithm", OTPAlgorithm.self)]

        func validate() throws {
            if uri {
                guard kind == nil, algorithm == nil, digits == nil, period == nil, counter == nil else {
                    throw ValidationError(
                        "--uri takes the type, algorithm, digits, period and counter from the URI; leave those options out"
                    )
                }
            } else if name == nil {
                throw ValidationError("missing the account NAME")
            }
            try TagArgument.validate(tags, option: "--tag")
            if counter != nil, kind != .hotp { throw ValidationError("--counter applies to --type hotp only") }
            if period != nil, kind == .hotp { throw ValidationError("--period applies to TOTP and Steam only") }
            // A value out of range is a usage error (64), like an unknown option.
            do {
                if !uri { try parameters.validate() }
            } catch let error as OTPParameterError {
                throw ValidationError(error.description)
            }
        }

        /// The code parameters the options ask for, each left out taking the kind's default.
        private var parameters: OTPParameters {
            OTPParameters(
                kind: kind ?? .totp, algorithm: algorithm, digits: digits, period: period, counter: counter ?? 0)
        }

        func run(in invocation: Invocation) throws {
            // Everything checkable is checked before the secret is typed: the
            // name and issuer (before a vault is made for them), the
            // passphrase (asked now, if any) and, when the name is known, a clash.
            if !uri, let name {
                try AccountNameRule.check(try checkedName(name), field: .name)
                try AccountNameRule.check(issuer ?? "", field: .issuer)
            }
            let existing = try vaultOptions.openExistingVault(in: invocation)
            try existing?.unlock()
            if !uri, let name { try existing?.checkNameIsFree(issuer: issuer ?? "", name: try checkedName(name)) }
            let draft = uri ? try draftFromURI(in: invocation) : try draftFromSecret(in: invocation)
            if let leftover = draft.secretLeftover { invocation.output.warning(leftover.description) }
            if draft.hasShortSecret {
                invocation.output.warning(
                    "the secret is shorter than 80 bits, which makes codes easier to guess; RFC 4226 asks for 128")
            }
            let vault = try existing ?? vaultOptions.openOrCreateVault(in: invocation)
            let account = try vault.write(author: .cli) { try $0.insert(draft) }
            VaultChangeHook.vaultDidChange(vault, in: invocation)
            invocation.output.print("added \(TerminalText.sanitized(account.label)) (\(account.id.vaultString))")
        }

        /// The parameters are checked before the secret is read, so a typo costs no retyping.
        private func draftFromSecret(in invocation: Invocation) throws -> AccountDraft {
            let otp = parameters
            let name = try checkedName(name ?? "")
            let issuer = issuer ?? ""
            let (secret, pin) = try SecretInput.secret(
                for: issuer.isEmpty ? name : "\(issuer):\(name)", kind: otp.kind, in: invocation)
            var draft = AccountDraft(
                issuer: issuer, name: name, otp: otp, tags: tags, note: note ?? "", secret: secret.secret, pin: pin)
            draft.secretLeftover = secret.leftover
            if otp.kind == .yandex { draft.secret = try OTPPIN.yandexSecret(draft.secret) }
            try draft.checkPIN()
            return draft
        }

        private func draftFromURI(in invocation: Invocation) throws -> AccountDraft {
            let (text, nextLine) = try SecretInput.uri(in: invocation)
            var draft = try OTPAuthURI.parse(text)
            if let name { draft.name = try checkedName(name) }
            if let issuer { draft.issuer = issuer }
            draft.tags = Account.normalizedTags(draft.tags + tags)
            if let note { draft.note = note }
            if draft.otp.kind.needsPIN {
                // A PIN on the next line wins over the URI's: it is what the user typed now.
                if let nextLine { draft.pin = nextLine }
                if draft.pin == nil {
                    draft.pin = try SecretInput.pin(
                        for: draft.issuer.isEmpty ? draft.name : "\(draft.issuer):\(draft.name)", in: invocation)
                }
            } else if nextLine != nil {
                throw ValidationError(
                    "standard input holds more than the URI; only Yandex and mOTP URIs take a PIN on the next line")
            }
            try draft.checkPIN()
            return draft
        }

        private func checkedName(_ name: String) throws -> String {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw VaultStoreError.emptyName }
            return trimmed
        }
    }
}
