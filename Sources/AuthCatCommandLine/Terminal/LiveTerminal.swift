import Foundation

/// The terminal while the live view owns it: the alternate screen, the
/// cursor hidden, keys read one at a time without echo; and everything put
/// back by `restore()`, which also runs when SIGINT (Ctrl-C), SIGTERM or
/// SIGHUP arrives. Those signals, SIGWINCH and key presses all wake `wait`.
///
/// Signal handlers cannot capture context, so what they need lives in
/// process-wide storage, written only before they are installed.
final class LiveTerminal {
    enum Event {
        case key(UInt8)
        case resized
        case tick
        /// SIGINT, SIGTERM or SIGHUP: restore, then die of it.
        case stop(Int32)
    }

    private let tty: Int32
    /// Standard output, where the view is drawn.
    private let screen: Int32
    private var saved = termios()
    private var restored = false
    /// The signals that end the view; SIGWINCH only redraws it.
    private static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    nonisolated(unsafe) private static var signalPipe: (reader: Int32, writer: Int32) = (-1, -1)

    /// Takes over the terminal on standard output; keys come from /dev/tty.
    /// - Throws: `LiveViewError.notATerminal` without one.
    init(in invocation: Invocation) throws {
        screen = invocation.standardOutput.fileDescriptor
        guard isatty(screen) == 1, let terminalPath = invocation.terminalPath else { throw LiveViewError.notATerminal }
        tty = open(terminalPath, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard tty >= 0, tcgetattr(tty, &saved) == 0 else {
            if tty >= 0 { close(tty) }
            throw LiveViewError.notATerminal
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(tty)
            throw LiveViewError.notATerminal
        }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        Self.signalPipe = (ends[0], ends[1])
        for signalNumber in Self.stopSignals + [SIGWINCH] {
            signal(signalNumber) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(LiveTerminal.signalPipe.writer, &byte, 1)
            }
        }
        var raw = saved
        // Keys arrive one at a time, unechoed; Ctrl-C still sends SIGINT,
        // but Ctrl-Z cannot stop the view with the terminal in this state.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
            cc[Int(VSUSP)] = 0
        }
        tcsetattr(tty, TCSAFLUSH, &raw)
        // The alternate screen, cleared, with the cursor hidden.
        emit("\u{1B}[?1049h\u{1B}[H\u{1B}[2J\u{1B}[?25l")
    }

    deinit {
        restore()
        close(tty)
    }

    /// The normal screen and cursor back, and the terminal's earlier modes.
    func restore() {
        guard !restored else { return }
        restored = true
        emit("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(tty, TCSAFLUSH, &saved)
        for signalNumber in Self.stopSignals + [SIGWINCH] { signal(signalNumber, SIG_DFL) }
        close(Self.signalPipe.reader)
        close(Self.signalPipe.writer)
        Self.signalPipe = (-1, -1)
    }

    /// Columns and rows, from TIOCGWINSZ; 80×24 if the terminal does not say.
    var size: (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(screen, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Draws `lines` from the top, each on its own row with the rest of the
    /// row erased, and the rows below erased. Nothing is written past a
    /// line's end, so a full-width line never makes the terminal wrap.
    func draw(_ lines: [String]) {
        var frame = ""
        for (row, line) in lines.enumerated() {
            frame += "\u{1B}[\(row + 1);1H\u{1B}[2K" + line
        }
        // Only when a row is left below: a terminal clamps a move past its
        // last row to the last row, and erasing from there would wipe the
        // screen's last line (the "N more" line of a short window).
        if lines.count < size.height { frame += "\u{1B}[\(lines.count + 1);1H\u{1B}[J" }
        emit(frame)
    }

    /// Waits for a key, a signal, or `deadline`, whichever comes first.
    func wait(until deadline: Date) -> Event {
        while true {
            var byte: UInt8 = 0
            if read(Self.signalPipe.reader, &byte, 1) == 1 {
                let received = Int32(byte)
                return received == SIGWINCH ? .resized : .stop(received)
            }
            if read(tty, &byte, 1) == 1 { return .key(byte) }
            let milliseconds = Int32(max(0, min(deadline.timeIntervalSinceNow * 1000, 60_000)).rounded(.up))
            if milliseconds == 0 { return .tick }
            var watched = [
                pollfd(fd: Self.signalPipe.reader, events: Int16(POLLIN), revents: 0),
                pollfd(fd: tty, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&watched, 2, milliseconds)
            if ready == 0 { return .tick }
            if ready < 0, errno != EINTR { return .tick }
            // The terminal is gone (a hang-up without SIGHUP): nothing left to show on.
            if watched[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .stop(SIGHUP) }
        }
    }

    private func emit(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Foundation.write(screen, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
            }
            if written < 0, errno == EINTR || errno == EAGAIN { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
