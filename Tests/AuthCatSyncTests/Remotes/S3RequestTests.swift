import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// The shape of S3 requests (addressing, signed headers), checked without a server.
final class S3RequestTests: XCTestCase {
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_369_353_600))
    private var remotes: [S3Remote] = []

    override func tearDown() async throws {
        for remote in remotes { try await remote.close() }
        remotes = []
    }

    private func remote(_ location: String, sessionToken: String? = nil) throws -> S3Remote {
        guard case .s3(let configuration) = try RemoteLocation(parsing: location) else {
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
        let request = remote.signedRequest(
            .GET, key: remote.configuration.key(for: "devices/a/batch-000001"), query: [], headers: [], body: Data())
        XCTAssertEqual(request.url, "http://127.0.0.1:9000/my-bucket/vault/devices/a/batch-000001")
        XCTAssertEqual(request.header("host"), "127.0.0.1:9000")
        XCTAssertEqual(request.header("x-amz-date"), "20130524T000000Z")
        XCTAssertEqual(request.header("x-amz-content-sha256"), SigV4Signer.emptyPayloadHash)
        let authorization = try XCTUnwrap(request.header("authorization"))
        XCTAssertTrue(
            authorization.hasPrefix(
                "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "))
        XCTAssertTrue(authorization.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date,"))
        XCTAssertFalse(authorization.contains("wJalrXUtnFEMI"))
    }

    func testVirtualHostedRequestOnAWS() throws {
        let remote = try remote("s3://my-bucket/vault?region=eu-west-1")
        XCTAssertFalse(remote.configuration.pathStyle)
        let request = remote.signedRequest(
            .GET, key: nil, query: [("list-type", "2"), ("prefix", "vault/")], headers: [], body: Data())
        XCTAssertEqual(request.url, "https://my-bucket.s3.eu-west-1.amazonaws.com/?list-type=2&prefix=vault%2F")
        XCTAssertEqual(request.header("host"), "my-bucket.s3.eu-west-1.amazonaws.com")
        XCTAssertTrue(request.header("authorization")?.contains("/eu-west-1/s3/aws4_request") == true)
    }

    func testPutSignsThePayloadAndConditionalHeader() throws {
        let remote = try remote("s3://my-bucket?endpoint=http://localhost:9000")
        let body = Data("Welcome to Amazon S3.".utf8)
        let request = remote.signedRequest(
            .PUT, key: "manifest", query: [], headers: [("if-none-match", "*")], body: body)
        XCTAssertEqual(request.url, "http://localhost:9000/my-bucket/manifest")
        XCTAssertEqual(
            request.header("x-amz-content-sha256"), "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        XCTAssertTrue(
            request.header("authorization")?.contains(
                "SignedHeaders=host;if-none-match;x-amz-content-sha256;x-amz-date,") == true)
    }

    func testSessionTokenIsSentAndSigned() throws {
        let remote = try remote("s3://my-bucket?endpoint=http://localhost:9000", sessionToken: "FQoGZXIvYXdzEXAMPLE")
        let request = remote.signedRequest(.GET, key: "manifest", query: [], headers: [], body: Data())
        XCTAssertEqual(request.header("x-amz-security-token"), "FQoGZXIvYXdzEXAMPLE")
        XCTAssertTrue(request.header("authorization")?.contains("x-amz-date;x-amz-security-token,") == true)
    }

    func testURLRequestCarriesThePathAndQueryExactlyAsSigned() throws {
        let remote = try remote("s3://my-bucket/vault?endpoint=http://127.0.0.1:9000")
        let key = remote.configuration.key(for: "a b+c~d/e%f")
        let query = [(name: "prefix", value: "x y+z~/"), (name: "continuation-token", value: "t/u=")]
        let request = remote.signedRequest(.GET, key: key, query: query, headers: [], body: Data())
        XCTAssertEqual(
            request.url,
            "http://127.0.0.1:9000/my-bucket/vault/a%20b%2Bc~d/e%25f?continuation-token=t%2Fu%3D&prefix=x%20y%2Bz~%2F")
        XCTAssertTrue(HTTPTransport.isSendable(request))
        let lines = HTTPTransport.headerLines(for: request)
        XCTAssertTrue(lines.contains("host: 127.0.0.1:9000"), "\(lines)")
        XCTAssertTrue(lines.contains("authorization: \(request.header("authorization") ?? "")"), "\(lines)")
        XCTAssertTrue(lines.contains("accept-encoding: identity"), "\(lines)")

        // The adaptation to servers that decode %2F before checking leaves '/' in the query as is.
        let raw = remote.signedRequest(
            .GET, key: nil, query: query, headers: [], body: Data(), querySlashesUnencoded: true)
        XCTAssertEqual(raw.url, "http://127.0.0.1:9000/my-bucket?continuation-token=t/u%3D&prefix=x%20y%2Bz~/")
        XCTAssertTrue(HTTPTransport.isSendable(raw))
    }

    func testPutCarriesItsBodyAndAHostWithADefaultPort() throws {
        let remote = try remote("s3://my-bucket?endpoint=https://storage.example:443")
        let request = remote.signedRequest(.PUT, key: "manifest", query: [], headers: [], body: Data("m".utf8))
        XCTAssertEqual(request.method, .PUT)
        XCTAssertEqual(request.body, Data("m".utf8))
        // libcurl would leave :443 out of a Host of its own; the signed one is sent instead.
        XCTAssertTrue(HTTPTransport.headerLines(for: request).contains("host: storage.example:443"))
    }

    func testErrorRepliesMapToKinds() throws {
        let remote = try remote("s3://my-bucket?endpoint=http://localhost:9000")
        func reply(_ status: Int, _ code: String?) -> S3Remote.Response {
            let body = code.map { "<?xml version=\"1.0\"?><Error><Code>\($0)</Code><Message>m</Message></Error>" } ?? ""
            return S3Remote.Response(status: status, body: Data(body.utf8), headers: [:], deadline: .now + .seconds(60))
        }
        XCTAssertEqual(remote.failure(reply(403, "SignatureDoesNotMatch"), doing: "read x").kind, .credentialsRejected)
        XCTAssertEqual(remote.failure(reply(403, "InvalidAccessKeyId"), doing: "read x").kind, .credentialsRejected)
        XCTAssertEqual(remote.failure(reply(403, "AccessDenied"), doing: "read x").kind, .credentialsRejected)
        XCTAssertEqual(remote.failure(reply(403, nil), doing: "check x").kind, .credentialsRejected)
        XCTAssertEqual(remote.failure(reply(404, "NoSuchBucket"), doing: "read x").kind, .containerMissing)
        XCTAssertEqual(remote.failure(reply(301, "PermanentRedirect"), doing: "read x").kind, .invalidLocation)
        let other = remote.failure(reply(500, "InternalError"), doing: "read x")
        XCTAssertEqual(
            other, .protocolError(location: remote.displayLocation, status: 500, detail: "cannot read x: InternalError")
        )
        XCTAssertEqual(
            other.description,
            "unexpected reply from s3://my-bucket?endpoint=http://localhost:9000&region=us-east-1 (HTTP 500): cannot read x: InternalError"
        )
    }
}
