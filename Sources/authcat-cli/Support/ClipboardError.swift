import AuthCatCore

/// Why a code could not be put on the clipboard.
enum ClipboardError: UserFacingError {
    case noTool
    case failed(String, status: Int32?)

    var description: String {
        switch self {
        case .noTool:
            "no clipboard tool found; install wl-clipboard (Wayland), xclip or xsel, or leave out --copy"
        case .failed(let tool, let status):
            "\(tool) could not copy the code" + (status.map { " (exit status \($0))" } ?? "")
        }
    }
}
