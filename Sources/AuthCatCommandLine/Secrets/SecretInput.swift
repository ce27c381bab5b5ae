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
    static func secret(
        for label: String, kind: OTPKind, in invocation: Invocation
    ) throws -> (secret: Base32Secret, pin: SecretBytes?) {
        let (secret, nextLine) = try TypedAnswer.asking(in: invocation) {
            try decodedSecret(for: label, kind: kind, in: invocation)
        }
        guard kind.needsPIN else { return (secret, nil) }
        return (secret, try nextLine ?? pin(for: label, in: invocation))
    }

    private static func decodedSecret(
        for label: String, kind: OTPKind, in invocation: Invocation
    ) throws -> (Base32Secret, nextLine: SecretBytes?) {
        let encoding = kind == .motp ? "hex" : "Base32"
        // Without a PIN to follow, line breaks inside a piped secret are
        // separators, as spaces are.
        let (text, nextLine) = try read(
            prompt: "secret for \(TerminalText.sanitized(label)) (\(encoding)): ",
            limit: secretLimit, what: "the secret", splitLines: kind.needsPIN, in: invocation)
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
    static func uri(in invocation: Invocation) throws -> (uri: String, nextLine: SecretBytes?) {
        let (bytes, nextLine) = try read(
            prompt: "otpauth URI: ", limit: uriLimit, what: "the otpauth URI", splitLines: true, in: invocation)
        // The URI is parsed as a String (URLComponents), which cannot be wiped.
        return (
            bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }.trimmingCharacters(
                in: .whitespacesAndNewlines), nextLine
        )
    }

    /// The PIN of `label`'s account, typed on the terminal.
    static func pin(for label: String, in invocation: Invocation) throws -> SecretBytes {
        guard invocation.terminal.standardInputIsTerminal else { throw PINInputError.missing }
        return try TypedAnswer.asking(in: invocation) { try typedPIN(for: label, terminal: invocation.terminal) }
    }

    private static func typedPIN(for label: String, terminal: Terminal) throws -> SecretBytes {
        let pin = try terminal.readHidden(
            prompt: "PIN for \(TerminalText.sanitized(label)): ", limit: OTPPIN.maximumBytes,
            what: "the PIN", hint: "pipe the secret and then the PIN, one per line")
        try OTPPIN.check(pin)
        return pin
    }

    /// The first line (all of it on a terminal), and the piped line after it,
    /// if any, without line breaks: each in locked memory.
    private static func read(
        prompt: String, limit: Int, what: String, splitLines: Bool, in invocation: Invocation
    ) throws -> (value: SecretBytes, nextLine: SecretBytes?) {
        if invocation.terminal.standardInputIsTerminal {
            return (
                try invocation.terminal.readHidden(
                    prompt: prompt, limit: limit, what: what, hint: "pipe it into authcat"), nil
            )
        }
        let input = try FileDescriptorReader.readSecret(invocation.standardInput, limit: limit, what: what)
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
