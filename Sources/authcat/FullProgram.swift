import Glibc

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
