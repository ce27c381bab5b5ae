/// Why a Base32 secret could not be read.
///
/// Descriptions name the offending character and its position, never the
/// input itself, because the input is usually a secret.
public enum Base32Error: UserFacingError, Equatable {
    /// Nothing but spaces, dashes or padding.
    case empty
    /// A character outside the Base32 alphabet; `position` counts characters from 1.
    case invalidCharacter(Unicode.Scalar, position: Int)
    /// `=` padding followed by more data; `position` counts characters from 1.
    case misplacedPadding(position: Int)
    /// A number of Base32 characters that no byte string encodes to (1, 3 or 6 more than a multiple of 8).
    case invalidLength(Int)

    public var description: String {
        switch self {
        case .empty:
            "the secret is empty; it should be a Base32 string such as JBSWY3DPEHPK3PXP"
        case .invalidCharacter(let scalar, let position):
            "the secret has an invalid character \(Self.describe(scalar)) at position \(position); "
                + "Base32 uses only the letters A to Z and the digits 2 to 7"
        case .misplacedPadding(let position):
            "the secret has padding \"=\" at position \(position) followed by more characters; "
                + "\"=\" may only appear at the end"
        case .invalidLength(let count):
            "the secret has \(count.counted("Base32 character")), a length no key encodes to; "
                + "check that it was copied completely"
        }
    }

    /// Printable characters in quotes, anything else as `U+XXXX` so that the
    /// message cannot carry control characters to the terminal.
    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let printable =
            scalar.properties.generalCategory != .control && !scalar.properties.isWhitespace
            && scalar.properties.generalCategory != .format
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return printable ? "\"\(scalar)\" (\(code))" : code
    }
}
