import AuthCatEssentials
import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// WebDAVRemote against real servers on loopback, one of each for the class:
/// lighttpd's mod_webdav and Apache's mod_dav (both honour `If-None-Match`)
/// and `rclone serve webdav` (which ignores it).
final class WebDAVRemoteTests: XCTestCase {
    private static let servers = ClassWebDAVServers([.lighttpd, .apache, .rclone])
    private var remotes: [WebDAVRemote] = []

    override class func setUp() {
        super.setUp()
        servers.start()
    }

    override class func tearDown() {
        servers.stop()
        super.tearDown()
    }

    override func tearDown() async throws {
        for remote in remotes { try await remote.close() }
        remotes = []
    }

    private func remote(on kind: WebDAVServer.Kind, password: String? = nil) throws -> WebDAVRemote {
        let remote = try Self.servers.running(kind).makeRemote(password: password)
        remotes.append(remote)
        return remote
    }

    func testConformanceOnLighttpd() async throws {
        let remote = try remote(on: .lighttpd)
        try await remote.prepare()
        XCTAssertEqual(remote.capabilities.createOnlyEnforced, true, "lighttpd refuses a second create-only put")
        try await RemoteConformance(remote: remote).runAll()
    }

    func testConformanceOnApache() async throws {
        let remote = try remote(on: .apache)
        try await remote.prepare()
        XCTAssertEqual(remote.capabilities.createOnlyEnforced, true, "Apache refuses a second create-only put")
        // mod_dav checks If-None-Match and then writes, without a lock between
        // the two: a second create-only put is refused, but two racing ones
        // can both succeed (seen under load). docs/SECURITY.md says what that costs.
        try await RemoteConformance(remote: remote, createIsAtomic: false).runAll()
    }

    /// `rclone serve webdav` ignores `If-None-Match`: the probe finds it out,
    /// and `create` looks first (which cannot promise one winner of a race).
    func testAServerThatIgnoresCreateOnlyPutsIsDetected() async throws {
        let remote = try remote(on: .rclone)
        try await remote.prepare()
        XCTAssertEqual(remote.capabilities.createOnlyEnforced, false)
        try await RemoteConformance(remote: remote, createIsAtomic: false).runAll()
    }

    /// Once probed, a remote made with the recorded answer does not probe again.
    func testTheRecordedProbeIsUsed() async throws {
        let server = try Self.servers.running(.rclone)
        let configuration = server.configuration()
        let prepared = WebDAVRemote(
            configuration: configuration,
            credentials: WebDAVCredentials(user: server.user, password: SecretBytes(utf8: server.password)))
        remotes.append(prepared)
        try await prepared.prepare()
        let recorded = WebDAVRemote(
            configuration: configuration,
            credentials: WebDAVCredentials(user: server.user, password: SecretBytes(utf8: server.password)),
            createOnlyEnforced: false)
        remotes.append(recorded)
        XCTAssertEqual(recorded.capabilities.createOnlyEnforced, false)
        let created = try await recorded.create("manifest", data: Data("one".utf8))
        let again = try await recorded.create("manifest", data: Data("two".utf8))
        XCTAssertEqual([created, again], [true, false])
        let read = try await recorded.get("manifest")
        XCTAssertEqual(read, Data("one".utf8))
    }

    func testAWrongPasswordIsRejectedWithoutBeingShown() async throws {
        for kind in [WebDAVServer.Kind.lighttpd, .apache, .rclone] {
            let wrong = "not-the-password-\(kind.rawValue)"
            let remote = try remote(on: kind, password: wrong)
            do {
                try await remote.prepare()
                XCTFail("\(kind): a wrong password was accepted")
            } catch let error as RemoteError {
                XCTAssertEqual(error.kind, .credentialsRejected, "\(kind): \(error)")
                XCTAssertFalse(error.description.contains(wrong), "\(kind): \(error)")
                XCTAssertTrue(error.description.contains("app password"), "\(error)")
            }
        }
    }

    /// The password's sources are named, not an S3 key (issue 33 §9).
    func testAWrongPasswordIsAnsweredInWebDAVTerms() async throws {
        let remote = try remote(on: .lighttpd, password: "not-the-password")
        do {
            try await remote.prepare()
            XCTFail("a wrong password was accepted")
        } catch let error as RemoteError {
            XCTAssertTrue(error.description.contains("WebDAV user name and password (HTTP 401)"), "\(error)")
            XCTAssertTrue(error.description.contains("AUTHCAT_WEBDAV_PASSWORD_FILE or ~/.netrc"), "\(error)")
            XCTAssertFalse(error.description.contains("access key"), "\(error)")
        }
    }

