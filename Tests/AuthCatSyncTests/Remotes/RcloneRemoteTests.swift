import AuthCatEssentials
import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// RcloneRemote driving the real `rclone` program: its local backend, and its
/// WebDAV backend pointed at a lighttpd server of the class, both configured
/// through `RCLONE_CONFIG_*` variables only.
final class RcloneRemoteTests: XCTestCase {
    private static let servers = ClassWebDAVServers([.lighttpd])

    override class func setUp() {
        super.setUp()
        servers.start()
    }

    override class func tearDown() {
        servers.stop()
        super.tearDown()
    }

    /// rclone's environment: no configuration file of the developer's, the given remotes.
    private func environment(_ remotes: [String: String]) throws -> [String: String] {
        var environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let folder = try makeTemporaryFolder()
        environment["HOME"] = folder.path
        environment["RCLONE_CONFIG"] = folder.path + "/rclone.conf"
        for (name, value) in remotes { environment["RCLONE_CONFIG_" + name] = value }
        return environment
    }

    private func localRemote() async throws -> (RcloneRemote, String) {
        let folder = try makeTemporaryFolder().path + "/remote"
        let remote = try await RcloneRemote(
            configuration: RcloneConfiguration(remote: "testlocal", path: folder),
            environment: try environment(["TESTLOCAL_TYPE": "local"]))
        return (remote, folder)
    }

    private func webDAVRemote(password: String? = nil) async throws -> RcloneRemote {
        let server = try Self.servers.running(.lighttpd)
        let obscured = try WebDAVServer.rcloneObscured(password ?? server.password)
        return try await RcloneRemote(
            configuration: RcloneConfiguration(remote: "nas", path: "t-\(UUID().uuidString.lowercased())/vault"),
            environment: try environment([
                "NAS_TYPE": "webdav", "NAS_URL": server.origin, "NAS_VENDOR": "other", "NAS_USER": server.user,
                "NAS_PASS": obscured,
            ]))
    }

    func testConformanceOnTheLocalBackend() async throws {
        let (remote, _) = try await localRemote()
        try await remote.prepare()
        XCTAssertEqual(remote.capabilities, RemoteCapabilities(createOnlyEnforced: false))
        try await RemoteConformance(remote: remote, createIsAtomic: false).runAll()
    }

    /// The checks that depend on the backend (the local backend's run covers
    /// the rest): not the
    /// version of an object rewritten at the same size, which through rclone
    /// is a WebDAV file's modification time, to the second on lighttpd
    /// (RcloneRemote says so).
    func testConformanceOnTheWebDAVBackend() async throws {
        let remote = try await webDAVRemote()
        try await remote.prepare()
        let conformance = RemoteConformance(remote: remote, createIsAtomic: false)
        try await conformance.checkEmptyRemote()
        try await conformance.checkPutGetRoundTrip()
        try await conformance.checkCreateNeverOverwrites()
        try await conformance.checkListPrefixes()
        try await conformance.checkBinaryAndEmptyObjects()
    }

