#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The POSIX calls the folder remote needs, each checked and thrown as `RemoteError.io`.
///
/// Plain system calls rather than `FileManager`, because atomic replacement,
/// create-only links, `fsync` and exact modes need them, and because `errno`
/// says precisely what went wrong.
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

    /// The type of what is at `path` (without following a final symlink), or `nil` if nothing is.
    static func status(_ path: String) throws -> stat? {
        var info = stat()
        if lstat(path, &info) == 0 { return info }
        if errno == ENOENT || errno == ENOTDIR { return nil }
        throw failure("inspect", path)
    }

    /// Whether `path` is a directory, following symlinks (a root folder may be a link).
    static func isDirectory(_ path: String) throws -> Bool {
        var info = stat()
        if stat(path, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        if errno == ENOENT || errno == ENOTDIR { return false }
        throw failure("inspect", path)
    }

    /// The whole contents of a file, or `nil` if it does not exist.
    static func readFile(_ path: String) throws -> Data? {
        let fd = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        if fd < 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw failure("open", path)
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                retrying { read(fd, bytes.baseAddress, bytes.count) }
            }
            if count < 0 { throw failure("read", path) }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Writes `data` to a new hidden file in `directory`, flushed to disk, mode 0600.
    ///
    /// - Returns: the temporary file's path; the caller renames or links it into place.
    static func writeTemporary(_ data: Data, in directory: String) throws -> String {
        let path = directory + "/" + FolderRemote.temporaryPrefix + randomSuffix()
        let fd = retrying { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        if fd < 0 { throw failure("create", path) }
        do {
            defer { close(fd) }
            // The mode given to open() is reduced by the umask; set it exactly.
            if fchmod(fd, 0o600) != 0 { throw failure("set permissions of", path) }
            try writeAll(data, to: fd, path: path)
            if retrying({ fsync(fd) }) != 0 { throw failure("flush", path) }
        } catch {
            unlink(path)
            throw error
        }
        return path
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let written = retrying { write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset) }
                if written < 0 { throw failure("write", path) }
                offset += written
            }
        }
    }

    /// Atomically replaces `target` with `source`.
    static func renameFile(_ source: String, to target: String) throws {
        if rename(source, target) != 0 { throw failure("rename into", target) }
    }

    /// Gives `source`'s file the additional name `target`, unless `target` exists.
    ///
    /// - Returns: `false` if `target` already existed, `nil` if the file system
    ///   has no hard links (FAT, some network and FUSE file systems).
    static func linkIfAbsent(_ source: String, to target: String) throws -> Bool? {
        if link(source, target) == 0 { return true }
        switch errno {
        case EEXIST: return false
        case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS: return nil
        default: throw failure("link into", target)
        }
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) throws {
        if unlink(path) != 0, errno != ENOENT { throw failure("delete", path) }
    }

    /// Flushes a directory so that renames and new names in it survive a crash.
    static func syncDirectory(_ path: String) throws {
        let fd = retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if fd < 0 { throw failure("open", path) }
        defer { close(fd) }
        // Some file systems (network, FUSE) cannot fsync a directory; their rename is as durable as it gets.
        if retrying({ fsync(fd) }) != 0, errno != EINVAL, errno != ENOTSUP, errno != EOPNOTSUPP {
            throw failure("flush", path)
        }
    }

    /// Creates `path` as a directory with mode 0700 unless it exists.
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

    /// The entries of a directory, without `.` and `..`; empty if it does not exist.
    static func entries(of directory: String) throws -> [Entry] {
        guard let stream = opendir(directory) else {
            if errno == ENOENT || errno == ENOTDIR { return [] }
            throw failure("list", directory)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return try names.compactMap { name in
            // d_type is DT_UNKNOWN on some file systems, so ask lstat.
            guard let info = try status(directory + "/" + name) else { return nil }
            let type = info.st_mode & S_IFMT
            let version = "\(info.st_ino)-\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            let modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
            return Entry(name: name, isDirectory: type == S_IFDIR, isRegularFile: type == S_IFREG, size: Int(info.st_size),
                         version: version, modified: modified)
        }
    }

    private static func randomSuffix() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(generator.next() as UInt64, radix: 16)
    }

    /// Retries a system call interrupted by a signal.
    private static func retrying<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    static func failure(_ operation: String, _ path: String) -> RemoteError {
        .io(path: path, operation: operation, reason: String(cString: strerror(errno)))
    }
}
