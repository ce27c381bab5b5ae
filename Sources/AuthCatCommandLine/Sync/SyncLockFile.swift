import AuthCatCore
import Foundation

/// An exclusive `flock` on a file in the vault folder. The kernel releases
/// it when the file is closed or the process dies, so a crashed sync never
/// leaves the vault locked.
///
/// Two files are used: `sync-run.lock`, held by whichever process is syncing,
/// and `sync-queue.lock`, held by at most one background push waiting for its
/// turn. A background push that finds another one waiting exits at once: the
/// waiting one starts after its change was committed, so it exports it too.
/// A third, `sync-watch.lock`, is held shared by every `sync watch`: while one
/// runs, it exports changes within a second, so commands start no push.
final class SyncLockFile {
    static let runFileName = "sync-run.lock"
    static let queueFileName = "sync-queue.lock"
    static let watchFileName = "sync-watch.lock"

    private var fd: Int32
    private let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit {
        close(fd)
    }

    static func run(in location: VaultLocation) throws -> SyncLockFile {
        try open(location.folder.appendingPathComponent(runFileName))
    }

    static func queue(in location: VaultLocation) throws -> SyncLockFile {
        try open(location.folder.appendingPathComponent(queueFileName))
    }

    static func watch(in location: VaultLocation) throws -> SyncLockFile {
        try open(location.folder.appendingPathComponent(watchFileName))
    }

    /// Whether a `sync watch` holds the watch lock of this vault.
    static func isWatched(_ location: VaultLocation) -> Bool {
        guard let file = try? watch(in: location) else { return false }
        guard file.tryLock() else { return true }
        file.unlock()
        return false
    }

    private static func open(_ url: URL) throws -> SyncLockFile {
        let fd = Foundation.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, SecureFile.fileMode)
        guard fd >= 0 else { throw SecureFileError.cannotWrite(url.path, reason: String(cString: strerror(errno))) }
        return SyncLockFile(fd: fd, path: url.path)
    }

    /// Removes the file while this process holds its lock (after a failed
    /// `sync enable`), so that no empty file is left behind. A process that
    /// opened it before and waits for its lock sees, once it has it, that the
    /// file is gone and locks the file at that name instead (`holdsTheNamedFile`).
    func removeFile() {
        unlink(path)
    }

    /// Takes the lock if it is free; false if another process holds it.
    func tryLock() -> Bool {
        while flock(fd, LOCK_EX | LOCK_NB) == 0 {
            if holdsTheNamedFile() { return true }
            guard reopen() else { return true }
        }
        return false
    }

    /// Whether the locked descriptor is still the file at `path`, not one
    /// that `removeFile` unlinked while this process waited.
    private func holdsTheNamedFile() -> Bool {
        var held = stat(), named = stat()
        guard fstat(fd, &held) == 0, stat(path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }

    /// Opens the file at `path` again (creating it), dropping the stale one; false if it cannot.
    private func reopen() -> Bool {
        let fresh = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, SecureFile.fileMode)
        guard fresh >= 0 else { return false }
        close(fd)
        fd = fresh
        return true
    }

    /// Waits for the lock, shared with other holders of the shared lock.
    func lockShared() {
        while flock(fd, LOCK_SH) != 0, errno == EINTR {}
    }

    /// Waits for the lock, saying on standard error why when another process holds it.
    func lockSayingWhy(_ reason: String) {
        guard !tryLock() else { return }
        Output.note(reason)
        lock()
    }

    /// Waits for the lock (of the file now at its name; see `removeFile`).
    func lock() {
        while true {
            while flock(fd, LOCK_EX) != 0, errno == EINTR {}
            guard !holdsTheNamedFile(), reopen() else { return }
        }
    }

    /// Releases the lock. Callers call it (or `defer` it) explicitly: that also
    /// keeps this object, and so the lock, alive until then.
    func unlock() {
        flock(fd, LOCK_UN)
    }
}
