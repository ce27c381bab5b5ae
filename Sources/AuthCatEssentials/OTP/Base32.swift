/// RFC 4648 Base32, the text form of OTP secrets.
///
/// Decoding forgives what people do when they copy a secret by hand:
/// lowercase, spaces, dashes, line breaks, and missing or present `=` padding.
/// Encoding writes what authenticator apps show: uppercase, no padding.
public enum Base32 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Decodes `text` straight into zeroing storage, refusing a length no
    /// byte string encodes to.
    ///
    /// Bits left over after the last whole byte are ignored when there are
    /// fewer than five of them (the encoder's own padding bits), as other
    /// authenticators do, because sites that draw random Base32 characters
    /// (rather than random bytes) produce such secrets. For secrets people
    /// bring from other apps use `decodeSecret`, which also reads the lengths
    /// this refuses.
    /// - Throws: `Base32Error` naming the first problem.
    public static func decode(_ text: String) throws -> SecretBytes {
        let decoded = try decodeSecret(text)
        if let leftover = decoded.leftover { throw Base32Error.invalidLength(leftover.characters) }
        return decoded.secret
    }

    /// Decodes a secret as 2FAS, Ente Auth and Proton Authenticator do: every
    /// whole byte the characters hold, the bits after the last one dropped,
    /// whatever the length. Such apps accept and export secrets of 11, 17 or
    /// 19 characters, which no byte string encodes to (a canonical encoding
    /// never has a whole character beyond its last byte); `leftover` then
    /// says so, for the caller to warn. A single character holds no byte at
    /// all and is refused.
    /// - Throws: `Base32Error` naming the first problem.
    public static func decodeSecret(_ text: String) throws -> Base32Secret {
        try withUTF8(text, decodeSecret)
    }

    /// Decodes UTF-8 text held in `SecretBytes` (a recovery key as read), as `decode(_:)` does a `String`.
    public static func decode(_ text: SecretBytes) throws -> SecretBytes {
        let decoded = try decodeSecret(text)
        if let leftover = decoded.leftover { throw Base32Error.invalidLength(leftover.characters) }
        return decoded.secret
    }

    /// Decodes UTF-8 text held in `SecretBytes` (a secret as typed), as `decodeSecret(_:)` does a `String`.
    public static func decodeSecret(_ text: SecretBytes) throws -> Base32Secret {
        try text.withUnsafeBytes {
            try decodeSecret(
                UnsafeBufferPointer(start: $0.baseAddress?.assumingMemoryBound(to: UInt8.self), count: $0.count))
        }
    }

    private static func decodeSecret(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Base32Secret {
        let symbols = try countSymbols(bytes)
        let byteCount = symbols * 5 / 8
        guard byteCount > 0 else { throw Base32Error.invalidLength(symbols) }
        let secret = SecretBytes(count: byteCount)
        secret.withUnsafeMutableBytes { unpack(bytes, into: $0) }
        let ignoredBits = symbols * 5 - byteCount * 8
        let leftover =
            ignoredBits >= 5
            ? Base32Leftover(characters: symbols, bytes: byteCount, ignoredBits: ignoredBits) : nil
        return Base32Secret(secret: secret, leftover: leftover)
    }

    /// Uppercase Base32 of `secret`, without padding.
    public static func encode(_ secret: SecretBytes) -> String {
        let length = (secret.count * 8 + 4) / 5
        return secret.withUnsafeBytes { input in
            // Written straight into the string's storage so that no other
            // buffer is left holding the encoded secret.
            String(unsafeUninitializedCapacity: length) { output in
                var accumulator: UInt32 = 0
                var bits = 0
                var written = 0
                for byte in input {
                    accumulator = (accumulator &<< 8) | UInt32(byte)
                    bits += 8
                    while bits >= 5 {
                        bits -= 5
                        output[written] = alphabet[Int((accumulator >> UInt32(bits)) & 31)]
                        written += 1
                    }
                }
                if bits > 0 {
                    output[written] = alphabet[Int((accumulator &<< UInt32(5 - bits)) & 31)]
                    written += 1
                }
                return written
            }
        }
    }

    /// The 5-bit value of an alphabet character, either case.
    @inline(__always)
    private static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): byte - UInt8(ascii: "2") + 26
        default: nil
        }
    }

    /// Separators people put into secrets to make them readable.
    @inline(__always)
    private static func isIgnorable(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): true
        default: false
        }
    }

    private static let padding = UInt8(ascii: "=")

    private static func withUTF8<Result>(
        _ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        if let result = try text.utf8.withContiguousStorageIfAvailable(body) {
            return result
        }
        return try Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// Checks every character and counts the alphabet characters.
    private static func countSymbols(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Int {
        var symbols = 0
        var paddingPosition: Int?
        // Every non-ASCII character is invalid, so all bytes before the first
        // error are ASCII and byte offsets are character positions.
        for (offset, byte) in bytes.enumerated() {
            let position = offset + 1
            if value(of: byte) != nil {
                if let paddingPosition { throw Base32Error.misplacedPadding(position: paddingPosition) }
                symbols += 1
            } else if byte == padding {
                paddingPosition = paddingPosition ?? position
            } else if !isIgnorable(byte) {
                throw Base32Error.invalidCharacter(scalar(at: offset, in: bytes), position: position)
            }
        }
        guard symbols > 0 else { throw Base32Error.empty }
        return symbols
    }

    /// Writes the bits of `bytes` into `output`, which has exactly the right size.
    private static func unpack(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer) {
        var accumulator: UInt32 = 0
        var bits: UInt32 = 0
        var written = 0
        for byte in bytes {
            guard written < output.count else { return }
            guard let value = value(of: byte) else { continue }
            accumulator = (accumulator &<< 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                output[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
                written += 1
            }
        }
    }

    /// The character starting at a byte offset, for error messages only.
    private static func scalar(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar {
        var decoder = UTF8()
        var rest = bytes[offset...].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&rest) { return scalar }
        return Unicode.Scalar(bytes[offset])
    }
}

/// A secret read by `Base32.decodeSecret`.
public struct Base32Secret: Sendable {
    public var secret: SecretBytes
    /// Set when the text had a character beyond its last whole byte.
    public var leftover: Base32Leftover?

    public init(secret: SecretBytes, leftover: Base32Leftover? = nil) {
        self.secret = secret
        self.leftover = leftover
    }
}

/// A Base32 text longer than its bytes need: 8 characters carry 5 bytes,
/// and a final group of 1, 3 or 6 characters holds five or more bits that
/// make no byte. Those bits were dropped, as the apps that write such
/// secrets drop them when they make codes.
public struct Base32Leftover: Equatable, Sendable, CustomStringConvertible {
    /// Base32 characters in the text (separators and padding not counted).
    public var characters: Int
    /// Whole bytes read.
    public var bytes: Int
    /// Bits dropped after the last byte, 5 to 7.
    public var ignoredBits: Int

    /// The warning to show, without the secret.
    public var description: String {
        "the secret has \(characters.counted("Base32 character")), more than its \(bytes.counted("byte")) \(bytes == 1 ? "needs" : "need"); its last \(ignoredBits) bits "
            + "were ignored, as 2FAS, Ente Auth and Proton Authenticator do. If its codes are refused, check that the "
            + "secret was copied completely"
    }
}
