import AuthCatEssentials
import Foundation
import XCTest

final class PBKDF2Tests: XCTestCase {
    /// RFC 6070's second vector (SHA-1), and the same inputs with SHA-256
    /// (as Python's `hashlib.pbkdf2_hmac` gives them).
    func testPublishedVectors() throws {
        let sha1 = try PBKDF2.deriveKey(
            password: SecretBytes(utf8: "password"), salt: Data("salt".utf8), iterations: 2, hash: .sha1, length: 20)
        XCTAssertEqual(hex(sha1), "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957")
        let sha256 = try PBKDF2.deriveKey(
            password: SecretBytes(utf8: "password"), salt: Data("salt".utf8), iterations: 2, hash: .sha256)
        XCTAssertEqual(hex(sha256), "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43")
    }

    func testIterationCountsAreBoundedBeforeAnyWork() {
        let password = SecretBytes(utf8: "pw")
        XCTAssertThrowsError(
            try PBKDF2.deriveKey(
                password: password, salt: Data("salt".utf8), iterations: PBKDF2.maximumIterations + 1, hash: .sha256)
        ) { error in
            XCTAssertEqual(
                error as? KeyDerivationLimitError,
                KeyDerivationLimitError(demand: .iterations(10_000_001, allowed: 10_000_000)))
            XCTAssertEqual(
                "\(error)",
                "the file asks for 10000001 PBKDF2 iterations for its key derivation; authcat allows at most 10000000")
        }
        XCTAssertThrowsError(try PBKDF2.deriveKey(password: password, salt: Data("s".utf8), iterations: 0, hash: .sha1))
        XCTAssertThrowsError(try PBKDF2.deriveKey(password: password, salt: Data(), iterations: 1, hash: .sha1))
    }

    private func hex(_ key: SecretBytes) -> String {
        key.unprotectedData().map { String(format: "%02x", $0) }.joined()
    }
}
