import AuthCatCore

/// Why a code could not be put on the clipboard.
enum ClipboardError: UserFacingError {
    case noTool
    /// The tool named failed; `reason` is its own message when it gave one.
    case failed(String, reason: String)

    var description: String {
        switch self {
        case .noTool:
            "no clipboard tool found; install wl-clipboard (Wayland), xclip or xsel, or leave out --copy"
        case let .failed(tool, reason):
            "could not copy the code with \(tool): \(reason)"
        }
    }
}
