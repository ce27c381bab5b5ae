import AuthCatEssentials
import Foundation
import XCTest

final class AESCBCTests: XCTestCase {
    private let key = SecretBytes(Array(0..<32))
    private let iv = Data(0..<16)

    /// The ciphertext Python's `cryptography` gives for the same key, IV and padded text.
    func testAgreesWithAnIndependentImplementation() throws {
        let ciphertext = try Base16.decode("38f9891d4cf199e9eb5fefc3de36190a8a37fd86a66c7b018e77e06d989a4181")
            .unprotectedData()
        XCTAssertEqual(try AESCBC.open(ciphertext, key: key, iv: iv), Data("authcat reads other apps".utf8))
        XCTAssertEqual(try AESCBC.seal(Data("authcat reads other apps".utf8), key: key, iv: iv), ciphertext)
    }

    func testEveryLengthRoundTripsAndBadPaddingOrSizesAreRefused() throws {
        for length in 0...33 {
            let plaintext = Data((0..<length).map { UInt8($0) })
            let sealed = try AESCBC.seal(plaintext, key: key, iv: iv)
            XCTAssertEqual(sealed.count, (length / 16 + 1) * 16)
            XCTAssertEqual(try AESCBC.open(sealed, key: key, iv: iv), plaintext)
        }
        let sealed = try AESCBC.seal(Data("x".utf8), key: key, iv: iv)
        XCTAssertThrowsError(try AESCBC.open(sealed, key: SecretBytes(Array(1...32)), iv: iv)) {
            XCTAssertEqual($0 as? CryptoError, .authenticationFailed)
        }
        XCTAssertThrowsError(try AESCBC.open(sealed.dropLast(), key: key, iv: iv))
        XCTAssertThrowsError(try AESCBC.open(Data(), key: key, iv: iv))
        XCTAssertThrowsError(try AESCBC.open(sealed, key: key, iv: iv.dropLast()))
        XCTAssertThrowsError(try AESCBC.open(sealed, key: key.prefix(16), iv: iv))
    }
}
