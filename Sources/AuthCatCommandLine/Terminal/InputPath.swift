import AuthCatInterchange
import Foundation

/// Opens a path given for input (a file to import or restore, the passphrase
/// and recovery key files) by the rule output paths follow (`NamedPath`,
/// the one walk both use): a link or file another user could have planted
/// is refused, and what is opened is checked to be what was judged. A path
/// that names a descriptor of this process (`/dev/stdin`, `/dev/fd/N`,
/// `/proc/self/fd/N`) stands for the invocation's descriptor, so that a
/// command line run in process reads its own standard input, not the
/// process's. `read` takes `-` for standard input.
enum InputPath {
    /// The most an input file may hold: far above any real export (10,000
    /// accounts are about 1 MiB), low enough to refuse a wrong file at once.
    static let inputLimit = 64 << 20

    /// The bytes of `path`, or of standard input for `-`, up to `inputLimit`.
    /// Devices and pipes (`<(…)`) are read like files; `/dev/stdin` and its
    /// kin are the invocation's descriptors (`open`).
    static func read(_ path: String, what: String, in invocation: Invocation) throws -> Data {
        if path == "-" {
            var bytes = try invocation.readStandardInput(limit: inputLimit, what: what)
            defer { Wipe.bytes(&bytes) }
            return Data(bytes)
        }
        let fd = try InputPath.open(path, standard: invocation.standardDescriptors)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno)).lowercased()
            throw InputError.readFailed(what: "\(what) \(path)", reason: reason)
        }
        defer { close(fd) }
        var status = stat()
        let isRegular = fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        guard !isRegular || Int(status.st_size) <= inputLimit else {
            throw InputError.tooLong(what: what, limit: inputLimit)
        }
        // A regular file's size bounds the buffer (with room for a file still being written).
        let limit = isRegular ? min(inputLimit, Int(status.st_size) + 65536) : inputLimit
        var bytes = try FileDescriptorReader.readAll(fd, limit: limit, what: "\(what) \(path)")
        defer { Wipe.bytes(&bytes) }
        return Data(bytes)
    }

    /// A descriptor open for reading `path` (close-on-exec), which the caller
    /// closes; -1 with `errno` set when it cannot be opened.
    /// - Parameter standard: the invocation's standard descriptors, which
    ///   `/dev/stdin` and its kin stand for.
    /// - Throws: `PlantedPathError` for a path another user could have
    ///   planted, `SwappedPathError` for a file replaced while it was opened.
    static func open(_ path: String, standard: StandardDescriptors) throws -> Int32 {
        let destination: NamedPath.Destination
        do {
            destination = try NamedPath.walk(path)
        } catch let failure as NamedPath.Failure {
            errno = failure.code
            return -1
        }
        switch destination {
        case .descriptor(let number):
            // A copy of the descriptor, not the file reopened: that is what the shell handed over, at its offset.
            return fcntl(standard.standing(for: number), F_DUPFD_CLOEXEC, 0)
        case .missing:
            errno = ENOENT
            return -1
        case .existing(let node):
            return try open(node, path: path)
        }
    }

    /// Opens the file the walk judged, without following a link put there
    /// since. A FIFO the user named waits for its writer, as a FIFO does;
    /// anything else is opened without waiting, so that a FIFO swapped in for
    /// a file cannot hang authcat, and then reads as usual.
    private static func open(_ node: NamedPath.Node, path: String) throws -> Int32 {
        let waits = node.type == S_IFIFO
        let fd = Foundation.open(node.path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | (waits ? 0 : O_NONBLOCK))
        guard fd >= 0 else {
            if errno == ELOOP { throw SwappedPathError(path: path) }
            return -1
        }
        guard node.isSame(as: fd) else {
            close(fd)
            throw SwappedPathError(path: path)
        }
        if !waits {
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        }
        return fd
    }
}
