import Foundation

/// Lines for the user on standard error, in the one format authcat uses.
enum Output {
    /// `authcat: warning: …`; the command carries on.
    static func warning(_ message: String) {
        standardError("authcat: warning: \(message)")
    }

    /// A line on standard error, outside the command's real output.
    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
