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
        let encoding = kind == .motp ? "hex" : "Base32"
        // Without a PIN to follow, line breaks inside a piped secret are
        // separators, as spaces are.
        let (text, nextLine) = try read(prompt: "secret for \(TerminalText.sanitized(label)) (\(encoding)): ",
                                        limit: secretLimit, what: "the secret", splitLines: kind.needsPIN)
        // Hex decoding takes a String, which cannot be wiped; Base32 reads the locked bytes.
        let secret = kind == .motp
            ? Base32Secret(secret: try Base16.decode(text.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }), leftover: nil)
            : try Base32.decodeSecret(text)
        guard kind.needsPIN else { return (secret, nil) }
        return (secret, try nextLine ?? pin(for: label))
    }

    /// The otpauth URI, surrounding whitespace removed; piped, also the line
    /// after it: the PIN of a Yandex or mOTP URI that lacks one (unchecked).
    static func uri() throws -> (uri: String, nextLine: SecretBytes?) {
        let (bytes, nextLine) = try read(prompt: "otpauth URI: ", limit: uriLimit, what: "the otpauth URI", splitLines: true)
        // The URI is parsed as a String (URLComponents), which cannot be wiped.
        return (bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }.trimmingCharacters(in: .whitespacesAndNewlines), nextLine)
    }

    /// The PIN of `label`'s account, typed on the terminal.
    static func pin(for label: String) throws -> SecretBytes {
        guard Terminal.standardInputIsTerminal else { throw PINInputError.missing }
        let pin = try Terminal.readHidden(prompt: "PIN for \(TerminalText.sanitized(label)): ", limit: OTPPIN.maximumBytes,
                                          what: "the PIN", hint: "pipe the secret and then the PIN, one per line")
        try OTPPIN.check(pin)
        return pin
    }

    /// The first line (all of it on a terminal), and the piped line after it,
    /// if any, without line breaks: each in locked memory.
    private static func read(prompt: String, limit: Int, what: String, splitLines: Bool) throws -> (value: SecretBytes, nextLine: SecretBytes?) {
        if Terminal.standardInputIsTerminal {
            return (try Terminal.readHidden(prompt: prompt, limit: limit, what: what, hint: "pipe it into authcat"), nil)
        }
        let input = try FileDescriptorReader.readSecret(Invocation.current.standardInput, limit: limit, what: what)
        guard splitLines else { return (input, nil) }
        return input.withUnsafeBytes { bytes in
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return (input, nil) }
            var end = bytes.count
            while end > newline + 1, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
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
