import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// S3Remote against a real S3 server: moto_server on loopback, with signatures checked.
final class S3RemoteTests: XCTestCase {
    private static let moto = MotoServer.ForTestClass("moto")
    private var remotes: [S3Remote] = []

    override class func setUp() {
        super.setUp()
        moto.start()
    }

    override class func tearDown() {
        moto.stop()
        super.tearDown()
    }

    override func setUpWithError() throws {
        _ = try Self.moto.running()
    }

    override func tearDown() async throws {
        for remote in remotes { try await remote.close() }
        remotes = []
    }

    private var server: MotoServer {
        get throws { try Self.moto.running() }
    }

    /// A remote under a fresh prefix, so that each test starts empty.
    private func makeRemote(
        bucket: String? = nil, options: String = "", credentials: S3Credentials? = nil, listPageSize: Int? = nil
    ) throws -> S3Remote {
        let server = try self.server
        let configuration = try server.configuration(
            bucket: bucket, prefix: "t-\(UUID().uuidString.lowercased())", options: options)
        let remote = S3Remote(
            configuration: configuration, credentials: credentials ?? server.credentials, timeout: 30,
            listPageSize: listPageSize)
        remotes.append(remote)
        return remote
    }

    func testConformance() async throws {
        let remote = try makeRemote()
        try await remote.prepare()
        XCTAssertEqual(remote.capabilities, RemoteCapabilities(createOnlyEnforced: true))
        try await RemoteConformance(remote: remote).runAll()
    }

    func testConformanceWithoutConditionalWrites() async throws {
        // HEAD-then-PUT cannot promise one winner among racing writers.
        let remote = try makeRemote(options: "&conditional_writes=false")
        XCTAssertEqual(remote.capabilities, RemoteCapabilities(createOnlyEnforced: false))
        try await RemoteConformance(remote: remote, createIsAtomic: false).runAll()
    }

