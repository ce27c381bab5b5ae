/// Which vault this is and which device holds this copy of it.
public struct VaultIdentity: Codable, Equatable, Sendable {
    /// Random id made when the vault was created; the key file carries it too.
    public var vaultID: String
    /// Random id of this copy of the vault: history and sync name devices by it.
    public var deviceID: String
    /// A human name for this device (the host name when the vault was made).
    public var deviceName: String
}
