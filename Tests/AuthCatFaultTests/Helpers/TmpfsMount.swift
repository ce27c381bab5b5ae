import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small tmpfs mounted for one test, and a filler file that leaves exactly
/// the free space a test asks for. Mounting needs root (CI runs as root).
final class TmpfsMount {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let path: String
    private var mounted = false
    private var fillerPath: String { path + "/filler" }

    /// Mounts a tmpfs of `kilobytes` KiB on a new folder `path`.
    init(path: String, kilobytes: Int) throws {
        self.path = path
        guard getuid() == 0 else {
            throw Failure(
                description: "the full-disk tests mount a tmpfs and need root (CI runs as root); uid is \(getuid())")
        }
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let output = try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", path])
        guard output.status == 0 else { throw Failure(description: "mount -t tmpfs on \(path) failed: \(output.text)") }
        mounted = true
    }

    deinit { unmount() }

    func unmount() {
        guard mounted else { return }
        var result = (try? Self.run("/bin/umount", [path]))?.status ?? 1
        // Something still holds a file there (a process the test killed may not be reaped yet).
        if result != 0 { result = (try? Self.run("/bin/umount", ["-l", path]))?.status ?? 1 }
        mounted = result != 0
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Bytes free for an unprivileged file (tmpfs has no reserve, so for root too).
    var freeBytes: Int {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return -1 }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
    }

    /// Fills the file system up, then gives back `free` bytes (rounded down to
    /// whole pages), so that exactly that much is left.
    func fill(leaving free: Int) throws {
        let descriptor = open(fillerPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw Failure(description: "cannot create \(fillerPath): errno \(errno)") }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0xA5, count: 4096)
        var size = 0
        while true {
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { break }
            size += written
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let keep = max(0, size - (free / page) * page)
        guard ftruncate(descriptor, off_t(keep)) == 0 else {
            throw Failure(description: "ftruncate failed: errno \(errno)")
        }
    }

    /// Removes the filler: the space is free again.
    func free() {
        unlink(fillerPath)
    }

    /// Empties the file system.
    func clear() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            try FileManager.default.removeItem(atPath: path + "/" + name)
        }
    }

    private static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