    /// davs:// to a port that speaks plain http (a user's typo, or a server
    /// without TLS): the error says so and gives the dav:// location, not a
    /// certificate problem (issue 33 §9).
    func testDavsToAPlainHTTPPortSaysTheServerDoesNotSpeakTLS() async throws {
        let server = try Self.servers.running(.lighttpd)
        XCTAssertEqual(server.scheme, "http")
        var configuration = server.configuration()
        configuration.scheme = "https"
        let remote = WebDAVRemote(
            configuration: configuration,
            credentials: WebDAVCredentials(user: server.user, password: SecretBytes(utf8: server.password)),
            timeout: 5)
        remotes.append(remote)
        do {
            try await remote.prepare()
            XCTFail("TLS to a plain http port succeeded")
        } catch let error as RemoteError {
            XCTAssertTrue(error.description.contains("the server does not speak TLS on this port"), "\(error)")
            XCTAssertTrue(
                error.description.contains("write the location as dav://alice@127.0.0.1:\(server.port)/"), "\(error)")
            XCTAssertFalse(error.description.contains("certificate"), "\(error)")
        }
    }

    func testNoPasswordForAServerThatWantsOne() async throws {
        let server = try Self.servers.running(.lighttpd)
        var configuration = server.configuration()
        configuration.user = nil
        let remote = WebDAVRemote(configuration: configuration, credentials: nil)
        remotes.append(remote)
        await assertRemoteError(.credentialsRejected) { try await remote.prepare() }
    }

    /// A device that joined finds the base folder gone: the account is not available.
    func testAMissingBaseFolderIsAMissingContainer() async throws {
        let remote = try remote(on: .lighttpd)
        await assertRemoteError(.containerMissing) { _ = try await remote.list(prefix: "") }
    }

    func testNoServerIsUnreachable() async throws {
        let configuration = WebDAVConfiguration(
            scheme: "http", host: "127.0.0.1", port: try FreePort.find(), user: "alice", path: "/vault")
        let remote = WebDAVRemote(
            configuration: configuration,
            credentials: WebDAVCredentials(user: "alice", password: SecretBytes(utf8: "x")),
            timeout: 2)
        remotes.append(remote)
        await assertRemoteError(.unreachable) { _ = try await remote.list(prefix: "") }
    }

    /// Deleting the last object of a folder removes the folders it leaves empty, as on the folder remote.
    func testDeletingLeavesNoEmptyFolders() async throws {
        let server = try Self.servers.running(.lighttpd)
        let folder = "t-\(UUID().uuidString.lowercased())"
        let remote = server.makeRemote(folder: folder)
        remotes.append(remote)
        try await remote.prepare()
        try await remote.put("authcat-v/d1/b-0000000001", data: Data("one".utf8))
        try await remote.put("authcat-v/d1/b-0000000002", data: Data("two".utf8))
        try await remote.put("authcat-v.deleted", data: Data("marker".utf8))
        let base = server.documentRoot + "/" + folder + "/vault"
        try await remote.delete("authcat-v/d1/b-0000000001")
        XCTAssertTrue(FileManager.default.fileExists(atPath: base + "/authcat-v/d1"))
        try await remote.delete("authcat-v/d1/b-0000000002")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: base).sorted(), ["authcat-v.deleted"])
        let listed = try await remote.list(prefix: "")
        XCTAssertEqual(listed.map(\.name), ["authcat-v.deleted"])
        // Writing there again makes the folders anew.
        try await remote.put("authcat-v/d1/b-0000000003", data: Data("three".utf8))
        let read = try await remote.get("authcat-v/d1/b-0000000003")
        XCTAssertEqual(read, Data("three".utf8))
    }

    /// Files another tool left (a desktop client's, a probe a kill left) are not listed.
    func testForeignFilesAreNotListed() async throws {
        let server = try Self.servers.running(.lighttpd)
        let folder = "t-\(UUID().uuidString.lowercased())"
        let remote = server.makeRemote(folder: folder)
        remotes.append(remote)
        try await remote.prepare()
        try await remote.put("manifest", data: Data("m".utf8))
        let base = server.documentRoot + "/" + folder + "/vault"
        for name in [".authcat-probe-left", "notes (conflict).txt", "manifest_conflict-1"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: base + "/" + name, contents: Data("x".utf8)))
        }
        let listed = try await remote.list(prefix: "")
        XCTAssertEqual(listed.map(\.name), ["manifest"])
    }

    /// An object over `RemoteObject.maximumSize` (a sparse file behind the server) is refused unread.
    func testAnOversizedObjectIsRefused() async throws {
        let server = try Self.servers.running(.lighttpd)
        let folder = "t-\(UUID().uuidString.lowercased())"
        let remote = server.makeRemote(folder: folder)
        remotes.append(remote)
        try await remote.prepare()
        try await remote.put("manifest", data: Data("m".utf8))
        XCTAssertEqual(
            truncate(server.documentRoot + "/" + folder + "/vault/manifest", off_t(RemoteObject.maximumSize) + 1), 0)
        do {
            _ = try await remote.get("manifest")
            XCTFail("an oversized object was read")
        } catch let error as RemoteError {
            XCTAssertEqual(error.kind, .objectRefused, "\(error)")
        }
    }

    private func assertRemoteError(
        _ kind: RemoteError.Kind, file: StaticString = #filePath, line: UInt = #line,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            XCTFail("expected a \(kind) error", file: file, line: line)
        } catch let error as RemoteError {
            XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
    }
}
