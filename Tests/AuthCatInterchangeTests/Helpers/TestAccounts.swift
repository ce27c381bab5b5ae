import AuthCatCore
import AuthCatEssentials
import Foundation

/// A vault account for export tests that never touch a vault.
func account(
    _ issuer: String, _ name: String, otp: OTPParameters = OTPParameters(), tags: [String] = [], note: String = ""
) -> Account {
    Account(
        id: UUID(), issuer: issuer, name: name, otp: otp, tags: tags, note: note,
        createdAt: Date(unixMilliseconds: 1_700_000_000_000), updatedAt: Date(unixMilliseconds: 1_700_000_000_000))
}

/// The secret of a Base32 literal.
func Base32Secret(_ text: String) throws -> SecretBytes {
    try Base32.decode(text)
}
