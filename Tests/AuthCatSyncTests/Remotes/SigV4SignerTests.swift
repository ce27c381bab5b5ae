import Foundation
import XCTest

@testable import AuthCatSync

final class SigV4SignerTests: XCTestCase {
    private func request(for vector: SigV4Vector) -> SigV4Signer.Request {
        SigV4Signer.Request(
            method: vector.method, path: vector.path, query: vector.queryParameters,
            headers: vector.headers.map { ($0[0], $0[1]) },
            payloadHash: SigV4Signer.payloadHash(Data(vector.body.utf8)))
    }

    private func signer(for vector: SigV4Vector) -> SigV4Signer {
        SigV4Signer(
            credentials: S3Credentials(accessKeyId: vector.accessKeyId, secretAccessKey: vector.secretAccessKey),
            region: vector.region, service: vector.service)
    }

    func testPublishedVectorsLoad() throws {
        let vectors = try SigV4Vector.load()
        XCTAssertGreaterThanOrEqual(vectors.count, 17)
        for required in [
            "get-vanilla", "get-vanilla-query-order-key-case", "post-x-www-form-urlencoded",
            "s3-get-object-range", "s3-put-object", "s3-get-bucket-lifecycle", "s3-list-objects",
        ] {
            XCTAssertTrue(vectors.contains { $0.name == required }, required)
        }
    }

    func testCanonicalRequestsMatchPublishedOnes() throws {
        for vector in try SigV4Vector.load() {
            XCTAssertEqual(SigV4Signer.canonicalRequest(request(for: vector)), vector.canonicalRequest, vector.name)
        }
    }

    func testStringsToSignMatchPublishedOnes() throws {
        for vector in try SigV4Vector.load() {
            let text = signer(for: vector).stringToSign(for: request(for: vector), timestamp: vector.timestamp)
            XCTAssertEqual(text, vector.stringToSign, vector.name)
        }
    }

    func testAuthorizationHeadersMatchPublishedOnes() throws {
        for vector in try SigV4Vector.load() {
            let header = signer(for: vector).authorization(for: request(for: vector), timestamp: vector.timestamp)
            // The S3 reference prints the header without spaces after commas; both forms are valid.
            XCTAssertEqual(
                header.replacingOccurrences(of: ", ", with: ","),
                vector.authorization.replacingOccurrences(of: ", ", with: ","), vector.name)
        }
    }

    func testSentQueryStringIsTheCanonicalOne() {
        let query = SigV4Signer.queryString([
            ("prefix", "devices/a b"), ("list-type", "2"), ("continuation-token", "x+y/z="),
        ])
        XCTAssertEqual(query, "continuation-token=x%2By%2Fz%3D&list-type=2&prefix=devices%2Fa%20b")
    }

    func testPathIsEncodedOnceKeepingSlashes() {
        XCTAssertEqual(
            SigV4Signer.encode("/bucket/devices/a1/batch-000001", keepingSlashes: true),
            "/bucket/devices/a1/batch-000001")
        XCTAssertEqual(SigV4Signer.encode("/test$file.text", keepingSlashes: true), "/test%24file.text")
        XCTAssertEqual(SigV4Signer.encode("/a%20b", keepingSlashes: true), "/a%2520b")
    }

    func testTimestampIsUTC() {
        XCTAssertEqual(SigV4Signer.timestamp(for: Date(timeIntervalSince1970: 1_369_353_600)), "20130524T000000Z")
    }

    func testDifferentSecretGivesDifferentSignature() throws {
        let vector = try XCTUnwrap(SigV4Vector.load().first { $0.name == "s3-list-objects" })
        let wrong = SigV4Signer(
            credentials: S3Credentials(accessKeyId: vector.accessKeyId, secretAccessKey: "not the secret"),
            region: vector.region, service: vector.service)
        XCTAssertNotEqual(
            wrong.signature(for: request(for: vector), timestamp: vector.timestamp),
            signer(for: vector).signature(for: request(for: vector), timestamp: vector.timestamp))
    }

    func testCredentialsNeverPrintTheSecret() {
        let credentials = S3Credentials(
            accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI-secret", sessionToken: "token-secret")
        for text in [String(describing: credentials), String(reflecting: credentials), dumped(credentials)] {
            XCTAssertFalse(text.contains("wJalrXUtnFEMI"), text)
            XCTAssertFalse(text.contains("token-secret"), text)
            XCTAssertTrue(text.contains("AKIDEXAMPLE"), text)
        }
    }

    private func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}
