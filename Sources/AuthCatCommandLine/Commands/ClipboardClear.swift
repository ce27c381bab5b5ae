import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

extension AuthCat {
    /// `authcat-cli clipboard-clear`: internal, not for users. The detached
    /// process `code --copy` starts to take the code off the clipboard when it
    /// expires (see `ClipboardClearer`); it reads its request on standard input.
    struct ClipboardClear: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "clipboard-clear",
            abstract: "Internal: clears a copied code from the clipboard when it expires.",
            shouldDisplay: false)

        func run(in invocation: Invocation) throws {
            // The request is a few hundred bytes plus the earlier clipboard content.
            var input = try invocation.readStandardInput(limit: DetachedLauncher.maximumInput, what: "the request")
            defer { Wipe.bytes(&input) }
            guard let request = try? JSONDecoder().decode(ClipboardClearer.Request.self, from: Data(input)) else {
                throw ExitCode.failure
            }
            ClipboardClearer.run(request, environment: invocation.environment)
        }
    }
}

/// Takes a copied code off the clipboard when it expires, and puts back what
/// the clipboard held before, as `pass` does, but only if the clipboard
/// still holds the code: something the user copied meanwhile is left alone.
///
/// The waiting is done by a detached `authcat-cli clipboard-clear` (see
/// `DetachedLauncher`), so `code --copy` returns at once. That process never
/// sees the vault or a secret: it is handed the code, the clipboard tool and
/// the earlier content on its standard input, which `ps` does not show, and
/// keeps them in memory only.
enum ClipboardClearer {
    /// What the clearing process needs, as it reads it from standard input.
    struct Request: Codable {
        var executable: String
        var arguments: [String]
        var reader: String?
        var readArguments: [String]
        var code: String
        /// What the clipboard held before the code; empty when that was nothing or unreadable.
        var previous: Data
        /// When to clear, in seconds since 1970.
        var clearAt: Double

        /// The clipboard the code was copied to, its tools run with `environment`.
        func clipboard(environment: [String: String]) -> Clipboard {
            Clipboard(
                executable: URL(fileURLWithPath: executable), arguments: arguments,
                reader: reader.map { URL(fileURLWithPath: $0) }, readArguments: readArguments,
                environment: environment)
        }
    }

    /// How long a code without an end (HOTP) stays on the clipboard.
    static let defaultHold: TimeInterval = 30

    /// Internal, for authcat's own tests only: seconds to hold a code that
    /// has no end (HOTP) instead of `defaultHold`, so a test need not wait 30 s.
    static let holdVariable = "AUTHCAT_INTERNAL_CLIPBOARD_HOLD_SECONDS"

    /// How long `code` stays on the clipboard: until the end of its time step,
    /// counted from `codeTime` (the time it was computed for, now unless
    /// `--at` was given), or `defaultHold` for a code that has no end.
    static func hold(for code: OTPCode, computedAt codeTime: Date, environment: [String: String]) -> TimeInterval {
        if let validUntil = code.validUntil { return max(0, validUntil.timeIntervalSince(codeTime)) }
        if let text = environment[holdVariable], let seconds = TimeInterval(text), seconds >= 0 { return seconds }
        return defaultHold
    }

    /// Starts the detached process that clears `code` from `clipboard` at `clearAt`.
    static func schedule(
        _ code: String, on clipboard: Clipboard, previous: [UInt8], clearAt: Date, launcher: DetachedLauncher
    ) throws {
        // More than a pipe holds is not put back; the code is still taken off.
        let kept = previous.count <= Clipboard.readLimit ? previous : []
        let request = Request(
            executable: clipboard.executable.path, arguments: clipboard.arguments,
            reader: clipboard.reader?.path, readArguments: clipboard.readArguments, code: code,
            previous: Data(kept), clearAt: clearAt.timeIntervalSince1970)
        var input = [UInt8](try JSONEncoder().encode(request))
        defer { Wipe.bytes(&input) }
        do {
            try launcher.launch(
                [AuthCat.ClipboardClear.configuration.commandName ?? "clipboard-clear"], input: input,
                environment: clipboard.environment)
        } catch let failure as DetachedLauncher.Failure {
            throw ClipboardError.cannotSchedule(failure.reason)
        }
    }

    /// The clearing process: waits for the deadline, then puts the earlier
    /// content back if the clipboard still holds the code.
    static func run(_ request: Request, environment: [String: String]) {
        // Already done by the launcher where posix_spawn can; harmless otherwise.
        setsid()
        var previous = [UInt8](request.previous)
        defer { Wipe.bytes(&previous) }
        let wait = request.clearAt - Date().timeIntervalSince1970
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        let clipboard = request.clipboard(environment: environment)
        guard var current = try? clipboard.contents() else { return }
        defer { Wipe.bytes(&current) }
        let code = Array(request.code.utf8)
        // wl-paste and some xsel versions add a line break to text.
        guard current == code || current == code + [UInt8(ascii: "\n")] else { return }
        try? clipboard.copy(bytes: previous)
    }
}
