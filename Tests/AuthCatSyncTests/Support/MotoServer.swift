@testable import AuthCatSync
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real S3 server on loopback: `moto_server` (PyPI `moto[server]`) as a child process.
///
/// Started with `INITIAL_NO_AUTH_ACTION_COUNT=3`, so only its first three
/// requests go unchecked: the IAM calls that create a user, give it an S3
/// policy and make its access key. From then on moto checks every signature
/// and every permission, as AWS does. The bucket is then created with that key.
/// Its log goes to `logPath`.
final class MotoServer {
    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    let credentials: S3Credentials
    let bucket: String
    let logPath: String
    private let process: Process

    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Starts moto, creates a user with an access key, and a bucket.
    ///
    /// - Throws: `StartError` saying to `pip install 'moto[server]'` if `moto_server` is not found.
    init(bucket: String = "authcat-test", logDirectory: String) throws {
        let executable = try Self.findExecutable()
        port = try FreePort.find()
        self.bucket = bucket
        logPath = logDirectory + "/moto_server.log"
        process = try Self.launch(executable, port: port, logPath: logPath)
        do {
            try Self.waitUntilAccepting(port: port, process: process, logPath: logPath)
            let admin = IAMClient(endpoint: "http://127.0.0.1:\(port)")
            credentials = try admin.createUserWithS3Key(user: "authcat-test")
            try Self.createBucket(bucket, endpoint: "http://127.0.0.1:\(port)", credentials: credentials)
        } catch {
            process.terminate()
            process.waitUntilExit()
            throw error
        }
    }

    /// Stops the server: this process's own child and anything it started, each by its id.
    func stop() {
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

    deinit { stop() }

    /// A location URL for this server, with the given prefix.
    func location(bucket: String? = nil, prefix: String, options: String = "") -> String {
        "s3://\(bucket ?? self.bucket)/\(prefix)?endpoint=\(endpoint)&region=us-east-1\(options)"
    }

    /// The S3 configuration for `prefix` in the bucket (or another bucket).
    func configuration(bucket: String? = nil, prefix: String, options: String = "") throws -> S3Configuration {
        guard case let .s3(configuration) = try RemoteLocation(parsing: location(bucket: bucket, prefix: prefix, options: options)) else {
            throw StartError(description: "not an s3 location")
        }
        return configuration
    }

    private static func findExecutable() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        var directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let home = environment["HOME"] ?? NSHomeDirectory()
        directories += [home + "/.local/bin", home + "/.pyenv/shims", "/usr/local/bin", "/usr/bin"]
        for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/moto_server") {
            return resolvingPyenvShim(directory + "/moto_server")
        }
        throw StartError(description: "moto_server was not found on PATH; the S3 tests need a real S3 server: pip install 'moto[server]'")
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

    private static func launch(_ executable: String, port: Int, logPath: String) throws -> Process {
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-H", "127.0.0.1", "-p", String(port)]
        var environment = ProcessInfo.processInfo.environment
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
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

    private static func waitUntilAccepting(port: Int, process: Process, logPath: String) throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if FreePort.isAccepting(port) { return }
            guard process.isRunning else {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                throw StartError(description: "moto_server exited at start (is 'moto[server]' installed?): \(log.suffix(2000))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw StartError(description: "moto_server did not accept connections on port \(port) within 30 s; see \(logPath)")
    }

    private static func createBucket(_ bucket: String, endpoint: String, credentials: S3Credentials) throws {
        let client = SignedHTTP(endpoint: endpoint, credentials: credentials, service: "s3")
        let (status, body) = try client.send(method: "PUT", path: "/" + bucket, body: Data())
        guard status == 200 else {
            throw StartError(description: "creating bucket \(bucket) failed with HTTP \(status): \(String(decoding: body, as: UTF8.self))")
        }
    }
}
