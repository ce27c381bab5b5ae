import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `moto_server` (PyPI `moto[server]`), a real S3 and IAM server, as a child
/// process on a free loopback port. The S3 tests of the sync library and of
/// the command line each set it up their own way; starting and stopping it
/// is the same for both.
public final class MotoProcess {
    public struct StartError: Error, CustomStringConvertible {
        public var description: String

        public init(_ description: String) {
            self.description = description
        }
    }

    public let port: Int
    public let logPath: String
    private let process: Process

    public var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Starts moto and waits until it accepts connections. Its first
    /// `unauthenticatedRequests` requests go unchecked (moto's
    /// `INITIAL_NO_AUTH_ACTION_COUNT`), enough to create a user and its key;
    /// every later one has its signature and permissions checked, as on AWS.
    ///
    /// - Throws: `StartError` saying to `pip install 'moto[server]'` if `moto_server` is not found.
    public init(unauthenticatedRequests: Int, logDirectory: String) throws {
        let executable = try Self.findExecutable()
        port = try FreePort.find()
        logPath = logDirectory + "/moto_server.log"
        process = try Self.launch(
            executable, port: port, unauthenticatedRequests: unauthenticatedRequests, logPath: logPath)
        do {
            try waitUntilAccepting()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Stops the server: this process's own child and anything it started, each by its id.
    public func stop() {
        guard process.isRunning else { return }
        // A launcher (a pyenv shim, say) may have forked the real server rather than exec'd it.
        let children = ChildProcesses.descendants(of: process.processIdentifier)
        for child in children { kill(child, SIGTERM) }
        process.terminate()
        // A server started from a thread that blocks SIGTERM inherits the block
        // and ignores it; a test run must never hang on that, so kill it then.
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning {
            for child in children { kill(child, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    private static func findExecutable() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        var directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let home = environment["HOME"] ?? NSHomeDirectory()
        directories += [home + "/.local/bin", home + "/.pyenv/shims", "/usr/local/bin", "/usr/bin"]
        for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/moto_server") {
            return resolvingPyenvShim(directory + "/moto_server")
        }
        throw StartError(
            "moto_server was not found on PATH; the S3 tests need a real S3 server: pip install 'moto[server]'")
    }

    /// The real script behind a pyenv shim, so that the child is the server itself.
    private static func resolvingPyenvShim(_ path: String) -> String {
        guard let shims = path.range(of: "/shims/"), path.contains("/.pyenv/") else { return path }
        let pyenv = String(path[..<shims.lowerBound]) + "/libexec/pyenv"
        let which = Process()
        which.executableURL = URL(fileURLWithPath: pyenv)
        which.arguments = ["which", "moto_server"]
        let output = Pipe()
        which.standardOutput = output
        which.standardError = FileHandle.nullDevice
        guard (try? which.run()) != nil else { return path }
        which.waitUntilExit()
        let resolved = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return which.terminationStatus == 0 && FileManager.default.isExecutableFile(atPath: resolved) ? resolved : path
    }

    private static func launch(
        _ executable: String, port: Int, unauthenticatedRequests: Int, logPath: String
    ) throws -> Process {
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-H", "127.0.0.1", "-p", String(port)]
        var environment = ProcessInfo.processInfo.environment
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = String(unauthenticatedRequests)
        // Real credentials of the developer must never reach the test server.
        for name in ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"] {
            environment[name] = nil
        }
        process.environment = environment
        process.standardOutput = log
        process.standardError = log
        try process.run()
        return process
    }

    private func waitUntilAccepting() throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if FreePort.isAccepting(port) { return }
            guard process.isRunning else {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                throw StartError("moto_server exited at start (is 'moto[server]' installed?): \(log.suffix(2000))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw StartError("moto_server did not accept connections on port \(port) within 30 s; see \(logPath)")
    }
}
