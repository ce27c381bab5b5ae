import AuthCatEssentials
import Foundation

/// GnuPG's pinentry, the desktop's passphrase dialog, for a locked vault
/// when there is no terminal and the menu has no password mode. It speaks
/// the Assuan protocol on its standard streams: authcat writes the whole
/// conversation at once (pinentry reads one command at a time) and reads
/// the answers when it ends; the passphrase comes back on a `D` line.
struct Pinentry: Sendable {
    let program: ChildProcess

    /// `pinentry` on `PATH` (Debian's alternative picks the GNOME, Qt, GTK
    /// or curses one); nil when it is not installed.
    static func find(environment: [String: String]) -> Pinentry? {
        ChildProcess.installed("pinentry", environment: environment).map {
            Pinentry(program: ChildProcess(executable: $0, arguments: [], environment: environment))
        }
    }

    /// The passphrase typed in the dialog, in locked memory. Cancelling the
    /// dialog is a `PromptInterrupted`, as Ctrl-C at a terminal's prompt is.
    func ask(description: String, prompt: String, limit: Int) throws -> SecretBytes {
        let conversation = [
            "SETTITLE authcat", "SETDESC \(Self.escaped(description))", "SETPROMPT \(Self.escaped(prompt))",
            "GETPIN", "BYE",
        ].map { $0 + "\n" }.joined()
        var finished: ChildProcess.Finished
        do {
            finished = try program.run(input: Array(conversation.utf8), outputLimit: 4 * limit + 4096)
        } catch let failure as ChildProcess.StartFailure {
            throw DesktopError.failed(program.name, reason: "could not start it (\(failure.reason))")
        }
        defer { Wipe.bytes(&finished.output) }
        let lines = finished.output.split(separator: 0x0A, omittingEmptySubsequences: false)
        if let data = lines.first(where: { $0.starts(with: Array("D ".utf8)) }) {
            var passphrase = Self.unescaped(data.dropFirst(2))
            defer { Wipe.bytes(&passphrase) }
            guard passphrase.count <= limit else { throw InputError.tooLong(what: "the passphrase", limit: limit) }
            guard !passphrase.isEmpty else { throw InputError.emptyPassphrase(source: program.name) }
            return SecretBytes(passphrase)
        }
        // "ERR 83886179 Operation cancelled": the user closed the dialog.
        if lines.contains(where: { $0.starts(with: Array("ERR 83886179".utf8)) }) { throw PromptInterrupted() }
        if let error = lines.first(where: { $0.starts(with: Array("ERR ".utf8)) }) {
            throw DesktopError.failed(
                program.name, reason: TerminalText.sanitized(String(decoding: error, as: UTF8.self)))
        }
        if let failure = ChildProcess.failure(finished.status) {
            throw DesktopError.failed(program.name, reason: failure)
        }
        throw InputError.emptyPassphrase(source: program.name)
    }

    /// Assuan's escaping of a parameter: `%`, CR and LF as `%XX`.
    static func escaped(_ text: String) -> String {
        text.unicodeScalars.map { scalar in
            ["%", "\r", "\n"].contains(scalar) ? String(format: "%%%02X", scalar.value) : String(scalar)
        }.joined()
    }

    /// A `D` line's data with its `%XX` escapes decoded.
    static func unescaped(_ data: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count)
        var index = data.startIndex
        while index < data.endIndex {
            if data[index] == UInt8(ascii: "%"), index + 2 < data.endIndex,
                let high = hexDigit(data[index + 1]), let low = hexDigit(data[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(data[index])
                index += 1
            }
        }
        return bytes
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
