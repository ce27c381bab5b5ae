import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A real S3 server on loopback for every test target: `moto_server` (PyPI
/// `moto[server]`) as a child process on a free port, with one IAM user, its
/// access key and a bucket.
///
/// moto checks nothing for its first four requests (its
/// `INITIAL_NO_AUTH_ACTION_COUNT`): they create the user, its S3 policy, its
/// key and the bucket, unsigned; the Authorization header they carry only
/// tells moto which service is meant. From then on it checks every signature
/// and every permission, as AWS does.
public final class MotoServer: @unchecked Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public var description: String

        public init(_ description: String) {
            self.description = description
        }
    }

    public let bucket: String
    public let accessKeyID: String
    public let secretAccessKey: String
    public let port: Int
    public let logPath: String
    private let process: Process

    public var endpoint: String { "http://127.0.0.1:\(port)" }

    /// The credentials as authcat reads them (the AWS environment variables).
    public var environment: [String: String] {
        ["AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secretAccessKey]
    }

    /// Starts moto, waits until it accepts connections, and creates the user, its key and `bucket`.
    ///
    /// - Parameter logDirectory: where `moto_server.log` goes.
    /// - Throws: `StartError`, saying to `pip install 'moto[server]'` if `moto_server` is not found.
    public init(bucket: String = "authcat-test", logDirectory: String) throws {
        let executable = try Self.findExecutable()
        self.bucket = bucket
        port = try FreePort.find()
        logPath = logDirectory + "/moto_server.log"
        process = try Self.launch(executable, port: port, logPath: logPath)
        do {
            try Self.waitUntilAccepting(process, port: port, logPath: logPath)
            (accessKeyID, secretAccessKey) = try Self.bootstrap(endpoint: "http://127.0.0.1:\(port)", bucket: bucket)
        } catch {
            Self.stop(process)
            throw error
        }
    }

    deinit { stop() }

    /// A location URL for `prefix` in the bucket (or another), at this server or at `endpoint` (a relay to it).
    public func location(
        bucket: String? = nil, prefix: String, options: String = "", endpoint: String? = nil
    ) -> String {
        "s3://\(bucket ?? self.bucket)/\(prefix)?endpoint=\(endpoint ?? self.endpoint)&region=us-east-1\(options)"
    }

    /// Stops the server: this process's own child and anything it started, each by its id.
    public func stop() {
        Self.stop(process)
    }

    private static func stop(_ process: Process) {
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

    // MARK: Starting

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

    /// moto_server's own `main`, with each request handled whole before the next
    /// begins. moto answers each connection on a thread of its own, and its PUT
    /// with `If-None-Match: *` looks for the object and then writes it, two steps
    /// another thread's PUT can come between: two racing creates then both win
    /// (seen here about once in 600 races on a busy machine), which S3 never lets
    /// happen and which authcat's manifest relies on. Connections still open side
    /// by side; only their requests take turns.
    private static let oneRequestAtATime = """
        import sys, threading
        sys.path = [entry for entry in sys.path if entry not in ("", ".")]
        import moto.server
        from werkzeug import serving
        # main() must still look run_simple up here, or the lock would be left out unseen.
        assert moto.server.run_simple is serving.run_simple, "moto.server no longer calls run_simple"
        turn = threading.Lock()
        def run_simple(host, port, application, **options):
            def one_at_a_time(environ, start_response):
                with turn:
                    response = application(environ, start_response)
                    try:
                        return list(response)
                    finally:
                        if hasattr(response, "close"):
                            response.close()
            serving.run_simple(host, port, one_at_a_time, **options)
        moto.server.run_simple = run_simple
        sys.exit(moto.server.main())
        """

    /// The Python that runs a console script pip wrote, read from its first
    /// lines: `#!/path/python3 [flags]`, `#!/usr/bin/env [-S] python3`, or,
    /// when the interpreter's path is long or has a space, `#!/bin/sh` and a
    /// second line `'''exec' "/path/python3" "$0" "$@"`.
    private static func interpreter(ofScriptText text: String) -> [String]? {
        let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard let first = lines.first, first.hasPrefix("#!") else { return nil }
        let execPrefix = "'''exec' \""
        if lines.count > 1, lines[1].hasPrefix(execPrefix) {
            let quoted = lines[1].dropFirst(execPrefix.count)
            return quoted.firstIndex(of: "\"").map { [String(quoted[..<$0])] }
        }
        let words = first.dropFirst(2).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let python = words.first(where: { $0.split(separator: "/").last?.hasPrefix("python") == true })
        else { return nil }
        return python.hasPrefix("/") ? [python] : ["/usr/bin/env", python]
    }

    private static func interpreter(of script: String) throws -> [String] {
        guard let text = try? String(contentsOfFile: script, encoding: .utf8),
            let python = interpreter(ofScriptText: String(text.prefix(4096)))
        else { throw StartError("\(script) does not name the Python that runs it on its first lines") }
        return python
    }

    private static func launch(_ executable: String, port: Int, logPath: String) throws -> Process {
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let python = try interpreter(of: executable)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python[0])
        process.arguments = python.dropFirst() + ["-c", oneRequestAtATime, "-H", "127.0.0.1", "-p", String(port)]
        var environment = ProcessInfo.processInfo.environment
        // The user, its policy, its key and the bucket; every later request is checked.
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = "4"
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

    /// Waits for the port to accept connections, or for the server's end; a
    /// minute is far longer than moto takes to start on a busy machine.
    private static func waitUntilAccepting(_ process: Process, port: Int, logPath: String) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if FreePort.isAccepting(port) { return }
            guard process.isRunning else {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                throw StartError("moto_server exited at start (is 'moto[server]' installed?): \(log.suffix(2000))")
            }
            usleep(50_000)
        }
        throw StartError("moto_server did not accept connections on port \(port) within 60 s; see \(logPath)")
    }

    // MARK: The user, its key and the bucket

    /// Creates the user, its S3 policy, its access key and the bucket; returns the key.
    private static func bootstrap(endpoint: String, bucket: String) throws -> (String, String) {
        let user = "authcat-test"
        let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}"#
        _ = try iam(endpoint, ["Action": "CreateUser", "UserName": user])
        _ = try iam(
            endpoint, ["Action": "PutUserPolicy", "UserName": user, "PolicyName": "s3", "PolicyDocument": policy])
        let reply = try iam(endpoint, ["Action": "CreateAccessKey", "UserName": user])
        guard let keyID = element("AccessKeyId", in: reply), let secret = element("SecretAccessKey", in: reply) else {
            throw StartError("CreateAccessKey gave no key: \(reply)")
        }
        let (status, body) = try send("PUT", endpoint + "/" + bucket, service: "s3", body: Data())
        guard status == 200 else { throw StartError("creating bucket \(bucket) failed with HTTP \(status): \(body)") }
        return (keyID, secret)
    }

    private static func iam(_ endpoint: String, _ parameters: [String: String]) throws -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let form = parameters.merging(["Version": "2010-05-08"]) { $1 }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .sorted().joined(separator: "&")
        let (status, body) = try send("POST", endpoint + "/", service: "iam", body: Data(form.utf8))
        guard status == 200 else {
            throw StartError("IAM \(parameters["Action"] ?? "") failed with HTTP \(status): \(body)")
        }
        return body
    }

    /// One unsigned request, waited for; its status and body.
    private static func send(_ method: String, _ url: String, service: String, body: Data) throws -> (Int, String) {
        guard let target = URL(string: url) else { throw StartError("bad URL \(url)") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        // moto tells services apart by the credential scope, even when it checks nothing else.
        request.setValue(
            "AWS4-HMAC-SHA256 Credential=AKIAAUTHCATBOOTSTRAP/20240101/us-east-1/\(service)/aws4_request, "
                + "SignedHeaders=host, Signature=00", forHTTPHeaderField: "Authorization")
        let done = DispatchSemaphore(value: 0)
        let reply = Reply()
        URLSession.shared.dataTask(with: request) { data, response, error in
            reply.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            reply.body = String(decoding: data ?? Data(), as: UTF8.self)
            reply.error = error
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 60) == .success else { throw StartError("\(method) \(url) timed out") }
        if let error = reply.error { throw StartError("\(method) \(url) failed: \(error)") }
        return (reply.status, reply.body)
    }

    /// What one request's completion handler saw; read only after it signalled.
    private final class Reply: @unchecked Sendable {
        var status = 0
        var body = ""
        var error: Error?
    }

    private static func element(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<\(name)>"),
            let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex)
        else {
            return nil
        }
        return String(xml[start.upperBound..<end.lowerBound])
    }
}

