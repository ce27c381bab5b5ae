import AuthCatCore
import AuthCatEssentials
import Foundation

/// The file operations behind `SyncEventLog`, each under `flock` on the log itself.
///
/// The file is never replaced, only appended to and, when too large,
/// rewritten in place, so every process locks the same inode. No one waits
/// long for the lock: a sync stopped while holding it (Ctrl-Z, SIGSTOP) must
/// not hang `sync status`, a status bar, or every other sync's events.
extension SyncEventLog {
    /// How long a writer waits for another process's lock before dropping its event.
    static let writerPatience: TimeInterval = 5
    /// How long a reader waits before reading without the lock.
    static let readerPatience: TimeInterval = 1
    func append(_ line: Data) throws {
        let fd = open(fileURL.path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, SecureFile.fileMode)
        guard fd >= 0 else {
            throw SyncMonitorError.cannotWrite(fileURL.path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        guard Self.lock(fd, LOCK_EX, within: Self.writerPatience) else {
            throw SyncMonitorError.cannotWrite(fileURL.path, reason: "another process holds the log's lock")
        }
        // The mode given to open() is reduced by the umask; the log must stay private anyway.
        fchmod(fd, SecureFile.fileMode)
        let size = Int(lseek(fd, 0, SEEK_END))
        if size + line.count > maximumBytes {
            let kept = Self.newestLines(of: try readAll(fd), fitting: maximumBytes / 2 - line.count)
            guard ftruncate(fd, 0) == 0 else {
                throw SyncMonitorError.cannotWrite(fileURL.path, reason: "truncate failed")
            }
            try writeAll(kept + line, to: fd)
        } else {
            try writeAll(line, to: fd)
        }
    }

    /// The whole file, or nil if it does not exist.
    func readAll() throws -> Data? {
        let fd = open(fileURL.path, O_RDONLY | O_CLOEXEC)
        if fd < 0, errno == ENOENT { return nil }
        guard fd >= 0 else { throw SyncMonitorError.cannotRead(fileURL.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        // Unlocked, a read may meet a line being written or a rewrite: torn lines are skipped.
        _ = Self.lock(fd, LOCK_SH, within: Self.readerPatience)
        return try readAll(fd)
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
                throw SyncMonitorError.cannotRead(fileURL.path, reason: String(cString: strerror(errno)))
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
                    throw SyncMonitorError.cannotWrite(fileURL.path, reason: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }

    /// Takes the lock within `patience` seconds; false if another process still holds it.
    private static func lock(_ fd: Int32, _ operation: Int32, within patience: TimeInterval) -> Bool {
        let deadline = Date() + patience
        while flock(fd, operation | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else { return false }
            usleep(2_000)
        }
        return true
    }
}
