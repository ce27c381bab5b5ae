import AuthCatCore
import AuthCatEssentials
import Dispatch
import Foundation
import Synchronization

/// An `flock(2)` on an empty file in the vault folder. The kernel releases
/// it when the file is closed or the process dies, so a killed sync never
/// leaves the vault locked.
///
/// Two objects of this type on the same file exclude each other also within
/// one process: each has its own open file description. Waiting happens on a
/// thread of its own, never on one of Swift's cooperative threads, which
/// another process's sync could otherwise hold up for as long as it runs.
///
/// Used by one task at a time (waiting moves it to another thread and back).
/// The compiler checks that sharing it is safe, but not this rule, which it
/// needs: the descriptor is read under the mutex, then used outside it, so a
/// `reopen` by another task in between would close it under the reader.
final class SyncLockFile: Sendable {
    let path: String
    /// The open file; a new one once `reopen` replaced a file that was removed.
    private let descriptor: Mutex<Int32>

    /// Opens (creating it, mode 0600) the file at `url`; takes no lock yet.
    init(_ url: URL) throws {
        path = url.path
        let fd = Self.open(path)
        guard fd >= 0 else { throw SecureFileError.cannotWrite(path, reason: String(cString: strerror(errno))) }
        descriptor = Mutex(fd)
    }

    deinit {
        close(fd)
    }

    /// The descriptor now; it is only ever replaced by the one task that uses this object.
    private var fd: Int32 { descriptor.withLock { $0 } }

    private static func open(_ path: String) -> Int32 {
        Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, SecureFile.fileMode)
    }

    /// Takes the exclusive lock if it is free; false if another holder has it.
    func tryLock() -> Bool {
        while flock(fd, LOCK_EX | LOCK_NB) == 0 {
            if holdsTheNamedFile() { return true }
            // The file at the name cannot be opened: a lock on the removed one excludes nobody.
            guard reopen() else { return false }
        }
        return false
    }

    /// Waits for the exclusive lock (of the file now at its name; see `removeFile`).
    ///
    /// - Throws: `SecureFileError` with the system's reason if it refuses the
    ///   lock (it is out of locks) or the file cannot be opened again.
    func lock() async throws {
        guard !tryLock() else { return }
        try await onItsOwnThread { file in
            while true {
                while flock(file.fd, LOCK_EX) != 0 {
                    guard errno == EINTR else { throw file.failure() }
                }
                guard !file.holdsTheNamedFile() else { return }
                guard file.reopen() else { throw file.failure() }
            }
        }
    }

    /// What went wrong with the file, as the system said (`errno`).
    private func failure() -> SecureFileError {
        .cannotWrite(path, reason: String(cString: strerror(errno)))
    }

    /// Waits for the lock, shared with the other holders of the shared lock.
    /// A failure leaves it untaken: nothing but a hint depends on it.
    func lockShared() async {
        try? await onItsOwnThread { file in
            while flock(file.fd, LOCK_SH) != 0, errno == EINTR {}
        }
    }

    /// Releases the lock. Callers call it (or `defer` it) explicitly: that also
    /// keeps this object, and so the lock, alive until then.
    func unlock() {
        flock(fd, LOCK_UN)
    }

    /// Removes the file while this object holds its lock (after a failed
    /// `sync enable`), so that no empty file is left behind. A holder that
    /// opened it before and waits for its lock sees, once it has it, that the
    /// file is gone and locks the file at that name instead (`holdsTheNamedFile`).
    func removeFile() {
        unlink(path)
    }

    /// Whether the locked descriptor is still the file at `path`, not one
    /// that `removeFile` unlinked while this object waited.
    private func holdsTheNamedFile() -> Bool {
        var held = stat()
        var named = stat()
        guard fstat(fd, &held) == 0, stat(path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }

    /// Opens the file at `path` again (creating it), dropping the stale one; false if it cannot.
    private func reopen() -> Bool {
        let fresh = Self.open(path)
        guard fresh >= 0 else { return false }
        descriptor.withLock { fd in
            close(fd)
            fd = fresh
        }
        return true
    }

    private func onItsOwnThread(_ wait: @escaping @Sendable (SyncLockFile) throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try wait(self) })
            }
        }
    }
}
