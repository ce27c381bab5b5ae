import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real S3 server on loopback for the command-line tests: `moto_server`
/// (PyPI `moto[server]`) as a child process, with one IAM user, its access
/// key, and a bucket.
///
/// A trimmed copy of the sync tests' `MotoServer`, which that test target
/// keeps to itself. moto checks nothing for its first four requests
/// (`INITIAL_NO_AUTH_ACTION_COUNT=4`): they create the user, its policy, its
/// key and the bucket, unsigned; the Authorization header they carry only
/// tells moto which service is meant. From then on every signature and
/// permission is checked, as on AWS.
final class CLIMotoServer {
    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    let bucket: String
    let accessKeyID: String
    let secretAccessKey: String
    private let process: Process

    var endpoint: String { "http://127.0.0.1:\(port)" }
    /// The credentials as authcat reads them.
    var environment: [String: String] { ["AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secretAccessKey] }

    init(bucket: String = "authcat-cli", logDirectory: URL) throws {
        port = try Self.freePort()
        self.bucket = bucket
        process = try Self.launch(port: port, log: logDirectory.appendingPathComponent("moto_server.log"))
        do {
            try Self.waitUntilAccepting(port: port, process: process)
            (accessKeyID, secretAccessKey) = try Self.bootstrap(endpoint: "http://127.0.0.1:\(port)", bucket: bucket)
        } catch {
            process.terminate()
            process.waitUntilExit()
            throw error
        }
    }

    deinit { stop() }

    /// Stops the server (this test's own child, by its process object).
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// A location URL for `prefix` in the bucket.
    func location(prefix: String) -> String {
        "s3://\(bucket)/\(prefix)?endpoint=\(endpoint)&region=us-east-1"
    }

    private static func launch(port: Int, log: URL) throws -> Process {
        let executable = try findExecutable()
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-H", "127.0.0.1", "-p", String(port)]
        var environment = ProcessInfo.processInfo.environment
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = "4"
        for name in ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"] { environment[name] = nil }
        process.environment = environment
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    private static func findExecutable() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"] ?? NSHomeDirectory()
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + [home + "/.local/bin", home + "/.pyenv/shims", "/usr/local/bin", "/usr/bin"]
        guard let directory = directories.first(where: { FileManager.default.isExecutableFile(atPath: $0 + "/moto_server") }) else {
            throw StartError(description: "moto_server was not found; the S3 tests need it: pip install 'moto[server]'")
        }
        return directory + "/moto_server"
    }

    private static func waitUntilAccepting(port: Int, process: Process) throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if isAccepting(port) { return }
            guard process.isRunning else { throw StartError(description: "moto_server exited at start") }
            usleep(50_000)
        }
        throw StartError(description: "moto_server did not accept connections on port \(port) within 30 s")
    }

    /// Creates the user, its S3 policy, its access key and the bucket; returns the key.
    private static func bootstrap(endpoint: String, bucket: String) throws -> (String, String) {
        let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}"#
        _ = try iam(endpoint, ["Action": "CreateUser", "UserName": "authcat-cli"])
        _ = try iam(endpoint, ["Action": "PutUserPolicy", "UserName": "authcat-cli", "PolicyName": "s3", "PolicyDocument": policy])
        let reply = try iam(endpoint, ["Action": "CreateAccessKey", "UserName": "authcat-cli"])
        guard let keyID = element("AccessKeyId", in: reply), let secret = element("SecretAccessKey", in: reply) else {
            throw StartError(description: "CreateAccessKey gave no key: \(reply)")
        }
        let (status, body) = try send("PUT", endpoint + "/" + bucket, service: "s3", body: Data())
        guard status == 200 else { throw StartError(description: "creating the bucket failed with HTTP \(status): \(body)") }
        return (keyID, secret)
    }

    private static func iam(_ endpoint: String, _ parameters: [String: String]) throws -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let form = parameters.merging(["Version": "2010-05-08"]) { $1 }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .sorted().joined(separator: "&")
        let (status, body) = try send("POST", endpoint + "/", service: "iam", body: Data(form.utf8))
        guard status == 200 else { throw StartError(description: "IAM \(parameters["Action"] ?? "") failed with HTTP \(status): \(body)") }
        return body
    }

    private static func send(_ method: String, _ url: String, service: String, body: Data) throws -> (Int, String) {
        guard let target = URL(string: url) else { throw StartError(description: "bad URL \(url)") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("AWS4-HMAC-SHA256 Credential=AKIAAUTHCATBOOTSTRAP/20240101/us-east-1/\(service)/aws4_request, "
                         + "SignedHeaders=host, Signature=00", forHTTPHeaderField: "Authorization")
        let done = DispatchSemaphore(value: 0)
        let box = ReplyBox()
        URLSession.shared.dataTask(with: request) { data, response, error in
            box.reply = ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self), error)
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 30) == .success else { throw StartError(description: "\(method) \(url) timed out") }
        if let error = box.reply.2 { throw StartError(description: "\(method) \(url) failed: \(error)") }
        return (box.reply.0, box.reply.1)
    }

    private static func element(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<\(name)>"), let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex) else {
            return nil
        }
        return String(xml[start.upperBound..<end.lowerBound])
    }

    /// A loopback port nothing listens on now (the kernel picks it).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartError(description: "socket failed") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard named else { throw StartError(description: "cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func isAccepting(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

private final class ReplyBox: @unchecked Sendable {
    var reply: (Int, String, Error?) = (0, "", nil)
}
