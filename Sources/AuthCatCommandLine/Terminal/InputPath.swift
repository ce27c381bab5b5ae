import AuthCatInterchange
import Foundation

/// Opens a path given for input (a file to import or restore, the passphrase
/// and recovery key files) by the rule output paths follow
/// (`OutputDestination`): a path that names a descriptor of this process
/// (`/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N`) stands for the
/// invocation's descriptor, so that a command line run in process reads its
/// own standard input, not the process's. `-` is for the caller to read as
/// standard input (`StandardInput`).
enum InputPath {
    /// A descriptor open for reading `path` (close-on-exec), which the caller
    /// closes; -1 with `errno` set when it cannot be opened.
    static func open(_ path: String) -> Int32 {
        guard let number = descriptorNumber(path) else { return Foundation.open(path, O_RDONLY | O_CLOEXEC) }
        // A copy of the descriptor, not the file reopened: that is what the shell handed over, at its offset.
        return fcntl(Invocation.current.standardDescriptors.standing(for: number), F_DUPFD_CLOEXEC, 0)
    }

    /// Symbolic links followed before giving up, as the kernel's own limit.
    private static let maximumLinks = 40

    /// The descriptor number `path` leads to through `/proc/PID/fd/N`, or nil
    /// for a path that leads anywhere else.
    private static func descriptorNumber(_ path: String) -> Int32? {
        var current = path
        for _ in 0...maximumLinks {
            let url = URL(fileURLWithPath: current)
            let name = url.lastPathComponent
            guard let folder = realPath(url.deletingLastPathComponent().path) else { return nil }
            if let number = DescriptorPath.number(folder: folder, name: name) { return number }
            // Not a link: a path like any other, opened as it is.
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return nil }
            current = link.hasPrefix("/") ? link : "\(folder)/\(link)"
        }
        return nil
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
