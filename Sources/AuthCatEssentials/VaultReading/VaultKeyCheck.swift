#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An empty message sealed under the vault key, with the vault id as
/// associated data, kept in the database's `vault` row since the vault was
/// made (docs/FORMAT.md §3): a key that opens it is this vault's key.
///
/// Both programs check a key here before opening any secret with it,
/// whether it came from the key file or from the kernel keyring.
public struct VaultKeyCheck: Equatable, Sendable {
    public let vaultID: String
    public let sealed: Data

    public init(vaultID: String, sealed: Data) {
        self.vaultID = vaultID
        self.sealed = sealed
    }

    /// The check of a new vault with this id and key.
    public init(vaultID: String, key: SecretBytes) throws {
        self.init(
            vaultID: vaultID, sealed: try AEAD.seal(Data(), key: key, associatedData: Self.associatedData(vaultID)))
    }

    /// Whether `key` is this vault's key.
    public func accepts(_ key: SecretBytes) -> Bool {
        (try? AEAD.open(sealed, key: key, associatedData: Self.associatedData(vaultID))) != nil
    }

    private static func associatedData(_ vaultID: String) -> Data {
        Data(utf8: "authcat-key-check:v1:\(vaultID)")
    }
}
