import AuthCatEssentials
import AuthCatTestSupport
import Foundation

@testable import AuthCatSync

/// The WebDAV servers of one test class, started from its synchronous class
/// `setUp` (see `MotoServer.ForTestClass` for why) and stopped in its `tearDown`.
/// Tests are never skipped: a server that did not start throws the error
/// that names its Debian package.
///
/// `@unchecked Sendable`: held in a static property; XCTest runs a class's
/// `setUp`, tests and `tearDown` one at a time.
final class ClassWebDAVServers: @unchecked Sendable {
    private let kinds: [WebDAVServer.Kind]
    private let https: Bool
    private var servers: [WebDAVServer.Kind: WebDAVServer] = [:]
    private var startError: Error?
    private var folder: TemporaryFolder?
    /// The test CA that signed the servers' certificates, with `https`.
    private(set) var authority: TestCertificateAuthority?

    /// - Parameter https: serve HTTPS with a certificate of a test CA (lighttpd only).
    init(_ kinds: [WebDAVServer.Kind], https: Bool = false) {
        self.kinds = kinds
        self.https = https
    }

    func start() {
        do {
            let folder = try TemporaryFolder("webdav-servers")
            self.folder = folder
            if https { authority = try TestCertificateAuthority(folder: folder.path) }
            for kind in kinds {
                let path = folder.path + "/" + kind.rawValue
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                servers[kind] = try WebDAVServer(kind, folder: path, certificate: authority?.serverPEMFile)
            }
        } catch {
            startError = error
        }
    }

    func stop() {
        for server in servers.values { server.stop() }
        servers = [:]
        folder?.remove()
    }

    func running(_ kind: WebDAVServer.Kind) throws -> WebDAVServer {
        if let startError { throw startError }
        guard let server = servers[kind], server.isRunning else {
            throw WebDAVServer.StartError(description: "\(kind.rawValue) is not running")
        }
        return server
    }
}

extension WebDAVServer {
    /// A configuration for a fresh folder on this server, so that each test starts empty.
    func configuration(folder: String = "t-\(UUID().uuidString.lowercased())") -> WebDAVConfiguration {
        WebDAVConfiguration(
            scheme: scheme, host: "127.0.0.1", port: port, user: user, path: "/" + folder + "/vault")
    }

    /// A remote for a fresh folder, with this server's password (or `password`).
    func makeRemote(password: String? = nil, folder: String? = nil) -> WebDAVRemote {
        WebDAVRemote(
            configuration: folder.map { configuration(folder: $0) } ?? configuration(),
            credentials: WebDAVCredentials(user: user, password: SecretBytes(utf8: password ?? self.password)),
            timeout: 5)
    }
}
