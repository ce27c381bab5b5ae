import AuthCatCore
import AuthCatEssentials
import Foundation

/// The file operations behind `SyncEventLog`.
///
/// Writers hold an exclusive `flock` on `sync-events.lock` (empty, never
/// replaced), readers a shared one. An append adds one line to the log; when
/// the log would pass its bound, the writer replaces it whole
/// (`SecureFile.writeAtomically`) with the newest lines that fit. So the file
/// at the name is always whole. No one waits long for the lock: a sync
/// stopped while holding it (Ctrl-Z, SIGSTOP) must not hang `sync status`, a
/// status bar, or every other sync's events; a reader that goes without it
/// sees every line but perhaps one being appended, which it skips as torn.
extension SyncEventLog {
    static let lockFileName = "sync-events.lock"
    /// How long a writer waits for another process's lock before dropping its event.
    static let writerPatience: Duration = .seconds(5)
    /// How long a reader waits before reading without the lock.
    static let readerPatience: Duration = .seconds(1)

    func append(_ line: Data) throws {
        let lock = try openLockFile()
        defer { close(lock) }
        // After one wait in vain this log waits no more: a sync records many events.
        let patience = waitedInVain.withLock { $0 } ? Duration.zero : Self.writerPatience
        if let failure = Self.lock(lock, LOCK_EX, within: patience) {
            if failure == EWOULDBLOCK { waitedInVain.withLock { $0 = true } }
            throw SyncMonitorError.cannotWrite(
                fileURL.path, reason: failure == EWOULDBLOCK ? "another process holds its lock" : Self.text(failure))
        }
        let fd = open(fileURL.path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, SecureFile.fileMode)
        guard fd >= 0 else { throw SyncMonitorError.cannotWrite(fileURL.path, reason: Self.text(errno)) }
        defer { close(fd) }
        // The mode given to open() is reduced by the umask; the log must stay private anyway.
        fchmod(fd, SecureFile.fileMode)
        let size = Int(lseek(fd, 0, SEEK_END))
        if size + line.count > maximumBytes {
            let kept = Self.newestLines(of: try readAll(fd), fitting: maximumBytes / 2 - line.count)
            // Under the lock no rewrite is under way: a temporary file is one a killed writer left.
            SecureFile.removeStaleTemporaries(of: fileURL)
            try SecureFile.writeAtomically(kept + line, to: fileURL)
        } else {
            try writeAll(line, to: fd)
        }
    }

    /// The whole file, or nil if it does not exist.
    func readAll() throws -> Data? {
        guard access(fileURL.path, F_OK) == 0 else { return nil }
        // A log that cannot be locked is still read: the lock only orders readers after a writer's line.
        let lock = try? openLockFile()
        defer { lock.map { _ = close($0) } }
        if let lock { _ = Self.lock(lock, LOCK_SH, within: Self.readerPatience) }
        let fd = open(fileURL.path, O_RDONLY | O_CLOEXEC)
        if fd < 0, errno == ENOENT { return nil }
        guard fd >= 0 else { throw SyncMonitorError.cannotRead(fileURL.path, reason: Self.text(errno)) }
        defer { close(fd) }
        return try readAll(fd)
    }

    private func openLockFile() throws -> Int32 {
        let path = fileURL.deletingLastPathComponent().appendingPathComponent(Self.lockFileName).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, SecureFile.fileMode)
        guard fd >= 0 else { throw SyncMonitorError.cannotWrite(path, reason: Self.text(errno)) }
        return fd
    }

    /// The last complete lines of `data` whose total size is at most `budget`.
    static func newestLines(of data: Data, fitting budget: Int) -> Data {
        var kept: [Data.SubSequence] = []
        var size = 0
        for line in data.split(separator: UInt8(ascii: "\n")).reversed() {
            guard size + line.count + 1 <= budget else { break }
            kept.append(line)
            size += line.count + 1
        }
        return kept.reversed().reduce(into: Data()) {
            $0 += $1
            $0.append(UInt8(ascii: "\n"))
        }
    }

    private func readAll(_ fd: Int32) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw SyncMonitorError.cannotRead(fileURL.path, reason: Self.text(errno))
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            offset += off_t(count)
        }
    }

    private func writeAll(_ data: Data, to fd: Int32) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                // withUnsafeBytes of a non-empty Data always has a base address; the loop does not run when empty.
                let written = write(fd, bytes.baseAddress!.advanced(by: offset), bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    throw SyncMonitorError.cannotWrite(fileURL.path, reason: Self.text(errno))
                }
                offset += written
            }
        }
    }

    /// Takes the lock within `patience` (a monotonic clock: setting the
    /// system clock back cannot stretch the wait); nil once taken, else the
    /// reason, `EWOULDBLOCK` when another process still holds it.
    private static func lock(_ fd: Int32, _ operation: Int32, within patience: Duration) -> Int32? {
        let deadline = ContinuousClock.now + patience
        while flock(fd, operation | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else { return failure }
            guard ContinuousClock.now < deadline else { return EWOULDBLOCK }
            usleep(2_000)
        }
        return nil
    }

    private static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
