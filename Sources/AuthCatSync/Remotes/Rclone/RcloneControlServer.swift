import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One `rclone rcd` for the life of a remote: rclone's remote-control server,
/// started by `start()` (or at the first request) and asked over HTTP on loopback, so that a
/// sync pays rclone's start-up (about 0.13 s) once instead of per request.
///
/// Nobody else can use it: it listens on 127.0.0.1 on a port the kernel
/// picks, and asks every request for a user and password drawn at random for
/// this process. Those reach rclone in its environment (`RCLONE_RC_USER`,
/// `RCLONE_RC_PASS`), which only this user and root may read, never in its
/// arguments, which every local user may read; any `RCLONE_RC_*` of the
/// caller's is dropped so that none can turn the check off. rclone's own
/// configuration and credentials stay rclone's, as with one run per request.
///
/// rclone must not outlive authcat, even one killed by SIGKILL: it runs under
/// a small shell that holds a pipe from authcat on its standard input and
/// stops rclone when told to, or when the pipe closes because authcat is
/// gone (after two seconds, so that an upload cut short by the kill is
/// first removed by rclone, as it does with a write that fails).
final class RcloneControlServer: Sendable {
    /// A running server: the shell that holds rclone, and how to reach it.
    private struct Running: @unchecked Sendable {
        var shell: Process
        /// authcat's end of the shell's standard input.
        var lifeline: FileHandle
        var origin: String
        var authorization: String
        /// Made with the server, so that a remote never asked loads no HTTP stack.
        var transport: HTTPTransport
    }

    /// rclone's remote control did not start; `said` is the end of what it wrote.
    struct StartFailure: Error {
        var said: String
    }

    /// What a request gave back.
    struct Reply {
        var status: Int
        var body: Data

        /// The JSON object of the reply, if it is one.
        var object: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }

