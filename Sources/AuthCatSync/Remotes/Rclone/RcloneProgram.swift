import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The `rclone` program, run once per operation with bounded output and a deadline.
///
/// Its arguments name only the remote and object (never a credential: those
/// stay in rclone's configuration); its environment is the caller's, so that
/// `RCLONE_CONFIG_*` and `RCLONE_CONFIG_PASS` reach it. Input is handed over
/// in an unlinked temporary file rather than a pipe, so that an rclone that
/// exits early cannot stop authcat with SIGPIPE.
struct RcloneProgram: Sendable {
    /// What one run gave back.
    struct Outcome {
        var status: Int32
        var output: Data
        /// The end of what it wrote on standard error, as text.
        var errors: String
        /// Standard output grew past the bound; rclone was stopped.
        var overflowed: Bool
        /// The deadline passed; rclone was stopped.
        var timedOut: Bool
    }

    /// The most of standard error kept: its last lines say what failed.
    static let maximumErrorBytes = 16 * 1024

    let executable: String
    let environment: [String: String]
    /// Seconds one run may take.
    let deadline: TimeInterval

    /// The program `AUTHCAT_RCLONE` names, else `rclone` on `PATH`; nil if there is none.
    static func find(environment: [String: String]) -> String? {
        if let named = environment["AUTHCAT_RCLONE"], !named.isEmpty {
            guard named.contains("/") else { return search(named, environment: environment) }
            return access(named, X_OK) == 0 ? named : nil
        }
        return search("rclone", environment: environment)
    }

    private static func search(_ name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// Runs rclone with `arguments` (after the flags every run gets) and `input` on standard input.
    ///
    /// - Throws: `RemoteError.io` if rclone cannot be started.
    func run(_ arguments: [String], input: Data? = nil, maximumOutput: Int) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { try runBlocking(arguments, input: input, maximumOutput: maximumOutput) })
            }
        }
    }

    /// Quiet, bounded retries (authcat's own sync is the retry), timeouts inside the deadline.
    private var commonFlags: [String] {
        let seconds = max(1, Int(deadline.rounded(.up)))
        return [
            "--log-level", "ERROR", "--retries", "1", "--low-level-retries", "2", "--contimeout", "\(seconds)s",
            "--timeout", "\(seconds)s", "--ask-password=false",
        ]
    }

    private func runBlocking(_ arguments: [String], input: Data?, maximumOutput: Int) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = commonFlags + arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = try input.map(Self.unlinkedFile) ?? FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw RemoteError.io(path: executable, operation: "run", reason: "\(error.localizedDescription)")
        }
        let pid = process.processIdentifier
        let stopped = Mutex((overflowed: false, timedOut: false))
        let expiry = DispatchWorkItem {
            stopped.withLock { $0.timedOut = true }
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: expiry)
        let errorText = Mutex(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let kept = Self.readTail(errors.fileHandleForReading.fileDescriptor, keeping: Self.maximumErrorBytes)
            errorText.withLock { $0 = kept }
            errorsRead.signal()
        }
        let (data, over) = Self.readBounded(output.fileHandleForReading.fileDescriptor, limit: maximumOutput) {
            kill(pid, SIGKILL)
        }
        if over { stopped.withLock { $0.overflowed = true } }
        process.waitUntilExit()
        expiry.cancel()
        errorsRead.wait()
        let flags = stopped.withLock { $0 }
        return Outcome(
            status: process.terminationStatus, output: data,
            errors: String(decoding: errorText.withLock { $0 }, as: UTF8.self), overflowed: flags.overflowed,
            timedOut: flags.timedOut)
    }

    /// Standard output up to `limit` bytes; past it, `stop` is called and the rest drained unkept.
    private static func readBounded(_ fd: Int32, limit: Int, stop: () -> Void) -> (Data, Bool) {
        var data = Data()
        var over = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            if over { continue }
            if data.count + count > limit {
                over = true
                data = Data()
                stop()
                continue
            }
            data.append(contentsOf: buffer[..<count])
        }
        return (data, over)
    }

    /// The last `keeping` bytes written to `fd`.
    private static func readTail(_ fd: Int32, keeping: Int) -> Data {
        var kept = Data()
        var buffer = [UInt8](repeating: 0, count: 8 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            kept.append(contentsOf: buffer[..<count])
            if kept.count > keeping { kept = kept.suffix(keeping) }
        }
        return kept
    }

    /// `data` in a temporary file with no name, positioned at its start.
    private static func unlinkedFile(_ data: Data) throws -> FileHandle {
        var template = Array((NSTemporaryDirectory() + "/authcat-rclone-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }  // the buffer is never empty
        guard fd >= 0 else {
            throw RemoteError.io(
                path: NSTemporaryDirectory(), operation: "write", reason: String(cString: strerror(errno)))
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.seek(toOffset: 0)
        } catch {
            throw RemoteError.io(
                path: NSTemporaryDirectory(), operation: "write", reason: "\(error.localizedDescription)")
        }
        return handle
    }
}
