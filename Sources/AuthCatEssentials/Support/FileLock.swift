#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

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
