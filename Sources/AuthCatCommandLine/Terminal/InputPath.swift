import AuthCatInterchange
import Foundation

/// Opens a path given for input (a file to import or restore, the passphrase
/// and recovery key files) by the rule output paths follow (`NamedPath`,
/// the one walk both use): a link or file another user could have planted
/// is refused, and what is opened is checked to be what was judged. A path
/// that names a descriptor of this process (`/dev/stdin`, `/dev/fd/N`,
/// `/proc/self/fd/N`) stands for the invocation's descriptor, so that a
/// command line run in process reads its own standard input, not the
/// process's. `-` is for the caller to read as standard input (`StandardInput`).
enum InputPath {
    /// A descriptor open for reading `path` (close-on-exec), which the caller
    /// closes; -1 with `errno` set when it cannot be opened.
    /// - Throws: `PlantedPathError` for a path another user could have
    ///   planted, `SwappedPathError` for a file replaced while it was opened.
    static func open(_ path: String) throws -> Int32 {
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
            return fcntl(Invocation.current.standardDescriptors.standing(for: number), F_DUPFD_CLOEXEC, 0)
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