extension MotoServer {
    /// One server for a whole test class: started from the class's synchronous
    /// `setUp` (a child started from an async test's thread would inherit its
    /// blocked signals and never see the SIGTERM that stops it), stopped in
    /// the class's `tearDown`. Tests are never skipped: without moto_server
    /// `running()` throws the error that says how to install it.
    ///
    /// `@unchecked Sendable`: a test class holds it in a static property, and
    /// XCTest calls its class `setUp`, tests and class `tearDown` one at a time.
    public final class ForTestClass: @unchecked Sendable {
        private let label: String
        private var server: MotoServer?
        private var startError: Error?
        private var logFolder: TemporaryFolder?

        /// - Parameter label: names the folder that holds the server's log.
        public init(_ label: String) {
            self.label = label
        }

        /// Starts the server unless it runs (or failed to start) already.
        public func start() {
            guard server == nil, startError == nil else { return }
            do {
                let folder = try TemporaryFolder(label)
                logFolder = folder
                server = try MotoServer(logDirectory: folder.path)
            } catch {
                startError = error
            }
        }

        public func stop() {
            server?.stop()
            server = nil
            startError = nil
            logFolder?.remove()
        }

        /// The server, or the error that kept it from starting.
        public func running() throws -> MotoServer {
            if let startError { throw startError }
            guard let server else { throw StartError("moto_server is not running: call start() first") }
            return server
        }
    }
}