    func testListFollowsContinuationTokens() async throws {
        let remote = try makeRemote(listPageSize: 7)
        let names = (1...40).map { String(format: "devices/d1/batch-%06d", $0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in names { group.addTask { try await remote.put(name, data: Data(name.utf8)) } }
            try await group.waitForAll()
        }
        try await remote.put("manifest", data: Data("m".utf8))
        let listed = try await remote.list(prefix: "devices/")
        XCTAssertEqual(listed.map(\.name), names, "all 40 objects across 6 pages of 7")
        XCTAssertEqual(listed.first?.size, names.first?.utf8.count)
        let all = try await remote.list(prefix: "")
        XCTAssertEqual(all.count, 41)
    }

    func testAdaptsToMotoDecodingSlashesInTheQuery() async throws {
        // moto checks signatures over the query after decoding %2F (a known server-mode quirk).
        let remote = try makeRemote()
        XCTAssertFalse(remote.signsQuerySlashesUnencoded)
        try await remote.put("devices/a/batch-000001", data: Data("x".utf8))
        let names = try await remote.list(prefix: "devices/").map(\.name)
        XCTAssertEqual(names, ["devices/a/batch-000001"])
        XCTAssertTrue(remote.signsQuerySlashesUnencoded)
    }

    func testListIgnoresForeignKeysAndOtherPrefixes() async throws {
        let remote = try makeRemote()
        let neighbour = try makeRemote()
        try await remote.put("manifest", data: Data("mine".utf8))
        try await neighbour.put("manifest", data: Data("theirs".utf8))
        let raw = try await remote.send(
            .PUT, key: remote.configuration.key(for: "folder with spaces/x"), body: Data("junk".utf8))
        XCTAssertEqual(raw.status, 200)
        let names = try await remote.list(prefix: "").map(\.name)
        XCTAssertEqual(names, ["manifest"])
        let read = try await remote.get("manifest")
        XCTAssertEqual(read, Data("mine".utf8))
    }

    func testCreateUsesIfNoneMatchAndNeverOverwrites() async throws {
        let remote = try makeRemote()
        XCTAssertTrue(remote.usesConditionalWrites)
        let first = try await remote.create("manifest", data: Data("one".utf8))
        let second = try await remote.create("manifest", data: Data("two".utf8))
        XCTAssertTrue(first)
        XCTAssertFalse(second)
        let read = try await remote.get("manifest")
        XCTAssertEqual(read, Data("one".utf8))
        XCTAssertTrue(remote.usesConditionalWrites, "moto honours If-None-Match, so no fallback was needed")
    }

    func testWrongSecretIsCredentialsRejectedWithoutLeakingIt() async throws {
        let server = try self.server
        let wrong = S3Credentials(
            accessKeyId: server.credentials.accessKeyId, secretAccessKey: "wrong-secret-value-123")
        let remote = try makeRemote(credentials: wrong)
        let error = await assertRemoteError(.credentialsRejected) { try await remote.list(prefix: "") }
        XCTAssertTrue(error?.description.contains("SignatureDoesNotMatch") == true, error?.description ?? "")
        XCTAssertFalse(error?.description.contains("wrong-secret-value-123") == true)
        await assertRemoteError(.credentialsRejected) { try await remote.put("manifest", data: Data("x".utf8)) }
        await assertRemoteError(.credentialsRejected) { try await remote.get("manifest") }
    }

    func testUnknownAccessKeyIsCredentialsRejected() async throws {
        let unknown = S3Credentials(accessKeyId: "AKIAUNKNOWNKEY000000", secretAccessKey: "whatever")
        let remote = try makeRemote(credentials: unknown)
        let error = await assertRemoteError(.credentialsRejected) { try await remote.prepare() }
        XCTAssertTrue(error?.description.contains("InvalidAccessKeyId") == true, error?.description ?? "")
    }

    func testMissingBucketIsContainerMissing() async throws {
        let remote = try makeRemote(bucket: "no-such-bucket-authcat")
        await assertRemoteError(.containerMissing) { try await remote.prepare() }
        await assertRemoteError(.containerMissing) { try await remote.list(prefix: "") }
        await assertRemoteError(.containerMissing) { try await remote.get("manifest") }
        await assertRemoteError(.containerMissing) { try await remote.put("manifest", data: Data()) }
        await assertRemoteError(.containerMissing) { try await remote.create("manifest", data: Data()) }
        await assertRemoteError(.containerMissing) { try await remote.delete("manifest") }
    }

    func testStoppedServerIsUnreachable() async throws {
        let server = try self.server
        let port = try FreePort.find()
        let configuration = try RemoteLocation(parsing: "s3://authcat-test/x?endpoint=http://127.0.0.1:\(port)")
        guard case .s3(let settings) = configuration else { return XCTFail("not s3") }
        let remote = S3Remote(configuration: settings, credentials: server.credentials, timeout: 2)
        remotes.append(remote)
        let error = await assertRemoteError(.unreachable) { try await remote.get("manifest") }
        XCTAssertTrue(error?.description.contains("127.0.0.1:\(port)") == true, error?.description ?? "")
        // Refused at once, not waited out to the request's deadline.
        XCTAssertTrue(error?.description.contains("connection refused") == true, error?.description ?? "")
    }

    func testNamesAreValidatedBeforeAnyRequest() async throws {
        let remote = try makeRemote()
        await assertRemoteError(.invalidObjectName) { try await remote.put("../escape", data: Data()) }
        await assertRemoteError(.invalidObjectName) { try await remote.get("/manifest") }
        let names = try await remote.list(prefix: "")
        XCTAssertEqual(names, [])
    }

    func testCloseTwiceIsFineAndLaterRequestsFail() async throws {
        let remote = try makeRemote()
        try await remote.close()
        try await remote.close()
        await assertRemoteError(.protocolError) { try await remote.get("manifest") }
    }

    func testFactoryMakesAWorkingRemoteFromEnvironmentCredentials() async throws {
        let server = try self.server
        let secret = server.credentials.secretAccessKey.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        let environment = ["AWS_ACCESS_KEY_ID": server.credentials.accessKeyId, "AWS_SECRET_ACCESS_KEY": secret]
        let remote = try await AuthCatSync.makeRemote(
            location: server.location(prefix: "factory-\(UUID().uuidString.lowercased())"),
            environment: environment, homeDirectory: "/nonexistent")
        if let s3 = remote as? S3Remote { remotes.append(s3) } else { XCTFail("expected an S3Remote") }
        try await remote.prepare()
        let created = try await remote.create("manifest", data: Data("via factory".utf8))
        XCTAssertTrue(created)
    }
}
