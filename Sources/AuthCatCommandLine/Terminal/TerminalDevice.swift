import AuthCatEssentials
import Foundation

/// The terminal (`/dev/tty`), opened for one question. While it is open,
/// Ctrl-C cancels the question (`PromptInterrupt`) whatever the command set
/// SIGINT to do, so that no command goes on with a half-typed answer or
/// reads the next line meant for the shell.
final class TerminalDevice {
    private let fd: Int32
    private let interrupt: (wake: Int32, saved: PromptInterrupt.Saved)?

    private init(fd: Int32) {
        self.fd = fd
        interrupt = PromptInterrupt.arm()
    }

    /// Opens `path`, the invocation's terminal.
    /// - Throws: `InputError.noTerminal` when the process has no controlling
    ///   terminal, or the invocation none to ask on (`path` nil).
    static func open(_ path: String?, what: String, hint: String) throws -> TerminalDevice {
        let fd = path.map { Foundation.open($0, O_RDWR | O_CLOEXEC | O_NOCTTY) } ?? -1
        guard fd >= 0 else { throw InputError.noTerminal(what: what, hint: hint) }
        return TerminalDevice(fd: fd)
    }

    func close() {
        if let interrupt { PromptInterrupt.disarm(interrupt.saved) }
        _ = Foundation.close(fd)
    }

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                // `offset < count`, so the buffer is not empty and has a base address.
                Foundation.write(fd, buffer.baseAddress!.advanced(by: offset), buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Reads up to a line break, one byte at a time so nothing after it is
    /// consumed, straight into locked memory. A line longer than `limit` is an error.
    /// - Throws: `PromptInterrupted` on Ctrl-C, with what was typed dropped.
    func readLine(limit: Int, what: String) throws -> SecretBytes {
        try SecretBytes.reading(capacity: limit) { line in
            var count = 0
            var byte: UInt8 = 0
            defer { byte = 0 }
            while true {
                try waitForInput()
                let result = Foundation.read(fd, &byte, 1)
                if result < 0, errno == EINTR || errno == EAGAIN { continue }
                guard result > 0, byte != UInt8(ascii: "\n") else { break }
                guard count < limit else { throw InputError.tooLong(what: what, limit: limit) }
                line[count] = byte
                count += 1
            }
            if count > 0, line[count - 1] == UInt8(ascii: "\r") { count -= 1 }
            return count
        }
    }

    /// `readLine` for a question asked with echo on: after Ctrl-C the
    /// terminal's `^C` is ended with a line break, as `withEchoOff` ends a hidden one.
    func readLineEndingInterrupted(limit: Int, what: String) throws -> SecretBytes {
        do {
            return try readLine(limit: limit, what: what)
        } catch let interrupted as PromptInterrupted {
            write("\n")
            throw interrupted
        }
    }

    /// Waits until the terminal has a byte (or an end or error) to read;
    /// throws `PromptInterrupted` once SIGINT has arrived. The wait is on
    /// both at once, as the signal may be handled on another thread.
    private func waitForInput() throws {
        guard let interrupt else { return }
        var entries = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: interrupt.wake, events: Int16(POLLIN), revents: 0),
        ]
        while poll(&entries, 2, -1) < 0, errno == EINTR {}
        if entries[1].revents != 0 { throw PromptInterrupted() }
    }

    /// Runs `body` with echo off, restoring the terminal afterwards, and also
    /// if the user presses Ctrl-C meanwhile.
    func withEchoOff<Result>(_ body: () throws -> Result) rethrows -> Result {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return try body() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        EchoRestorer.arm(fd: fd, settings: saved)
        tcsetattr(fd, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(fd, TCSAFLUSH, &saved)
            EchoRestorer.disarm()
            write("\n")
        }
        return try body()
    }
}
