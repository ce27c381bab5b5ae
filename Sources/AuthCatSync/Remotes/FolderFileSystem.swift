import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX calls the folder remote needs, each checked and thrown as `RemoteError`.
///
/// Plain system calls rather than `FileManager`, because atomic replacement,
/// create-only links, `fsync` and exact modes need them, and because `errno`
/// says precisely what went wrong.
///
/// The remote's tree belongs to whoever can write the folder, so nothing in
/// it is trusted: below the root, every step is taken from an open folder
/// (`openat`, `renameat`, `linkat`, `unlinkat`) with `O_NOFOLLOW`, so a link
/// planted in place of a folder or a file leads nowhere. Only the root itself
/// is opened by its path, links followed, since users point it at a mount.
enum FolderFileSystem {
    /// One entry of a directory listing.
    struct Entry {
        var name: String
        var isDirectory: Bool
        var isRegularFile: Bool
        var size: Int
        /// Inode, change time and modification time: a file written again
        /// (always through a new temporary file, renamed) gets a new one,
        /// and no tool can set the change time back.
        var version: String
        /// When the file was last modified.
        var modified: Date
    }

    /// Why a step into the tree was refused: what was there is not a plain folder.
    static let linkRefusal = "it is a link or not a folder, and authcat follows no link inside the remote"

    /// Whether `path` is a directory, following symlinks (a root folder may be a link).
    static func isDirectory(_ path: String) throws -> Bool {
        var info = stat()
        if stat(path, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        if errno == ENOENT || errno == ENOTDIR { return false }
        throw failure("inspect", path)
    }

    /// Creates `path` as a directory with mode 0700 unless it exists.
    ///
    /// Used for the root and the folders above it only, which the user named.
    ///
    /// - Returns: `true` if it was created.
    @discardableResult
    static func makeDirectory(_ path: String) throws -> Bool {
        if mkdir(path, 0o700) == 0 {
            // The mode given to mkdir() is reduced by the umask; set it exactly.
            if chmod(path, 0o700) != 0 { throw failure("set permissions of", path) }
            return true
        }
        if errno == EEXIST, try isDirectory(path) { return false }
        throw failure("create folder", path)
    }

    /// Flushes a directory so that renames and new names in it survive a crash.
    static func syncDirectory(_ path: String) throws {
        let fd = retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if fd < 0 { throw failure("open", path) }
        defer { close(fd) }
        try syncDescriptor(fd, path: path)
    }

    static func syncDescriptor(_ fd: Int32, path: String) throws {
        // Some file systems (network, FUSE) cannot fsync a directory; their rename is as durable as it gets.
        if retrying({ fsync(fd) }) != 0, errno != EINVAL, errno != ENOTSUP, errno != EOPNOTSUPP {
            throw failure("flush", path)
        }
    }

    static func randomSuffix() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(generator.next() as UInt64, radix: 16)
    }

    /// Retries a system call interrupted by a signal.
    static func retrying<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    static func failure(_ operation: String, _ path: String) -> RemoteError {
        .io(path: path, operation: operation, reason: String(cString: strerror(errno)))
    }
}
