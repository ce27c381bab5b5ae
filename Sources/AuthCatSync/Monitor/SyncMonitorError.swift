import AuthCatCore
import AuthCatEssentials

/// Why the sync monitor could not read or write its own files.
public enum SyncMonitorError: UserFacingError, Equatable {
    case cannotRead(String, reason: String)
    case cannotWrite(String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read the sync monitor file \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write the sync monitor file \(path): \(reason)"
        }
    }
}
