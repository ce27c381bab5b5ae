#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Files and folders that only their owner may read: 0600 and 0700.
public enum SecureFile {
    public static let fileMode: mode_t = 0o600
    public static let folderMode: mode_t = 0o700

    /// Creates `folder` (and parents) with mode 0700 if it does not exist.
    public static func createFolder(_ folder: URL) throws {
        var isFolder = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder else { throw SecureFileError.notAFolder(folder.path) }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: Int(folderMode)])
        } catch {
            if isNearlyFull(folder.deletingLastPathComponent().path) { throw SecureFileError.diskFull(folder.path) }
            throw SecureFileError.cannotWrite(folder.path, reason: "could not create the folder")
        }
    }

    /// Writes `data` to `url` atomically: a 0600 temporary file in the same
    /// folder, flushed to disk, then renamed over the target. Readers see the
    /// old file or the new one, never a part; a failure leaves no temporary file.
    public static func writeAtomically(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard fd >= 0 else { throw writeError(url.path, errno: errno) }
        do {
            defer { close(fd) }
            try writeAll(data, to: fd, path: url.path)
            guard fsync(fd) == 0 else { throw writeError(url.path, errno: errno) }
        } catch {
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let error = writeError(url.path, errno: errno)
            unlink(temporary.path)
            throw error
        }
        syncFolder(folder)
    }

    /// Removes the temporaries that `writeAtomically(_:to: url)` left when a
    /// process died part-way (one may hold a key). Only for a caller holding
    /// a lock that every writer of `url` holds, so none is being written now.
    public static func removeStaleTemporaries(of url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// Renames `source` over `target` in the same folder and makes the rename
    /// durable: the one step that makes a file prepared aside appear whole.
    public static func moveIntoPlace(_ source: URL, _ target: URL) throws {
        guard rename(source.path, target.path) == 0 else { throw writeError(target.path, errno: errno) }
        syncFolder(target.deletingLastPathComponent())
    }

    /// Flushes the file at `url` to disk.
    public static func flush(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw writeError(url.path, errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw writeError(url.path, errno: errno) }
    }

    /// The error for a failed write of `path`, saying plainly when the disk is full.
    public static func writeError(_ path: String, errno code: Int32) -> SecureFileError {
        if code == ENOSPC || code == EDQUOT { return .diskFull(path) }
        return .cannotWrite(path, reason: String(cString: strerror(code)))
    }

    /// Whether the file system holding `path` has (almost) no space left:
    /// SQLite reports some failures of a full disk only as I/O errors.
    public static func isNearlyFull(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < 256 * 1024
    }

    /// Creates an empty 0600 file if none exists, so that later writers (SQLite) inherit the mode.
    public static func createEmptyFileIfMissing(_ url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, fileMode)
        guard fd >= 0 else { throw writeError(url.path, errno: errno) }
        close(fd)
    }

    /// The size of the file at `path` in bytes, or nil if it does not exist.
    /// A plain `stat`: FileManager's attribute dictionary costs more than
    /// everything else `authcat code` does at start-up.
    public static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The whole content of the file at `path`, or nil when it cannot be
    /// opened or read, or holds more than `limit` bytes (as
    /// `FileManager.contents(atPath:)`, whose first use costs the quick front
    /// more than the read). Opened without blocking, so a FIFO planted at the
    /// name reads as empty instead of hanging.
    public static func contents(atPath path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        // The buffer may hold a key; it is cleared whatever happens.
        defer { Sodium.wipe(&buffer) }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            guard bytes.count + count <= limit else { return nil }
            bytes += buffer[..<count]
        }
    }

    /// The permission bits of `path`, or nil if it does not exist.
    public static func mode(of path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress!.advanced(by: offset), buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw writeError(path, errno: errno)
                }
                offset += written
            }
        }
    }

    /// Makes the rename durable; failure here loses nothing, so it is not reported.
    private static func syncFolder(_ folder: URL) {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// An exclusive `flock` on a 0600 lock file, held while `body` runs.
///
/// The kernel releases it when the process ends, however it ends, so a
/// killed process never leaves a stale lock behind. The file itself stays:
/// removing it could let two processes lock two different files.
public enum FileLock {
    /// Waits for the lock on `url` (creating the file if needed), runs `body`, releases it.
    public static func withExclusiveLock<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, SecureFile.fileMode)
        guard fd >= 0 else { throw SecureFile.writeError(url.path, errno: errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw SecureFile.writeError(url.path, errno: errno) }
        }
        return try body()
    }
}
