import Foundation

/// Turns terminal echo back on if authcat is interrupted while asking for a
/// secret; otherwise the user's shell would be left typing blind.
///
/// Signal handlers cannot capture context, so the saved settings live in
/// process-wide storage, written only by the main thread before the handler
/// is installed.
enum EchoRestorer {
    nonisolated(unsafe) private static var fd: Int32 = -1
    nonisolated(unsafe) private static var settings = termios()

    static func arm(fd: Int32, settings: termios) {
        Self.fd = fd
        Self.settings = settings
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { received in
                EchoRestorer.restore()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    static func disarm() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber, SIG_DFL)
        }
        fd = -1
    }

    private static func restore() {
        guard fd >= 0 else { return }
        tcsetattr(fd, TCSAFLUSH, &settings)
    }
}
