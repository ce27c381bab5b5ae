import AuthCatEssentials
import Foundation
import XCTest

/// SHA-256 (FIPS 180-2's examples) and HMAC-SHA-256 (RFC 4231) through Nettle.
final class SHA256Tests: XCTestCase {
    func testTheStandardsExamples() {
        XCTAssertEqual(
            hex(Data(SHA256.hash(Data("abc".utf8)))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            hex(Data(SHA256.hash(Data()))), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testHMACOfRFC4231() {
        // Test case 2: a key shorter than the block.
        let mac = SHA256.authenticationCode(
            for: Data("what do ya want for nothing?".utf8), key: SecretBytes(utf8: "Jefe"))
        XCTAssertEqual(
            hex(mac.unprotectedData()), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than the block, hashed first.
        let long = SHA256.authenticationCode(
            for: Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            key: SecretBytes([UInt8](repeating: 0xaa, count: 131)))
        XCTAssertEqual(
            hex(long.unprotectedData()), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    private func hex(_ data: Data) -> String {
        Base16.encode(SecretBytes(data))
    }

    /// RFC 5869, test case 1: the expand step from its PRK.
    func testHKDFExpandOfRFC5869() throws {
        let prk = try Base16.decode("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        let okm = try SHA256.expandKey(prk, info: Data(0xf0...0xf9), length: 42)
        XCTAssertEqual(
            hex(okm.unprotectedData()),
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        XCTAssertThrowsError(try SHA256.expandKey(prk, info: Data(), length: 255 * 32 + 1))
    }
}
