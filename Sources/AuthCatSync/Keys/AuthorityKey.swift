import AuthCatCore
import AuthCatEssentials
import Foundation

/// The remote vault's authority: an Ed25519 key pair whose secret half is
/// stored only wrapped under the sync passphrase and the recovery key
/// (docs/FORMAT.md §5.9). Signing with it proves that whoever signed typed
/// one of them, which neither a device's files nor the remote hold.
///
/// Devices pin its public half when they join (or, for devices from before
/// it, when the user next types the passphrase on them) and from then on
/// believe a manifest, a device certificate or a rotation only when it signed it.
struct AuthorityKey {
    let keyPair: PublicKeyCrypto.KeyPair

    var publicKey: Data { keyPair.publicKey }

    static func generate() throws -> AuthorityKey {
        AuthorityKey(keyPair: try PublicKeyCrypto.signingKeyPair())
    }

    init(keyPair: PublicKeyCrypto.KeyPair) {
        self.keyPair = keyPair
    }

    /// The authority from its unwrapped secret half; its public half is in the secret key.
    init(secretKey: SecretBytes) throws {
        keyPair = PublicKeyCrypto.KeyPair(
            publicKey: try PublicKeyCrypto.signingPublicKey(of: secretKey), secretKey: secretKey)
    }

    func sign<Document: SignedDocument>(_ document: Document) throws -> Document {
        try document.signed(with: keyPair.secretKey)
    }
}
