/// What enabling sync did.
public struct SyncEnableResult: Sendable, Equatable {
    public enum Outcome: String, Sendable, Equatable {
        /// A new remote vault was made; `recoveryKey` must be shown to the user once.
        case created
        /// This device joined the remote vault another device made.
        case joined
        /// Sync was turned on again for the remote vault this device had joined before.
        case resumed
    }

    public var outcome: Outcome
    /// The recovery key, formatted for display; only when `outcome` is `.created`.
    public var recoveryKey: String?
    /// The id of the remote vault (not secret).
    public var remoteVaultID: String
    /// This device's id on the remote (not secret).
    public var deviceID: String
    /// The name this device asks for on the remote; its first sync adds a
    /// suffix when another device carries it (`SyncReport.deviceRenamed`).
    public var deviceName: String

    public init(outcome: Outcome, recoveryKey: String?, remoteVaultID: String, deviceID: String, deviceName: String) {
        self.outcome = outcome
        self.recoveryKey = recoveryKey
        self.remoteVaultID = remoteVaultID
        self.deviceID = deviceID
        self.deviceName = deviceName
    }
}
