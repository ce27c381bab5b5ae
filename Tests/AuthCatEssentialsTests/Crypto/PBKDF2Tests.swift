import AuthCatEssentials
import Foundation
import XCTest

/// PBKDF2 through Nettle, against published vectors, and its bound.
final class PBKDF2Tests: XCTestCase {
    private func hex(_ key: SecretBytes) -> String {
        key.unprotectedData().map { String(format: "%02x", $0) }.joined()
    }

    /// RFC 6070's HMAC-SHA1 vectors 1, 3 and 5 (4096 iterations, a longer password and salt).
    func testRFC6070Vectors() throws {
        let password = SecretBytes(utf8: "password")
        XCTAssertEqual(
            hex(try PBKDF2.deriveKey(.sha1, password: password, salt: Data("salt".utf8), iterations: 1, length: 20)),
            "0c60c80f961f0e71f3a9b524af6012062fe037a6")
        XCTAssertEqual(
            hex(try PBKDF2.deriveKey(.sha1, password: password, salt: Data("salt".utf8), iterations: 4096, length: 20)),
            "4b007901b765489abead49d926f721d065a429c1")
        XCTAssertEqual(
            hex(
                try PBKDF2.deriveKey(
                    .sha1, password: SecretBytes(utf8: "passwordPASSWORDpassword"),
                    salt: Data("saltSALTsaltSALTsaltSALTsaltSALTsalt".utf8), iterations: 4096, length: 25)),
            "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038")
    }

    /// RFC 7914 section 11's PBKDF2-HMAC-SHA256 vector, and SHA-512 giving a different key.
    func testSHA256AndSHA512() throws {
        let key = try PBKDF2.deriveKey(
            .sha256, password: SecretBytes(utf8: "passwd"), salt: Data("salt".utf8), iterations: 1, length: 64)
        XCTAssertEqual(
            hex(key),
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
        let sha512 = try PBKDF2.deriveKey(
            .sha512, password: SecretBytes(utf8: "passwd"), salt: Data("salt".utf8), iterations: 1, length: 64)
        XCTAssertNotEqual(hex(sha512), hex(key))
    }

    func testIterationsAndLengthAreBoundedBeforeAnyWork() {
        XCTAssertThrowsError(
            try PBKDF2.deriveKey(.sha1, password: SecretBytes(utf8: "p"), salt: Data(), iterations: 2_000_001)
        ) {
            XCTAssertEqual(
                "\($0)",
                "the file asks for 2000001 PBKDF2 iterations for its key derivation; authcat allows at most 2000000")
        }
        XCTAssertThrowsError(try PBKDF2.deriveKey(.sha1, password: SecretBytes(utf8: "p"), salt: Data(), iterations: 0))
        XCTAssertThrowsError(
            try PBKDF2.deriveKey(.sha1, password: SecretBytes(utf8: "p"), salt: Data(), iterations: 1, length: 65))
    }
}
