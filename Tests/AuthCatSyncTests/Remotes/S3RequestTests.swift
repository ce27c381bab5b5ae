@testable import AuthCatSync
import AuthCatCore
import AuthCatTesting
import Foundation
import XCTest

/// The shape of S3 requests (addressing, signed headers), checked without a server.
final class S3RequestTests: XCTestCase {
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_369_353_600))
    private var remotes: [S3Remote] = []

    override func tearDown() async throws {
        for remote in remotes { try await remote.close() }
        remotes = []
    }

    private func remote(_ location: String, sessionToken: String? = nil) throws -> S3Remote {
        guard case let .s3(configuration) = try RemoteLocation(parsing: location) else {
            throw RemoteError.invalidLocation(location: location, reason: "not s3")
        }
        let credentials = S3Credentials(
            accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            sessionToken: sessionToken)
        let remote = S3Remote(configuration: configuration, credentials: credentials, clock: clock)
        remotes.append(remote)
        return remote
    }

    func testPathStyleRequest() throws {
        let remote = try remote("s3://my-bucket/vault?endpoint=http://127.0.0.1:9000")
        let request = remote.signedRequest(.GET, key: remote.configuration.key(for: "devices/a/batch-000001"), query: [], headers: [], body: Data())
        XCTAssertEqual(request.url, "http://127.0.0.1:9000/my-bucket/vault/devices/a/batch-000001")
        XCTAssertEqual(request.headers.first(name: "host"), "127.0.0.1:9000")
        XCTAssertEqual(request.headers.first(name: "x-amz-date"), "20130524T000000Z")
        XCTAssertEqual(request.headers.first(name: "x-amz-content-sha256"), SigV4Signer.emptyPayloadHash)
        let authorization = try XCTUnwrap(request.headers.first(name: "authorization"))
        XCTAssertTrue(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "))
        XCTAssertTrue(authorization.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date,"))
        XCTAssertFalse(authorization.contains("wJalrXUtnFEMI"))
    }

    func testVirtualHostedRequestOnAWS() throws {
        let remote = try remote("s3://my-bucket/vault?region=eu-west-1")
        XCTAssertFalse(remote.configuration.pathStyle)
        let request = remote.signedRequest(.GET, key: nil, query: [("list-type", "2"), ("prefix", "vault/")], headers: [], body: Data())
        XCTAssertEqual(request.url, "https://my-bucket.s3.eu-west-1.amazonaws.com/?list-type=2&prefix=vault%2F")
        XCTAssertEqual(request.headers.first(name: "host"), "my-bucket.s3.eu-west-1.amazonaws.com")
        XCTAssertTrue(request.headers.first(name: "authorization")?.contains("/eu-west-1/s3/aws4_request") == true)
    }

    func testPutSignsThePayloadAndConditionalHeader() throws {
        let remote = try remote("s3://my-bucket?endpoint=http://localhost:9000")
        let body = Data("Welcome to Amazon S3.".utf8)
        let request = remote.signedRequest(.PUT, key: "manifest", query: [], headers: [("if-none-match", "*")], body: body)
        XCTAssertEqual(request.url, "http://localhost:9000/my-bucket/manifest")
        XCTAssertEqual(request.headers.first(name: "x-amz-content-sha256"), "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        XCTAssertTrue(request.headers.first(name: "authorization")?.contains("SignedHeaders=host;if-none-match;x-amz-content-sha256;x-amz-date,") == true)
    }

    func testSessionTokenIsSentAndSigned() throws {
        let remote = try remote("s3://my-bucket?endpoint=http://localhost:9000", sessionToken: "FQoGZXIvYXdzEXAMPLE")
        let request = remote.signedRequest(.GET, key: "manifest", query: [], headers: [], body: Data())
        XCTAssertEqual(request.headers.first(name: "x-amz-security-token"), "FQoGZXIvYXdzEXAMPLE")
        XCTAssertTrue(request.headers.first(name: "authorization")?.contains("x-amz-date;x-amz-security-token,") == true)
    }

    func testErrorRepliesMapToKinds() throws {
        let remote = try remote("s3://my-bucket?endpoint=http://localhost:9000")
        func reply(_ status: Int, _ code: String?) -> S3Remote.Response {
            let body = code.map { "<?xml version=\"1.0\"?><Error><Code>\($0)</Code><Message>m</Message></Error>" } ?? ""
            return S3Remote.Response(status: status, body: Data(body.utf8), headers: [:])
        }
        XCTAssertEqual(remote.failure(reply(403, "SignatureDoesNotMatch"), doing: "read x").kind, .credentialsRejected)
        XCTAssertEqual(remote.failure(reply(403, "InvalidAccessKeyId"), doing: "read x").kind, .credentialsRejected)
        XCTAssertEqual(remote.failure(reply(403, "AccessDenied"), doing: "read x").kind, .credentialsRejected)
        XCTAssertEqual(remote.failure(reply(403, nil), doing: "check x").kind, .credentialsRejected)
        XCTAssertEqual(remote.failure(reply(404, "NoSuchBucket"), doing: "read x").kind, .containerMissing)
        XCTAssertEqual(remote.failure(reply(301, "PermanentRedirect"), doing: "read x").kind, .invalidLocation)
        let other = remote.failure(reply(500, "InternalError"), doing: "read x")
        XCTAssertEqual(other, .protocolError(location: remote.displayLocation, status: 500, detail: "cannot read x: InternalError"))
        XCTAssertEqual(other.description, "unexpected reply from s3://my-bucket?endpoint=http://localhost:9000&region=us-east-1 (HTTP 500): cannot read x: InternalError")
    }
}
