import AuthCatCore
import AuthCatEssentials

/// Why a remote object was rejected. Never names its contents.
enum SyncObjectError: UserFacingError, Equatable {
    case notAuthentic
    case badPadding
    case malformed(String)
    case wrongObject(String)

    var description: String {
        switch self {
        case .notAuthentic: "failed authentication (tampered, truncated, or moved from another name)"
        case .badPadding: "bad padding"
        case .malformed(let what): "malformed contents: \(what)"
        case .wrongObject(let what): "does not belong here: \(what)"
        }
    }
}
