import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real WebDAV server from a Debian package, as a child process on a free
/// loopback port, serving a folder of its own with basic authentication:
///
/// - `.lighttpd`: lighttpd's mod_webdav, which honours `If-None-Match`; over
///   HTTPS when given a certificate (see `TestCertificateAuthority`);
/// - `.apache`: Apache's mod_dav, whose ETags are weak for a second after a write;
/// - `.rclone`: `rclone serve webdav`, which ignores `If-None-Match`.
///
/// Started from a test class's synchronous `setUp` (see `MotoServer.ForTestClass`),
/// stopped by its process id.
public final class WebDAVServer {
    public enum Kind: String, Sendable {
        case lighttpd, apache, rclone
    }

    public struct StartError: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    public let kind: Kind
    public let port: Int
    /// The folder the server serves; objects appear under it as files.
    public let documentRoot: String
    public let user = "alice"
    /// A test password, different for each server.
    public let password: String
    public let scheme: String
    private let folder: String
    private var process: Process?

    /// - Parameters:
    ///   - folder: a fresh folder for the server's configuration, files and log.
    ///   - documentRoot: the served folder (a small tmpfs, say); by default one inside `folder`.
    ///   - certificate: a PEM file with the server's certificate and key, for HTTPS (lighttpd only).
    public init(
        _ kind: Kind, folder: String, documentRoot: String? = nil, certificate: String? = nil
    ) throws {
        self.kind = kind
        self.folder = folder
        self.documentRoot = documentRoot ?? folder + "/www"
        password = "pw-" + UUID().uuidString.prefix(8).lowercased()
        scheme = certificate == nil ? "http" : "https"
        port = try FreePort.find()
        try FileManager.default.createDirectory(atPath: self.documentRoot, withIntermediateDirectories: true)
        try start(certificate: certificate)
    }

    deinit { stop() }

    /// lighttpd's access log: a line per request, `USER METHOD PATH STATUS`,
    /// USER `-` when the request carried no valid password. lighttpd writes it
    /// in batches; `requests(through:)` waits for a marker request to show.
    public var accessLogPath: String { folder + "/access.log" }

