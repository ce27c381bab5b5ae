import AuthCatEssentials
import AuthCatTesting
import Foundation
import XCTest

final class AEADTests: XCTestCase {
    func testRoundTripAndTamperDetection() throws {
        let key = try SecretBytes.random(count: AEAD.keySize)
        let box = try AEAD.seal(Data("hello".utf8), key: key, associatedData: Data("ad".utf8))
        XCTAssertEqual(box.count, AEAD.nonceSize + 5 + AEAD.tagSize)
        XCTAssertEqual(
            try AEAD.open(box, key: key, associatedData: Data("ad".utf8)).unprotectedData(), Data("hello".utf8))
        var tampered = box
        tampered[tampered.count - 1] ^= 1
        XCTAssertThrowsError(try AEAD.open(tampered, key: key, associatedData: Data("ad".utf8)))
        XCTAssertThrowsError(try AEAD.open(box, key: key, associatedData: Data("other".utf8)))
        XCTAssertThrowsError(try AEAD.open(box.prefix(10), key: key, associatedData: Data("ad".utf8)))
        XCTAssertThrowsError(
            try AEAD.open(box, key: try SecretBytes.random(count: AEAD.keySize), associatedData: Data("ad".utf8)))
    }

    func testNoncesAreFresh() throws {
        let key = try SecretBytes.random(count: AEAD.keySize)
        let one = try AEAD.seal(Data("same".utf8), key: key, associatedData: Data())
        let two = try AEAD.seal(Data("same".utf8), key: key, associatedData: Data())
        XCTAssertNotEqual(one.prefix(AEAD.nonceSize), two.prefix(AEAD.nonceSize))
    }

    func testWrongKeySizeIsRefused() {
        XCTAssertThrowsError(try AEAD.seal(Data(), key: SecretBytes(count: 16), associatedData: Data()))
    }

    func testArgon2idIsDeterministicPerSalt() throws {
        let parameters = try KDFParameters.minimumForTesting()
        let one = try parameters.deriveKey(from: SecretBytes(utf8: "pass"))
        XCTAssertEqual(one, try parameters.deriveKey(from: SecretBytes(utf8: "pass")))
        XCTAssertNotEqual(one, try parameters.deriveKey(from: SecretBytes(utf8: "Pass")))
        XCTAssertNotEqual(one, try KDFParameters.minimumForTesting().deriveKey(from: SecretBytes(utf8: "pass")))
        XCTAssertThrowsError(try parameters.deriveKey(from: SecretBytes(count: 0)))
    }
}
