import AuthCatCore

/// The secret or otpauth URI that `authcat add` reads: piped on standard
/// input, or typed on the terminal with echo off. Never an argument.
enum SecretInput {
    /// Far more than any real Base32 secret, little enough to refuse garbage at once.
    static let secretLimit = 4096
    /// otpauth URIs carry a few parameters besides the secret.
    static let uriLimit = 16384

    /// The decoded Base32 secret.
    static func secret(for label: String) throws -> SecretBytes {
        var bytes = try read(prompt: "secret for \(TerminalText.sanitized(label)) (Base32): ", limit: secretLimit,
                             what: "the secret")
        defer { Wipe.bytes(&bytes) }
        return try Base32.decode(String(decoding: bytes, as: UTF8.self))
    }

    /// The otpauth URI text, surrounding whitespace removed.
    static func uri() throws -> String {
        var bytes = try read(prompt: "otpauth URI: ", limit: uriLimit, what: "the otpauth URI")
        defer { Wipe.bytes(&bytes) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func read(prompt: String, limit: Int, what: String) throws -> [UInt8] {
        if Terminal.standardInputIsTerminal {
            return try Terminal.readHidden(prompt: prompt, limit: limit, what: what, hint: "pipe it into authcat")
        }
        return try StandardInput.read(limit: limit, what: what)
    }
}
