import AuthCatEssentials
import Foundation

/// The program that types a code into the focused window: wtype on Wayland
/// (the virtual-keyboard protocol of wlroots compositors and KDE), xdotool on
/// X11 (XTEST), and ydotool (the kernel's uinput, any session, given its
/// daemon or access to /dev/uinput) where neither fits. The code goes to the
/// tool on its standard input, never on its command line.
struct TypingTool {
    enum Kind: String, CaseIterable {
        case wtype, xdotool, ydotool

        /// The Debian package that installs it.
        var package: String { rawValue }

        /// The tools a session tries, in order.
        static func preferred(in session: DesktopSession) -> [Kind] {
            switch session {
            case .wayland: [.wtype, .ydotool]
            case .x11: [.xdotool, .ydotool]
            case .none: [.ydotool]
            }
        }

        /// The arguments that type standard input, Enter after it when asked.
        fileprivate func arguments(enter: Bool) -> [String] {
            switch self {
            case .wtype: ["-"] + (enter ? ["-k", "Return"] : [])
            // --clearmodifiers: the keys of the binding that ran authcat may still be held.
            case .xdotool: ["type", "--clearmodifiers", "--file", "-"]
            case .ydotool: ["type", "--file", "-"]
            }
        }

        /// The code, and for xdotool and ydotool a line break, which they type as Enter.
        fileprivate func input(_ code: String, enter: Bool) -> [UInt8] {
            Array(code.utf8) + (self != .wtype && enter ? [0x0A] : [])
        }
    }

    let kind: Kind
    let program: ChildProcess

    /// How long typing a code may take: a tool that hangs (a compositor
    /// that never answers) is stopped.
    static let timeout: TimeInterval = 10

    /// The first of the session's tools that is installed.
    /// - Throws: `DesktopError.missingProgram` naming the package for this session.
    static func find(environment: [String: String]) throws -> TypingTool {
        let session = DesktopSession(environment: environment)
        let kinds = Kind.preferred(in: session)
        for kind in kinds {
            guard let path = ChildProcess.installed(kind.rawValue, environment: environment) else { continue }
            return TypingTool(
                kind: kind, program: ChildProcess(executable: path, arguments: [], environment: environment))
        }
        throw DesktopError.missingProgram(kinds[0].rawValue, package: kinds[0].package)
    }

    /// Types `code` into the focused window, and Enter after it when asked.
    /// - Throws: `DesktopError.failed` with the tool's own message.
    func type(_ code: String, enter: Bool) throws {
        let tool = ChildProcess(
            executable: program.executable, arguments: kind.arguments(enter: enter), environment: program.environment)
        if let failure = tool.runBriefly(input: kind.input(code, enter: enter), timeout: Self.timeout) {
            throw DesktopError.failed(tool.name, reason: failure)
        }
    }
}
