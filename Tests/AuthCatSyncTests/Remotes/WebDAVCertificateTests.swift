import AuthCatEssentials
import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// HTTPS to a server whose certificate a test CA signed (made with openssl),
/// as a NAS with its own certificate authority: the system does not trust
/// it, so the WebDAV remote refuses it and says what to do; naming the CA
/// file to rclone's WebDAV backend (`RCLONE_CA_CERT`) trusts exactly that CA.
final class WebDAVCertificateTests: XCTestCase {
    private static let servers = ClassWebDAVServers([.lighttpd], https: true)

    override class func setUp() {
        super.setUp()
        servers.start()
    }

    override class func tearDown() {
        servers.stop()
        super.tearDown()
    }

    func testAnUntrustedCertificateIsRefusedWithAdvice() async throws {
        let server = try Self.servers.running(.lighttpd)
        XCTAssertEqual(server.scheme, "https")
        let remote = server.makeRemote()
        do {
            try await remote.prepare()
            XCTFail("a certificate the system does not trust was accepted")
        } catch let error as RemoteError {
            XCTAssertEqual(error.kind, .protocolError, "\(error)")
            XCTAssertTrue(error.description.contains("certificate is not trusted"), "\(error)")
            XCTAssertTrue(error.description.contains("RCLONE_CA_CERT"), "\(error)")
            XCTAssertFalse(error.description.contains(server.password), "\(error)")
        }
        try await remote.close()
    }

    /// No variable makes the WebDAV remote trust another CA: libcurl reads no
    /// CA variable (curl the program does), Debian's libcurl names its CA
    /// bundle, so OpenSSL's `SSL_CERT_FILE` is never consulted, and
    /// `URLSessionCertificateAuthorityInfoFile` (URLSession's, on Android) is
    /// nobody's. The system's store decides, as the README says.
    func testNoEnvironmentVariableMakesTheTransportTrustAnotherCA() async throws {
        let server = try Self.servers.running(.lighttpd)
        let authority = try XCTUnwrap(Self.servers.authority)
        let variables = ["URLSessionCertificateAuthorityInfoFile", "SSL_CERT_FILE", "CURL_CA_BUNDLE"]
        for name in variables { setenv(name, authority.certificateFile, 1) }
        defer { for name in variables { unsetenv(name) } }
        let remote = server.makeRemote()
        do {
            try await remote.prepare()
            XCTFail("a CA named in the environment is trusted now: offer it as the WebDAV remote's CA file")
        } catch let error as RemoteError {
            XCTAssertTrue(error.description.contains("certificate is not trusted"), "\(error)")
        }
        try await remote.close()
    }

    func testTheCAFileNamedToRcloneIsTrusted() async throws {
        let server = try Self.servers.running(.lighttpd)
        let authority = try XCTUnwrap(Self.servers.authority)
        let home = try makeTemporaryFolder().path
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home,
            "RCLONE_CONFIG": home + "/rclone.conf", "RCLONE_CONFIG_NAS_TYPE": "webdav",
            "RCLONE_CONFIG_NAS_URL": server.origin, "RCLONE_CONFIG_NAS_VENDOR": "other",
            "RCLONE_CONFIG_NAS_USER": server.user,
            "RCLONE_CONFIG_NAS_PASS": try WebDAVServer.rcloneObscured(server.password),
        ]
        let configuration = RcloneConfiguration(remote: "nas", path: "t-\(UUID().uuidString.lowercased())")
        let untrusting = try await RcloneRemote(configuration: configuration, environment: environment)
        do {
            try await untrusting.prepare()
            XCTFail("rclone trusted the test CA without being told to")
        } catch let error as RemoteError {
            XCTAssertNotEqual(error.kind, .credentialsRejected, "\(error)")
        }
        environment["RCLONE_CA_CERT"] = authority.certificateFile
        let trusting = try await RcloneRemote(configuration: configuration, environment: environment)
        try await trusting.prepare()
        try await trusting.put("manifest", data: Data("over https".utf8))
        let read = try await trusting.get("manifest")
        XCTAssertEqual(read, Data("over https".utf8))
    }
}
