import AuthCatCore
import AuthCatEssentials

/// The secret or otpauth URI that `authcat add` reads, and the PIN of a
/// Yandex or mOTP account: piped on standard input, or typed on the
/// terminal with echo off. Never an argument.
///
/// Piped, the PIN is the line after the secret (or URI); on a terminal it is
/// asked for on its own.
enum SecretInput {
    /// Far more than any real Base32 secret, little enough to refuse garbage at once.
    static let secretLimit = 4096
    /// otpauth URIs carry a few parameters besides the secret.
    static let uriLimit = 16384

    /// The decoded secret (Base32; hex for mOTP), and the PIN when `kind` needs one.
    static func secret(for label: String, kind: OTPKind) throws -> (secret: Base32Secret, pin: SecretBytes?) {
        let (secret, nextLine) = try TypedAnswer.asking { try decodedSecret(for: label, kind: kind) }
        guard kind.needsPIN else { return (secret, nil) }
        return (secret, try nextLine ?? pin(for: label))
    }

    private static func decodedSecret(for label: String, kind: OTPKind) throws -> (Base32Secret, nextLine: SecretBytes?)
    {
        let encoding = kind == .motp ? "hex" : "Base32"
        // Without a PIN to follow, line breaks inside a piped secret are
        // separators, as spaces are.
        let (text, nextLine) = try read(
            prompt: "secret for \(TerminalText.sanitized(label)) (\(encoding)): ",
            limit: secretLimit, what: "the secret", splitLines: kind.needsPIN)
        if URIGivenError.isURI(text) { throw URIGivenError() }
        // Hex decoding takes a String, which cannot be wiped; Base32 reads the locked bytes.
        let secret =
            kind == .motp
            ? Base32Secret(
                secret: try Base16.decode(text.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }), leftover: nil)
            : try Base32.decodeSecret(text)
        return (secret, nextLine)
    }

    /// An otpauth URI (a QR code's text) given where a secret belongs: one
    /// option away from working. The message never repeats the URI, which
    /// holds the secret.
    struct URIGivenError: UserFacingError {
        /// Whether `text`, leading white space aside, starts with `otpauth://`
        /// (any case), read in place so that no copy of a secret is made.
        static func isURI(_ text: SecretBytes) -> Bool {
            let scheme = Array("otpauth://".utf8)
            return text.withUnsafeBytes { bytes in
                let start = bytes.firstIndex { !(Character(UnicodeScalar($0)).isWhitespace) } ?? bytes.endIndex
                guard bytes.count - start >= scheme.count else { return false }
                return zip(bytes[start...], scheme).allSatisfy { byte, letter in byte | 0x20 == letter | 0x20 }
            }
        }

        var description: String {
            "that is an otpauth:// URI, not a secret; to add the account from it, run the same command with --uri"
        }
    }

    /// The otpauth URI, surrounding whitespace removed; piped, also the line
    /// after it: the PIN of a Yandex or mOTP URI that lacks one (unchecked).
    static func uri() throws -> (uri: String, nextLine: SecretBytes?) {
        let (bytes, nextLine) = try read(
            prompt: "otpauth URI: ", limit: uriLimit, what: "the otpauth URI", splitLines: true)
        // The URI is parsed as a String (URLComponents), which cannot be wiped.
        return (
            bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }.trimmingCharacters(
                in: .whitespacesAndNewlines), nextLine
        )
    }

    /// The PIN of `label`'s account, typed on the terminal.
    static func pin(for label: String) throws -> SecretBytes {
        guard Terminal.standardInputIsTerminal else { throw PINInputError.missing }
        return try TypedAnswer.asking { try typedPIN(for: label) }
    }

    private static func typedPIN(for label: String) throws -> SecretBytes {
        let pin = try Terminal.readHidden(
            prompt: "PIN for \(TerminalText.sanitized(label)): ", limit: OTPPIN.maximumBytes,
            what: "the PIN", hint: "pipe the secret and then the PIN, one per line")
        try OTPPIN.check(pin)
        return pin
    }

    /// The first line (all of it on a terminal), and the piped line after it,
    /// if any, without line breaks: each in locked memory.
    private static func read(
        prompt: String, limit: Int, what: String, splitLines: Bool
    ) throws -> (value: SecretBytes, nextLine: SecretBytes?) {
        if Terminal.standardInputIsTerminal {
            return (
                try Terminal.readHidden(prompt: prompt, limit: limit, what: what, hint: "pipe it into authcat"), nil
            )
        }
        let input = try FileDescriptorReader.readSecret(Invocation.current.standardInput, limit: limit, what: what)
        guard splitLines else { return (input, nil) }
        return input.withUnsafeBytes { bytes in
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return (input, nil) }
            var end = bytes.count
            while end > newline + 1, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") {
                end -= 1
            }
            let rest = input.slice(newline + 1..<end)
            return (input.prefix(FileDescriptorReader.firstLine(bytes)), rest.count == 0 ? nil : rest)
        }
    }
}

/// A Yandex or mOTP account added without its PIN.
enum PINInputError: UserFacingError {
    case missing

    var description: String {
        "this kind of account needs its PIN: pipe it on the line after the secret (or URI), or type it on a terminal"
    }
}