    /// Every request lighttpd logged up to and including a marker request made
    /// now (without a password), so that none made before the call is missing.
    public func requests(timeout: TimeInterval = 60) throws -> [String] {
        let marker = "/marker-" + UUID().uuidString.lowercased()
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: try Self.find("curl", package: "curl"))
        curl.arguments = ["-s", "-o", "/dev/null", "-k", origin + marker]
        try curl.run()
        curl.waitUntilExit()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let lines = ((try? String(contentsOfFile: accessLogPath, encoding: .utf8)) ?? "")
                .split(separator: "\n").map(String.init)
            if let end = lines.firstIndex(where: { $0.contains(marker) }) { return Array(lines[...end]) }
            usleep(50_000)
        }
        throw StartError(description: "lighttpd never logged the marker request \(marker)")
    }

    /// The base URL, e.g. `http://127.0.0.1:8080`.
    public var origin: String { "\(scheme)://127.0.0.1:\(port)" }

    /// Whether the server still runs.
    public var isRunning: Bool { process?.isRunning ?? false }

    /// Stops the server where it stands (SIGSTOP): connections are taken by
    /// the kernel and never answered, as by a hung server.
    public func pause() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGSTOP)
    }

    /// Lets a paused server go on (SIGCONT).
    public func resume() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGCONT)
    }

    /// Stops the server (SIGTERM, then SIGKILL if it lingers), by its id.
    public func stop() {
        guard let process, process.isRunning else { return }
        // A paused server would hold SIGTERM until continued.
        kill(process.processIdentifier, SIGCONT)
        let children = ChildProcesses.descendants(of: process.processIdentifier)
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            for child in children { kill(child, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    private func start(certificate: String?) throws {
        let (executable, arguments) = try launchCommand(certificate: certificate)
        let log = folder + "/server.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["RCLONE_CONFIG"] = folder + "/rclone.conf"
        process.environment = environment
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        while !FreePort.isAccepting(port) {
            guard process.isRunning, Date() < deadline else {
                stop()
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw StartError(description: "\(kind.rawValue) did not start on port \(port): \(text.suffix(2000))")
            }
            usleep(20_000)
        }
    }

    private func launchCommand(certificate: String?) throws -> (String, [String]) {
        switch kind {
        case .lighttpd:
            try write(lighttpdConfiguration(certificate: certificate), to: "lighttpd.conf")
            try write("\(user):\(password)\n", to: "users")
            return (try Self.find("lighttpd", package: "lighttpd"), ["-D", "-f", folder + "/lighttpd.conf"])
        case .apache:
            try write(apacheConfiguration(), to: "apache.conf")
            try write("\(user):\(try Self.apacheHash(password))\n", to: "users")
            try FileManager.default.createDirectory(atPath: folder + "/locks", withIntermediateDirectories: true)
            // Apache will not serve as root: it switches to www-data, which must own what it writes.
            if getuid() == 0 {
                for path in [documentRoot, folder + "/locks"] { Self.chown(path, to: "www-data") }
            }
            return (
                try Self.find("apache2", package: "apache2"), ["-X", "-DFOREGROUND", "-f", folder + "/apache.conf"]
            )
        case .rclone:
            return (
                try Self.find("rclone", package: "rclone"),
                [
                    "serve", "webdav", documentRoot, "--addr", "127.0.0.1:\(port)", "--user", user, "--pass", password,
                    "--log-level", "ERROR",
                ]
            )
        }
    }

    private func lighttpdConfiguration(certificate: String?) -> String {
        var lines = [
            "server.document-root = \"\(documentRoot)\"", "server.port = \(port)", "server.bind = \"127.0.0.1\"",
            "server.modules = (\"mod_webdav\", \"mod_auth\", \"mod_authn_file\", \"mod_accesslog\"\(certificate == nil ? "" : ", \"mod_openssl\""))",
            "server.errorlog = \"\(folder)/error.log\"", "auth.backend = \"plain\"",
            "accesslog.filename = \"\(accessLogPath)\"", "accesslog.format = \"%u %m %U %>s\"",
            "auth.backend.plain.userfile = \"\(folder)/users\"",
            "auth.require = ( \"/\" => (\"method\" => \"basic\", \"realm\" => \"authcat\", \"require\" => \"valid-user\") )",
            "webdav.activate = \"enable\"", "webdav.is-readonly = \"disable\"",
        ]
        if let certificate {
            lines += ["ssl.engine = \"enable\"", "ssl.pemfile = \"\(certificate)\""]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func apacheConfiguration() -> String {
        let modules = [
            ("mpm_event_module", "mod_mpm_event"), ("authz_core_module", "mod_authz_core"),
            ("authn_core_module", "mod_authn_core"), ("authn_file_module", "mod_authn_file"),
            ("auth_basic_module", "mod_auth_basic"), ("authz_user_module", "mod_authz_user"),
            ("dav_module", "mod_dav"), ("dav_fs_module", "mod_dav_fs"),
        ]
        var lines = [
            "ServerRoot \"\(folder)\"", "ServerName 127.0.0.1", "Listen 127.0.0.1:\(port)",
            "PidFile \"\(folder)/apache.pid\"", "ErrorLog \"\(folder)/error.log\"",
        ]
        lines += modules.map { "LoadModule \($0.0) /usr/lib/apache2/modules/\($0.1).so" }
        if getuid() == 0 { lines += ["User www-data", "Group www-data"] }
        lines += [
            "DocumentRoot \"\(documentRoot)\"", "DavLockDB \"\(folder)/locks/lock\"",
            "<Directory \"\(documentRoot)\">", "  Dav On", "  AuthType Basic", "  AuthName authcat",
            "  AuthUserFile \"\(folder)/users\"", "  Require valid-user", "</Directory>",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private func write(_ text: String, to name: String) throws {
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }

    /// An Apache password hash of `password`, made by `openssl passwd -apr1`.
    private static func apacheHash(_ password: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try find("openssl", package: "openssl"))
        process.arguments = ["passwd", "-apr1", password]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func chown(_ path: String, to user: String) {
        guard let entry = getpwnam(user) else { return }
        let owner = entry.pointee.pw_uid
        let group = entry.pointee.pw_gid
        _ = Glibc.chown(path, owner, group)
        // Its parents must let that user in.
        var parent = (path as NSString).deletingLastPathComponent
        while parent != "/" && !parent.isEmpty {
            var info = stat()
            if stat(parent, &info) == 0, info.st_mode & 0o001 == 0 { _ = chmod(parent, info.st_mode & 0o7777 | 0o711) }
            parent = (parent as NSString).deletingLastPathComponent
        }
    }

    /// `password` as rclone's configuration takes it (`rclone obscure`), for `RCLONE_CONFIG_<NAME>_PASS`.
    public static func rcloneObscured(_ password: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try find("rclone", package: "rclone"))
        process.arguments = ["obscure", password]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The program, or an error naming the Debian package (scripts/setup installs it).
    public static func find(_ name: String, package: String) throws -> String {
        for directory in ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin", "/sbin", "/bin"]
        where access(directory + "/" + name, X_OK) == 0 {
            return directory + "/" + name
        }
        throw StartError(description: "\(name) was not found; install Debian's \(package) package (scripts/setup does)")
    }
}
