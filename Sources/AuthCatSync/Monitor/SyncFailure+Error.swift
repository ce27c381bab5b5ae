extension SyncFailure {
    /// The failure to record for any error met while syncing, categorized as
    /// the engine categorizes its own (a `RemoteError`'s kind, a `SyncError`'s category).
    public init(_ error: Error) {
        self = SyncError.wrapping(error).failure
    }
}