        /// rclone's `error` text of a failed call, else the body as text.
        var message: String {
            (object?["error"] as? String) ?? String(decoding: body.prefix(2048), as: UTF8.self)
        }
    }

    /// What rclone said on standard error at its start, for an error that says why it did not.
    private final class StartLog: Sendable {
        let text = Mutex(Data())
    }

    /// The shell that runs rclone and stops it when authcat says so or is gone. It
    /// waits in a read, not for a signal: a process started from one of
    /// Dispatch's threads begins with most signals blocked, SIGCHLD included.
    /// rclone runs in a session of its own (`setsid`, util-linux), so that a
    /// Ctrl-C meant for `sync watch` does not stop it under the watch's last sync.
    private static let shellScript = """
        trap '' INT
        if command -v setsid >/dev/null 2>&1; then setsid "$@" </dev/null & else "$@" </dev/null & fi
        read -r _ || sleep 2
        kill -9 "$!" 2>/dev/null
        """

    private let program: RcloneProgram
    private let running = Mutex<Running?>(nil)
    private let starting = Mutex(())

    init(program: RcloneProgram) {
        self.program = program
    }

    deinit { close() }

    /// Stops rclone (by telling its shell) and closes the connection.
    func close() {
        let stopped = running.withLock { running in
            defer { running = nil }
            return running
        }
        guard let stopped else { return }
        stopped.transport.close()
        try? stopped.lifeline.write(contentsOf: Data("stop\n".utf8))
        try? stopped.lifeline.close()
        stopped.shell.waitUntilExit()
    }

    /// Calls an rc method (`operations/list`, …) with a JSON object of parameters.
    func call(_ method: String, _ parameters: [String: Any], maximumBytes: Int = 64 * 1024) async throws -> Reply {
        let body = try JSONSerialization.data(withJSONObject: parameters, options: [.sortedKeys])
        return try await send(
            .POST, path: "/" + method, headers: [("content-type", "application/json")], body: body,
            maximumBytes: maximumBytes)
    }

    /// Reads the object `name` of the rclone file system `fs` (served by `--rc-serve`).
    func object(fs: String, name: String, maximumBytes: Int) async throws -> Reply {
        try await send(
            .GET, path: "/" + Self.escaped("[" + fs + "]") + "/" + Self.escaped(name), maximumBytes: maximumBytes)
    }

    /// Writes `data` as the file `leaf` in the folder `folder` of `fs` (`operations/uploadfile`).
    func upload(fs: String, folder: String, leaf: String, data: Data) async throws -> Reply {
        let boundary = "authcat-" + UUID().uuidString
        var body = Data()
        body.append(
            Data(
                ("--\(boundary)\r\ncontent-disposition: form-data; name=\"file0\"; filename=\"\(leaf)\"\r\n"
                    + "content-type: application/octet-stream\r\n\r\n").utf8))
        body.append(data)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        let query = "?fs=" + Self.escaped(fs, query: true) + "&remote=" + Self.escaped(folder, query: true)
        return try await send(
            .POST, path: "/operations/uploadfile" + query,
            headers: [("content-type", "multipart/form-data; boundary=\(boundary)")], body: body,
            maximumBytes: 64 * 1024)
    }

    private func send(
        _ method: S3Request.Method, path: String, headers: [(name: String, value: String)] = [], body: Data = Data(),
        maximumBytes: Int
    ) async throws -> Reply {
        let server = try await started()
        let request = S3Request(
            method: method, url: server.origin + path, headers: headers + [("authorization", server.authorization)],
            body: body)
        let response = try await server.transport.send(request, maximumBytes: maximumBytes)
        return Reply(status: response.status, body: response.body)
    }

    /// Starts the server now if there is none (or the last one ended); rclone must say where it serves within `limit`.
    func start(within limit: Duration) async throws {
        _ = try await started(within: limit)
    }

    /// The running server, started now if there is none (or the last one ended).
    private func started(within limit: Duration? = nil) async throws -> Running {
        if let server = running.withLock({ $0 }), server.shell.isRunning { return server }
        let seconds = limit.map { Double($0.components.seconds) } ?? max(program.deadline, 5)
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.startBlocking(within: seconds) })
            }
        }
    }

    private func startBlocking(within seconds: TimeInterval) throws -> Running {
        // One start at a time: requests sent together wait for the same server.
        try starting.withLock { _ in try startOnce(within: seconds) }
    }

    private func startOnce(within seconds: TimeInterval) throws -> Running {
        if let server = running.withLock({ $0 }), server.shell.isRunning { return server }
        let user = Self.randomToken()
        let password = Self.randomToken()
        var environment = program.environment.filter { !$0.key.hasPrefix("RCLONE_RC_") }
        environment["RCLONE_RC_USER"] = user
        environment["RCLONE_RC_PASS"] = password
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments =
            ["-c", Self.shellScript, "authcat-rclone", program.executable, "rcd"]
            + program.commonFlags(logLevel: "NOTICE") + [
                "--rc-addr", "127.0.0.1:0", "--rc-serve", "--rc-no-auth=false", "--rc-web-gui=false",
            ]
        shell.environment = environment
        let input = Pipe()
        let errors = Pipe()
        shell.standardInput = input
        shell.standardOutput = FileHandle.nullDevice
        shell.standardError = errors
        do {
            try shell.run()
        } catch {
            throw RemoteError.io(path: program.executable, operation: "run", reason: "\(error.localizedDescription)")
        }
        let said = StartLog()
        guard let origin = awaitOrigin(errors.fileHandleForReading.fileDescriptor, log: said, within: seconds) else {
            try? input.fileHandleForWriting.close()
            shell.terminate()
            shell.waitUntilExit()
            throw StartFailure(said: String(decoding: said.text.withLock { $0 }, as: UTF8.self))
        }
        let authorization = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        let step = max(program.deadline, 1)
        let server = Running(
            shell: shell, lifeline: input.fileHandleForWriting, origin: origin, authorization: authorization,
            transport: HTTPTransport(idleTimeout: step, deadline: step))
        running.withLock { $0 = server }
        return server
    }

    /// Reads rclone's standard error until it says where it serves, within `seconds`;
    /// then keeps reading it (unkept) so that rclone never blocks on a full pipe.
    private func awaitOrigin(_ descriptor: Int32, log: StartLog, within seconds: TimeInterval) -> String? {
        let found = DispatchSemaphore(value: 0)
        let origin = Mutex<String?>(nil)
        DispatchQueue.global().async {
            var text = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            var announced = false
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                guard !announced else { continue }
                text.append(contentsOf: buffer[..<count])
                if let address = Self.announcedOrigin(String(decoding: text, as: UTF8.self)) {
                    origin.withLock { $0 = address }
                    announced = true
                    found.signal()
                } else if text.count > 64 * 1024 {
                    text = text.suffix(16 * 1024)
                }
                log.text.withLock { $0 = text.suffix(16 * 1024) }
            }
            if !announced { found.signal() }
        }
        _ = found.wait(timeout: .now() + seconds)
        return origin.withLock { $0 }
    }

    /// `http://127.0.0.1:PORT` from rclone's "Serving remote control on http://127.0.0.1:PORT/".
    static func announcedOrigin(_ text: String) -> String? {
        guard let marker = text.range(of: "Serving remote control on http://127.0.0.1:") else { return nil }
        let port = text[marker.upperBound...].prefix { $0.isNumber }
        guard !port.isEmpty, text[marker.upperBound...].dropFirst(port.count).first == "/" else { return nil }
        return "http://127.0.0.1:" + port
    }

    /// 32 random bytes as hex: the one-process user and password.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// `text` percent-encoded for a URL path segment (or a query value), `/` kept in a path.
    static func escaped(_ text: String, query: Bool = false) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        if !query { allowed.insert("/") }
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
