import AuthCatCore
import AuthCatEssentials
import Foundation

/// What a command writes: its own output on standard output (`print`), and
/// lines for the user on standard error, in the one format authcat uses:
/// `authcat: …` lines, or, when the command line asks for `--json`, one JSON
/// object per line (docs/JSON.md, "Diagnostics"). A value made from the
/// invocation (`invocation.output`), handed to whatever prints.
struct Output {
    let standardOutput: StandardStream
    let standardError: StandardStream
    /// Whether this command line asked for JSON (`--json` before any `--`).
    let diagnosticsAsJSON: Bool

    init(_ invocation: Invocation) {
        standardOutput = invocation.standardOutput
        standardError = invocation.standardError
        diagnosticsAsJSON = Self.requestsJSON(invocation.arguments)
    }

    /// The command's own output: a line (or `terminator`) on standard output.
    func print(_ text: String, terminator: String = "\n") {
        standardOutput.write(text + terminator)
    }

    /// `authcat: warning: …`; the command carries on.
    func warning(_ message: String) {
        guard diagnosticsAsJSON else { return write("authcat: warning: \(message)") }
        writeJSON(Diagnostic(level: .warning, message: message))
    }

    /// `authcat: …`: something the user should know that is neither the
    /// command's output nor a problem (a page was cut, a wait).
    func note(_ message: String) {
        guard diagnosticsAsJSON else { return write("authcat: \(message)") }
        writeJSON(Diagnostic(level: .note, message: message))
    }

    /// Output of the command's own that goes to standard error because its
    /// data fills standard output (a summary of a backup written to `-`),
    /// written as it is: under `--json` it is already a JSON document.
    func aside(_ text: String) {
        write(text)
    }

    /// The error that ends the command, as its last line on standard error.
    func error(_ message: String, status: Int32) {
        guard diagnosticsAsJSON else { return write("authcat: " + message) }
        writeJSON(Diagnostic(level: .error, message: message, exitStatus: status))
    }

    /// Sends what `print` buffered now, before something slow or another
    /// process's output.
    func flushStandardOutput() {
        standardOutput.flush()
    }

    static func requestsJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--json")
    }

    private func write(_ line: String) {
        standardError.write(line + "\n")
        standardError.flush()
    }

    private func writeJSON(_ diagnostic: Diagnostic) {
        // Encoding three plain values cannot fail; the text line is the fallback all the same.
        write((try? JSONOutput.line(diagnostic)) ?? "authcat: \(diagnostic.message)")
    }
}

/// One line on standard error under `--json`.
struct Diagnostic: Encodable {
    enum Level: String, Encodable { case error, warning, note }

    var level: Level
    var message: String
    /// Errors only: the status the command exits with.
    var exitStatus: Int32?

    enum CodingKeys: String, CodingKey {
        case level, message
        case exitStatus = "exit_status"
    }
}
