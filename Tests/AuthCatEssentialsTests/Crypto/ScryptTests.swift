import AuthCatEssentials
import Foundation
import XCTest

final class ScryptTests: XCTestCase {
    /// RFC 7914 section 12, third vector.
    func testRFC7914Vector() throws {
        let key = try Scrypt.deriveKey(password: SecretBytes(utf8: "password"), salt: Data("NaCl".utf8),
                                       n: 1024, r: 8, p: 16, length: 64)
        let expected = "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
        XCTAssertEqual(key.unprotectedData().map { String(format: "%02x", $0) }.joined(), expected)
    }

    func testHostileParametersAreRefusedBeforeAnyWork() {
        let password = SecretBytes(utf8: "pw")
        let salt = Data("salt".utf8)
        XCTAssertThrowsError(try Scrypt.deriveKey(password: password, salt: salt, n: 1000, r: 8, p: 1))
        XCTAssertThrowsError(try Scrypt.deriveKey(password: password, salt: salt, n: 1 << 40, r: 8, p: 1))
        XCTAssertThrowsError(try Scrypt.deriveKey(password: password, salt: salt, n: 1 << 62, r: UInt32.max, p: 1))
        XCTAssertThrowsError(try Scrypt.deriveKey(password: password, salt: salt, n: 1024, r: 0, p: 1))
        XCTAssertThrowsError(try Scrypt.deriveKey(password: SecretBytes(count: 0), salt: salt, n: 1024, r: 8, p: 1))
        XCTAssertThrowsError(try Scrypt.deriveKey(password: password, salt: Data(), n: 1024, r: 8, p: 1))
    }
}
