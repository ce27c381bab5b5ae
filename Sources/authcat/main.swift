import AuthCatEssentials
import AuthCatFront
import Glibc

// `authcat`, the quick front: it answers a plain `authcat code QUERY`,
// `authcat list` and `list --json` itself, and hands every other command line, unchanged, to
// the full program `authcat-cli` beside it. It links neither GRDB nor Foundation
// (only FoundationEssentials) and is a static executable: loading the full
// program (175 MB, about 150,000 relocations) costs ten times the work of
// `code` itself. See docs/PERFORMANCE.md.

// No core file, and no dump by any other means, of a process that may hold
// the vault key: set before anything is read (two system calls).
ProcessHardening.apply()
// Everything authcat creates is for its user alone, whatever the shell's umask.
umask(0o077)
// This program has one thread and reads a few pages: SQLite need not lock
// anything, nor set memory aside.
VaultReader.ReadOnlyConnection.configureForOneShortRead()
let arguments = Array(CommandLine.arguments.dropFirst())
if let shortcut = Shortcut(arguments), let reply = QuickAnswer.reply(for: shortcut) {
    switch reply {
    case .output(let text):
        if !text.isEmpty { writeWhole(text + "\n", to: STDOUT_FILENO) }
        exit(EXIT_SUCCESS)
    case .failure(let error):
        writeWhole(ErrorLine.text(error.description) + "\n", to: STDERR_FILENO)
        exit(EXIT_FAILURE)
    }
}
FullProgram.run(arguments)

/// Writes all of `text` with `write(2)`, as one call when the pipe or file
/// takes it whole; `print` would first ask glibc's stdio whether the output
/// is a terminal and how to buffer it (two more system calls of a `code`).
/// A write that fails (a closed pipe) ends the output, as with `print`.
func writeWhole(_ text: String, to descriptor: Int32) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// `authcat-cli`, the program with every command, installed beside this one.
enum FullProgram {
    static let name = "authcat-cli"

    /// Replaces this process with `authcat-cli`, giving it `arguments`
    /// unchanged (and so the same standard streams, environment and exit status).
    static func run(_ arguments: [String]) -> Never {
        let path = location()
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let message =
            "authcat: cannot run \(path): \(String(cString: strerror(errno))); install \(name) beside authcat\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        exit(EXIT_FAILURE)
    }

    /// This executable's folder (symbolic links resolved) plus `authcat-cli`.
    private static func location() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable =
            length > 0
            ? String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        guard let slash = executable.lastIndex(of: "/") else { return name }
        return String(executable[...slash]) + name
    }
}
