import AuthCatSync
import AuthCatTestSupport
import Foundation
import XCTest

final class S3CredentialsTests: XCTestCase {
    private var home: TemporaryFolder!

    override func setUpWithError() throws {
        home = try makeTemporaryFolder()
    }

    private func writeCredentialsFile(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: home.path + "/.aws", withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: home.path + "/.aws/credentials"))
    }

    private func resolve(profile: String? = nil, _ environment: [String: String] = [:]) throws -> S3Credentials {
        try S3Credentials.resolve(
            profile: profile, environment: environment, homeDirectory: home.path, location: "s3://bucket1")
    }

    private func secret(_ credentials: S3Credentials) -> String {
        credentials.secretAccessKey.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    private let file = """
        # comment
        [default]
        aws_access_key_id = AKIADEFAULT
        aws_secret_access_key = default-secret

        [work]
        aws_access_key_id=AKIAWORK
        aws_secret_access_key=work-secret
        aws_session_token = work-token
        ; another comment
        [profile legacy]
        aws_access_key_id = AKIALEGACY
        aws_secret_access_key = legacy-secret
        """

    func testEnvironmentComesFirst() throws {
        try writeCredentialsFile(file)
        let credentials = try resolve(
            profile: "work",
            ["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token"])
        XCTAssertEqual(credentials.accessKeyId, "AKIAENV")
        XCTAssertEqual(secret(credentials), "env-secret")
        XCTAssertEqual(credentials.sessionToken, "env-token")
    }

    func testDefaultProfileFromFile() throws {
        try writeCredentialsFile(file)
        let credentials = try resolve()
        XCTAssertEqual(credentials.accessKeyId, "AKIADEFAULT")
        XCTAssertEqual(secret(credentials), "default-secret")
        XCTAssertNil(credentials.sessionToken)
    }

    func testLocationProfileThenAWSProfile() throws {
        try writeCredentialsFile(file)
        XCTAssertEqual(try resolve(profile: "work", ["AWS_PROFILE": "legacy"]).accessKeyId, "AKIAWORK")
        XCTAssertEqual(try resolve(profile: "work").sessionToken, "work-token")
        XCTAssertEqual(try resolve(["AWS_PROFILE": "legacy"]).accessKeyId, "AKIALEGACY")
    }

    func testSharedCredentialsFileVariable() throws {
        let path = home.path + "/elsewhere"
        try Data("[default]\naws_access_key_id=AKIAELSE\naws_secret_access_key=s\n".utf8).write(
            to: URL(fileURLWithPath: path))
        XCTAssertEqual(try resolve(["AWS_SHARED_CREDENTIALS_FILE": path]).accessKeyId, "AKIAELSE")
    }

    func testMissingCredentialsSayWhatToDo() async throws {
        let none = await assertRemoteError(.credentialsRejected) { try self.resolve() }
        XCTAssertTrue(none?.description.contains("AWS_ACCESS_KEY_ID") == true, none?.description ?? "")
        try writeCredentialsFile(file)
        let noProfile = await assertRemoteError(.credentialsRejected) { try self.resolve(profile: "nope") }
        XCTAssertTrue(noProfile?.description.contains("[nope]") == true, noProfile?.description ?? "")
        let half = await assertRemoteError(.credentialsRejected) { try self.resolve(["AWS_ACCESS_KEY_ID": "AKIAONLY"]) }
        XCTAssertTrue(half?.description.contains("both") == true, half?.description ?? "")
    }

    func testErrorsNeverContainSecrets() async throws {
        try writeCredentialsFile("[broken]\naws_access_key_id = AKIABROKEN\n")
        let error = await assertRemoteError(.credentialsRejected) { try self.resolve(profile: "broken") }
        XCTAssertFalse(error?.description.contains("AKIABROKEN") == true)
    }

    /// A FIFO, a huge file or another user's file at the credentials path is
    /// refused at once: nothing hangs, fills memory or picks the account.
    func testACredentialsFileThatIsNotAPlainFileOfYoursIsRefused() throws {
        let path = home.path + "/planted"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        XCTAssertThrowsError(try resolve(["AWS_SHARED_CREDENTIALS_FILE": path])) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
        unlink(path)

        let huge = home.path + "/huge"
        XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: nil))
        XCTAssertEqual(truncate(huge, 2 << 20), 0, "2 MiB, over the 1 MiB bound")
        XCTAssertThrowsError(try resolve(["AWS_SHARED_CREDENTIALS_FILE": huge])) { error in
            XCTAssertTrue("\(error)".contains("larger than"), "\(error)")
        }

        guard getuid() == 0 else { return print("not root: another user's file is not tried") }
        let foreign = home.path + "/foreign"
        try Data(file.utf8).write(to: URL(fileURLWithPath: foreign))
        XCTAssertEqual(chown(foreign, 65534, 65534), 0)
        XCTAssertThrowsError(try resolve(["AWS_SHARED_CREDENTIALS_FILE": foreign])) { error in
            XCTAssertTrue("\(error)".contains("belongs to another user"), "\(error)")
        }
    }
}
