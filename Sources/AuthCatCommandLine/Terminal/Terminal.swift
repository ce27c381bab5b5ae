import AuthCatEssentials
import Foundation

/// The user's terminal: whether the standard streams are attached to one,
/// and questions asked on `/dev/tty` (the invocation's terminal), which works
/// even when output is piped. Made from the invocation (`invocation.terminal`).
struct Terminal {
    let standardInputIsTerminal: Bool
    let standardOutputIsTerminal: Bool
    let standardErrorIsTerminal: Bool
    /// Where questions are asked; nil when there is no terminal to ask on.
    let path: String?
    private let standardOutput: Int32

    init(_ invocation: Invocation) {
        standardInputIsTerminal = isatty(invocation.standardInput) == 1
        standardOutputIsTerminal = invocation.standardOutput.isTerminal
        standardErrorIsTerminal = invocation.standardError.isTerminal
        path = invocation.terminalPath
        standardOutput = invocation.standardOutput.fileDescriptor
    }

    /// Whether there is a terminal to ask on: it opens. A program started
    /// from a key binding has no controlling terminal, and /dev/tty does not.
    var canAsk: Bool {
        guard let path else { return false }
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// The columns a table on standard output must fit (`TextTable.lines`);
    /// nil when it goes to a pipe or a file, which gets every name whole.
    var standardOutputWidth: Int? {
        standardOutputIsTerminal ? TerminalWidth.of(standardOutput) : nil
    }

    /// One line typed with echo off, without its line break, in locked memory.
    /// - Parameters:
    ///   - what: what is asked for, for error messages ("the passphrase").
    ///   - hint: what to do instead when there is no terminal.
    func readHidden(prompt: String, limit: Int, what: String, hint: String) throws -> SecretBytes {
        let device = try TerminalDevice.open(path, what: what, hint: hint)
        defer { device.close() }
        return try device.withEchoOff {
            // Echo goes off, and what was typed ahead is dropped, before the
            // prompt shows: an answer typed or pasted once it shows is never echoed.
            device.write(prompt)
            return try device.readLine(limit: limit, what: what)
        }
    }

    /// Asks a question whose answer is one visible line, trimmed.
    func ask(_ question: String, hint: String) throws -> String {
        let device = try TerminalDevice.open(path, what: "an answer", hint: hint)
        defer { device.close() }
        device.write(question)
        return try device.readLineEndingInterrupted(limit: 4096, what: "the answer").withUnsafeBytes {
            String(decoding: $0, as: UTF8.self)
        }.trimmingCharacters(in: .whitespaces)
    }

    /// Asks a yes-or-no question, once: "y" or "yes" is yes; "n", "no" or
    /// nothing (the default) is no; anything else is `InputError.notYesOrNo`,
    /// a typo that `TypedAnswer.confirm` asks again.
    func confirm(_ question: String, hint: String) throws -> Bool {
        let device = try TerminalDevice.open(path, what: "confirmation", hint: hint)
        defer { device.close() }
        device.write(question)
        let answer = try device.readLineEndingInterrupted(limit: 64, what: "the answer").withUnsafeBytes {
            String(decoding: $0, as: UTF8.self)
        }.trimmingCharacters(in: .whitespaces).lowercased()
        if ["y", "yes"].contains(answer) { return true }
        guard ["", "n", "no"].contains(answer) else { throw InputError.notYesOrNo }
        return false
    }
}
