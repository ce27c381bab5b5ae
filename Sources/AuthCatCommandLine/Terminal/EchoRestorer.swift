import Foundation

/// Turns terminal echo back on if authcat is killed while asking for a
/// secret (SIGTERM, SIGHUP, SIGQUIT); otherwise the user's shell would be
/// left typing blind. SIGINT is not among them: it cancels the question
/// (`PromptInterrupt`), and echo comes back as the prompt unwinds.
///
/// Signal handlers cannot capture context, so the saved settings live in
/// process-wide storage, written only by the main thread before the handler
/// is installed. What the signals did before is put back afterwards: `sync
/// watch` catches SIGTERM for itself, and must still after a prompt.
enum EchoRestorer {
    private static let numbers = [SIGTERM, SIGHUP, SIGQUIT]

    nonisolated(unsafe) private static var fd: Int32 = -1
    nonisolated(unsafe) private static var settings = termios()
    nonisolated(unsafe) private static var previous: [Int32: sigaction] = [:]

    static func arm(fd: Int32, settings: termios) {
        Self.fd = fd
        Self.settings = settings
        for number in numbers {
            var restoring = sigaction()
            restoring.__sigaction_handler.sa_handler = { received in
                EchoRestorer.restore()
                signal(received, SIG_DFL)
                raise(received)
            }
            var old = sigaction()
            guard sigaction(number, &restoring, &old) == 0 else { continue }
            previous[number] = old
        }
    }

    static func disarm() {
        for (number, old) in previous {
            var action = old
            sigaction(number, &action, nil)
        }
        previous = [:]
        fd = -1
    }

    private static func restore() {
        guard fd >= 0 else { return }
        tcsetattr(fd, TCSAFLUSH, &settings)
    }
}
