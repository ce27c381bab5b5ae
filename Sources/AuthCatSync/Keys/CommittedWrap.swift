import AuthCatCore
import AuthCatEssentials
import Foundation

/// A key wrapped so that the box commits to the key that wrapped it
/// (docs/FORMAT.md §5.9): `commitment (32) ‖ nonce (24) ‖ ciphertext ‖ tag`,
/// with `commitment = BLAKE2b-256(key: wrapping key, "authcat-key-commitment:v1|" ‖ ad)`.
///
/// XChaCha20-Poly1305 alone is not key-committing: someone who chooses two
/// keys can make one box that opens under both, and so hand a joining device
/// a master key of their choosing under a passphrase they guessed wrong. The
/// keyed hash in front binds the box to one wrapping key; it is checked, in
/// constant time, before the box is opened.
enum CommittedWrap {
    static let commitmentSize = PublicKeyCrypto.hashSize

    static func wrap(_ secret: SecretBytes, key: SecretBytes, associatedData: Data) throws -> Data {
        var wrapped = try commitment(key: key, associatedData: associatedData)
        wrapped.append(try AEAD.seal(secret, key: key, associatedData: associatedData))
        return wrapped
    }

    /// The wrapped secret; `CryptoError.authenticationFailed` for any other key, data or box.
    static func unwrap(_ wrapped: Data, key: SecretBytes, associatedData: Data) throws -> SecretBytes {
        guard wrapped.count > commitmentSize else { throw CryptoError.authenticationFailed }
        let expected = try commitment(key: key, associatedData: associatedData)
        guard PublicKeyCrypto.constantTimeEqual(Data(wrapped.prefix(commitmentSize)), expected) else {
            throw CryptoError.authenticationFailed
        }
        return try AEAD.open(Data(wrapped.dropFirst(commitmentSize)), key: key, associatedData: associatedData)
    }

    private static func commitment(key: SecretBytes, associatedData: Data) throws -> Data {
        try PublicKeyCrypto.hash(Data("authcat-key-commitment:v1|".utf8) + associatedData, key: key)
    }
}
