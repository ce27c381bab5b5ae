import AuthCatCore
import AuthCatEssentials

/// The local sync state file holds something this version cannot read.
enum SyncStoreError: UserFacingError {
    case malformed(String)

    var description: String {
        switch self {
        case .malformed(let detail): "the sync state file is damaged: \(detail)"
        }
    }
}