    func testDeletingLeavesNoEmptyFolders() async throws {
        let (remote, folder) = try await localRemote()
        try await remote.prepare()
        try await remote.put("authcat-v/d1/b-0000000001", data: Data("one".utf8))
        try await remote.put("authcat-v.deleted", data: Data("marker".utf8))
        try await remote.delete("authcat-v/d1/b-0000000001")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["authcat-v.deleted"])
    }

    func testAMissingFolderIsAMissingContainer() async throws {
        let (remote, _) = try await localRemote()
        await assertRemoteError(.containerMissing) { _ = try await remote.list(prefix: "") }
    }

    func testAWrongPasswordIsRejectedWithoutBeingShown() async throws {
        let remote = try await webDAVRemote(password: "wrong-password-for-rclone")
        await assertRemoteError(.credentialsRejected) { try await remote.prepare() }
    }

    func testAnUnknownRemoteSaysSo() async throws {
        let remote = try await RcloneRemote(
            configuration: RcloneConfiguration(remote: "nosuchremote", path: "x"), environment: try environment([:]))
        await assertRemoteError(.invalidLocation) { try await remote.prepare() }
    }

    func testAServerThatIsGoneIsUnreachable() async throws {
        let port = try FreePort.find()
        let remote = try await RcloneRemote(
            configuration: RcloneConfiguration(remote: "gone", path: "x"),
            environment: try environment([
                "GONE_TYPE": "webdav", "GONE_URL": "http://127.0.0.1:\(port)", "GONE_VENDOR": "other",
            ]), deadline: 20)
        await assertRemoteError(.unreachable) { _ = try await remote.list(prefix: "") }
    }

    func testMissingRcloneNamesTheDebianPackage() async throws {
        do {
            _ = try await RcloneRemote(
                configuration: RcloneConfiguration(remote: "r", path: "x"),
                environment: ["PATH": "/nonexistent", "AUTHCAT_RCLONE": "/nonexistent/rclone"])
            XCTFail("expected a missing rclone")
        } catch let error as RemoteError {
            XCTAssertEqual(error.kind, .invalidLocation)
            XCTAssertTrue(error.description.contains("Debian's rclone package"), "\(error)")
        }
    }

    /// rclone starts when the remote is made, before any request: a deadline
    /// on the first request measures the remote, not rclone's start.
    func testMakingTheRemoteStartsRclone() async throws {
        let (remote, _) = try await localRemote()
        let configuration = "RCLONE_CONFIG=" + (try XCTUnwrap(remote.program.environment["RCLONE_CONFIG"]))
        XCTAssertEqual(ChildProcesses.running(withEnvironment: configuration, program: "rclone").count, 1)
        try await remote.close()
    }

    /// An rclone that fails at its start is named with its last words, when the remote is made.
    func testAnRcloneThatDoesNotStartSaysWhy() async throws {
        let program = try makeTemporaryFolder().path + "/rclone"
        try Data("#!/bin/sh\necho 'ERROR : cannot bind: address in use' >&2\nexit 1\n".utf8)
            .write(to: URL(fileURLWithPath: program))
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: program)
        var environment = try environment([:])
        environment["AUTHCAT_RCLONE"] = program
        do {
            _ = try await RcloneRemote(
                configuration: RcloneConfiguration(remote: "r", path: "x"), environment: environment)
            XCTFail("expected rclone not to start")
        } catch let error as RemoteError {
            XCTAssertEqual(error.kind, .unreachable)
            XCTAssertTrue(error.description.contains("rclone's remote control did not start"), "\(error)")
            XCTAssertTrue(error.description.contains("cannot bind: address in use"), "\(error)")
        }
    }

    /// One rclone serves every request (its remote control), with its user and
    /// password in its environment, not in its arguments, and stops at `close`.
    func testOneRcloneProcessServesTheRemoteUntilItIsClosed() async throws {
        let (remote, _) = try await localRemote()
        let configuration = "RCLONE_CONFIG=" + (try XCTUnwrap(remote.program.environment["RCLONE_CONFIG"]))
        try await remote.prepare()
        for index in 0..<5 {
            try await remote.put("authcat-v/d1/b-000000000\(index)", data: Data("object \(index)".utf8))
            _ = try await remote.get("authcat-v/d1/b-000000000\(index)")
        }
        let listed = try await remote.list(prefix: "authcat-v/")
        XCTAssertEqual(listed.count, 5)
        let rclones = ChildProcesses.running(withEnvironment: configuration, program: "rclone")
        XCTAssertEqual(rclones.count, 1, "one rclone for all the requests")
        for pid in rclones {
            let arguments = String(
                decoding: FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data(), as: UTF8.self)
            XCTAssertTrue(arguments.contains("rcd"), arguments)
            XCTAssertFalse(arguments.contains("RCLONE_RC_PASS") || arguments.contains("--rc-pass"), arguments)
            XCTAssertNil(arguments.range(of: "[0-9a-f]{64}", options: .regularExpression), "no token in its arguments")
            let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            XCTAssertTrue(String(decoding: environment, as: UTF8.self).contains("RCLONE_RC_PASS="))
            XCTAssertNotEqual(getsid(pid), getsid(0), "a Ctrl-C on authcat's terminal does not reach it")
        }
        try await remote.close()
        XCTAssertEqual(ChildProcesses.running(withEnvironment: configuration), [], "rclone and its shell stopped")
    }

    /// Another local user, who can reach the port but not the password, is refused.
    func testTheRemoteControlRefusesRequestsWithoutItsPassword() async throws {
        let (remote, _) = try await localRemote()
        try await remote.prepare()
        let configuration = "RCLONE_CONFIG=" + (try XCTUnwrap(remote.program.environment["RCLONE_CONFIG"]))
        let pid = try XCTUnwrap(ChildProcesses.running(withEnvironment: configuration, program: "rclone").first)
        let origin = try XCTUnwrap(Self.listeningOrigin(of: pid))
        let transport = HTTPTransport(idleTimeout: 5, deadline: 10)
        defer { transport.close() }
        for authorization in [nil, "Basic " + Data("user:guess".utf8).base64EncodedString()] {
            let request = S3Request(
                method: .POST, url: origin + "/operations/list",
                headers: [("content-type", "application/json")] + (authorization.map { [("authorization", $0)] } ?? []),
                body: Data(#"{"fs":"/","remote":""}"#.utf8))
            let response = try await transport.send(request, maximumBytes: 64 * 1024)
            XCTAssertEqual(response.status, 401, "\(authorization ?? "no password")")
        }
        try await remote.close()
    }

    /// `http://127.0.0.1:PORT` of the TCP socket `pid` listens on, from /proc.
    private static func listeningOrigin(of pid: Int32) -> String? {
        let sockets = Set(
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
            }.filter { $0.hasPrefix("socket:[") }.map { String($0.dropFirst(8).dropLast()) })
        let table = (try? String(contentsOfFile: "/proc/\(pid)/net/tcp", encoding: .utf8)) ?? ""
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            // local address, state 0A (listening), inode
            guard fields.count > 9, fields[3] == "0A", sockets.contains(String(fields[9])),
                let port = Int(fields[1].split(separator: ":").last ?? "", radix: 16)
            else { continue }
            return "http://127.0.0.1:\(port)"
        }
        return nil
    }

    /// An object over `RemoteObject.maximumSize` is refused once rclone has sent that much.
    func testAnOversizedObjectIsRefused() async throws {
        let (remote, folder) = try await localRemote()
        try await remote.prepare()
        try await remote.put("manifest", data: Data("m".utf8))
        XCTAssertEqual(truncate(folder + "/manifest", off_t(RemoteObject.maximumSize) + 1), 0)
        await assertRemoteError(.objectRefused) { _ = try await remote.get("manifest") }
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
            XCTAssertFalse(error.description.contains("wrong-password"), "\(error)", file: file, line: line)
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
    }

    /// What rclone quotes (a URL, a path) holds any text: only its own words tell the kind of failure.
    func testAFailureIsToldByRclonesWordsNotByTheNamesItQuotes() throws {
        let remote = try RcloneRemote(
            unstarted: RcloneConfiguration(remote: "nas", path: "t-6403-token"), environment: [:])
        func kind(_ said: String) -> RemoteError.Kind {
            let body = try? JSONSerialization.data(withJSONObject: ["error": said])
            return remote.failure(RcloneControlServer.Reply(status: 500, body: body ?? Data()), doing: "list").kind
        }
        let quotedName = #"read metadata failed: Propfind "https://127.0.0.1:24429/t-6403-token": x509: "#
        XCTAssertNotEqual(kind(quotedName + "certificate signed by unknown authority"), .credentialsRejected)
        XCTAssertEqual(kind(quotedName + "401 Unauthorized"), .credentialsRejected)
        XCTAssertEqual(kind("couldn't list files: 403 Forbidden"), .credentialsRejected)
        XCTAssertEqual(kind("Authentication failed"), .credentialsRejected)
        XCTAssertEqual(kind(#"failed to get "t-40321": quotaExceeded"#), .protocolError)
        XCTAssertEqual(kind(#"Propfind "https://h/eof-507": dial tcp: connection refused"#), .unreachable)
        XCTAssertEqual(kind("unexpected EOF"), .unreachable)
        XCTAssertEqual(kind(#"object "x/4031/token" is odd"#), .protocolError)
    }
}
