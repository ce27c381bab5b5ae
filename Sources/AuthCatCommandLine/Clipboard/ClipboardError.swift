import AuthCatCore
import AuthCatEssentials

/// Why a code could not be put on the clipboard.
enum ClipboardError: UserFacingError {
    case noTool
    /// The tool named failed; `reason` is its own message when it gave one.
    case failed(String, reason: String)
    /// What the clipboard holds could not be read, so it cannot be put back.
    case unreadable(String)
    /// The process that would clear the clipboard later could not be started.
    case cannotSchedule(String)

    var description: String {
        switch self {
        case .noTool:
            "no clipboard tool found; install wl-clipboard (Wayland), xclip or xsel, or leave out --copy"
        case let .failed(tool, reason):
            "could not copy the code with \(tool): \(reason)"
        case let .unreadable(reason):
            "could not read the clipboard: \(reason)"
        case let .cannotSchedule(reason):
            "the code stays on the clipboard: could not start the process that clears it (\(reason))"
        }
    }
}
