import AuthCatCore
import AuthCatEssentials
import Foundation

/// A JSON document signed with Ed25519 (docs/FORMAT.md §5.9): the manifest,
/// a device key certificate, a rotation record.
///
/// The signature covers `"authcat-sync-signed:v1|" + kind + "|"` followed by
/// the document encoded as compact JSON with sorted keys and without its
/// `signature` member. Members a reader does not know are dropped before it
/// re-encodes, so they are never covered and never believed.
protocol SignedDocument: Codable {
    /// Separates the kinds of signed document, so that one never passes for another.
    static var signatureKind: String { get }
    var signature: Data? { get set }
}

extension SignedDocument {
    func signedBytes() throws -> Data {
        var unsigned = self
        unsigned.signature = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Data("authcat-sync-signed:v1|\(Self.signatureKind)|".utf8) + (try encoder.encode(unsigned))
    }

    /// The document with its signature by `secretKey` (an Ed25519 secret key).
    func signed(with secretKey: SecretBytes) throws -> Self {
        var copy = self
        copy.signature = try PublicKeyCrypto.sign(try signedBytes(), secretKey: secretKey)
        return copy
    }

    /// Whether `publicKey` signed exactly this document.
    func isSigned(by publicKey: Data) throws -> Bool {
        guard let signature else { return false }
        return try PublicKeyCrypto.isValidSignature(signature, of: try signedBytes(), publicKey: publicKey)
    }

    /// The stored form: pretty JSON with sorted keys.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
