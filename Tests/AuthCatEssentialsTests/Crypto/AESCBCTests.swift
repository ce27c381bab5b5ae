import AuthCatEssentials
import Foundation
import XCTest

/// AES-256-CBC with PKCS #7 padding through Nettle.
final class AESCBCTests: XCTestCase {
    private static func bytes(_ hex: String) -> Data {
        Data(stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! })
    }

    /// NIST SP 800-38A, F.2.5 (CBC-AES256.Encrypt), its first two blocks;
    /// sealing adds a block of padding after them.
    private let key = SecretBytes(bytes("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"))
    private let iv = bytes("000102030405060708090a0b0c0d0e0f")
    private let plaintext = bytes("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51")
    private let ciphertext = bytes("f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d")

    func testThePublishedVectorSealsAndOpens() throws {
        let sealed = try AESCBC.seal(plaintext, key: key, iv: iv)
        XCTAssertEqual(sealed.count, 48)
        XCTAssertEqual(sealed.prefix(32), ciphertext)
        XCTAssertEqual(try AESCBC.open(sealed, key: key, iv: iv), plaintext)
        for length in [0, 1, 15, 16, 17] {
            let text = Data(repeating: 0x61, count: length)
            XCTAssertEqual(try AESCBC.open(AESCBC.seal(text, key: key, iv: iv), key: key, iv: iv), text)
        }
    }

    func testBadPaddingAndShapesAreRefused() throws {
        let sealed = try AESCBC.seal(plaintext, key: key, iv: iv)
        // Without its padding block, the last block ends in plaintext, not padding.
        XCTAssertThrowsError(try AESCBC.open(sealed.prefix(32), key: key, iv: iv)) {
            XCTAssertEqual($0 as? CryptoError, .authenticationFailed)
        }
        XCTAssertThrowsError(try AESCBC.open(sealed.prefix(40), key: key, iv: iv))
        XCTAssertThrowsError(try AESCBC.open(Data(), key: key, iv: iv))
        XCTAssertThrowsError(try AESCBC.open(sealed, key: key, iv: iv.prefix(8)))
        XCTAssertThrowsError(try AESCBC.open(sealed, key: SecretBytes(count: 16), iv: iv))
    }
}
