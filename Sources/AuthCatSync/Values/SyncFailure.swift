import AuthCatEssentials

/// Why a sync phase failed, as recorded by the monitor.
///
/// The message is shown to the user and stored on disk: it never contains a
/// secret, a credential or object contents.
public struct SyncFailure: Codable, Equatable, Sendable {
    /// The broad class of a failure; it decides the status summary.
    public enum Category: String, Codable, CaseIterable, Sendable {
        /// The remote could not be reached: no network, connection refused, timeout.
        case unreachable
        /// The remote refused the credentials.
        case credentialsRejected
        /// The bucket or folder holding the objects does not exist.
        case containerMissing
        /// Another device deleted the remote data (`sync disable --delete-remote`).
        case remoteDeleted
        /// The remote now holds a different vault than the one this device joined.
        case vaultMismatch
        /// A key rotation on another device revoked this one.
        case revoked
        /// Another device turned sync off everywhere.
        case disabledElsewhere
        /// The sync passphrase or recovery key was wrong.
        case wrongPassphrase
        /// An object failed authentication or a device's chain has a gap.
        case integrity
        case other
    }

    public var category: Category
    public var message: String
    /// What the user can do about it, named for the command line to word;
    /// absent from records written before authcat named steps.
    public var nextStep: NextStep?

    public init(category: Category, message: String, nextStep: NextStep? = nil) {
        self.category = category
        self.message = message
        self.nextStep = nextStep
    }

    private enum CodingKeys: String, CodingKey { case category, message, nextStep }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        category = try container.decode(Category.self, forKey: .category)
        message = try container.decode(String.self, forKey: .message)
        // A step that a newer authcat named is left out, rather than the whole record.
        nextStep = try? container.decodeIfPresent(NextStep.self, forKey: .nextStep)
    }
}

extension SyncFailure {
    /// The failure to record for any error met while syncing, categorized as
    /// the engine categorizes its own (a `RemoteError`'s kind, a `SyncError`'s category).
    public init(_ error: Error) {
        self = SyncError.wrapping(error).failure
    }
}
