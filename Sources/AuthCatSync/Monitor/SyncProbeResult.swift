/// The outcome of a live check that the remote answers and accepts the credentials.
public enum SyncProbeResult: Equatable, Sendable {
    case reachable
    case failed(SyncFailure)
}
