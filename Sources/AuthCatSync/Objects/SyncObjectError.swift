import AuthCatCore
import AuthCatEssentials

/// Why a remote object was rejected. Never names its contents.
enum SyncObjectError: UserFacingError, Equatable {
    case notAuthentic
    case badPadding
    case malformed(String)
    case wrongObject(String)
    /// A clock more than a day ahead of this device's: this device's own
    /// clock may be behind, so it is read again on every sync.
    case clockAhead(wall: Int64)

    var description: String {
        switch self {
        case .notAuthentic: "failed authentication (tampered, truncated, or moved from another name)"
        case .badPadding: "bad padding"
        case .malformed(let what): "malformed contents: \(what)"
        case .wrongObject(let what): "does not belong here: \(what)"
        case .clockAhead(let wall):
            "a clock (\(wall) ms) is more than a day ahead of this device's clock; read again on every sync, "
                + "in case this device's clock is behind"
        }
    }
}
