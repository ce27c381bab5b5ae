import AuthCatEssentials
import Foundation
import XCTest

/// AES-256-GCM through Nettle, against the published vector and with the
/// damage Aegis files can carry.
final class AESGCMTests: XCTestCase {
    /// Test case 15 of "The Galois/Counter Mode of Operation" (McGrew and
    /// Viega): AES-256, a 96-bit nonce, no associated data.
    private let key = SecretBytes(AESGCMTests.bytes("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
    private let nonce = AESGCMTests.bytes("cafebabefacedbaddecaf888")
    private let plaintext = AESGCMTests.bytes(
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
            + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255")
    private let ciphertext = AESGCMTests.bytes(
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
            + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad")
    private let tag = AESGCMTests.bytes("b094dac5d93471bdec1a502270e3cc6c")

    func testThePublishedVectorSealsAndOpens() throws {
        let sealed = try AESGCM.seal(plaintext, key: key, nonce: nonce)
        XCTAssertEqual(sealed.ciphertext, ciphertext)
        XCTAssertEqual(sealed.tag, tag)
        XCTAssertEqual(try AESGCM.open(ciphertext, key: key, nonce: nonce, tag: tag), plaintext)
    }

    func testAnyChangedByteOrAWrongKeyFailsAuthentication() throws {
        for index in [0, ciphertext.count - 1] {
            var changed = ciphertext
            changed[index] ^= 0x01
            XCTAssertThrowsError(try AESGCM.open(changed, key: key, nonce: nonce, tag: tag)) {
                XCTAssertEqual($0 as? CryptoError, .authenticationFailed)
            }
        }
        var changedTag = tag
        changedTag[15] ^= 0x80
        XCTAssertThrowsError(try AESGCM.open(ciphertext, key: key, nonce: nonce, tag: changedTag))
        var changedNonce = nonce
        changedNonce[0] ^= 0x01
        XCTAssertThrowsError(try AESGCM.open(ciphertext, key: key, nonce: changedNonce, tag: tag))
        let otherKey = try SecretBytes.random(count: AESGCM.keySize)
        XCTAssertThrowsError(try AESGCM.open(ciphertext, key: otherKey, nonce: nonce, tag: tag)) {
            XCTAssertEqual($0 as? CryptoError, .authenticationFailed)
        }
    }

    func testSizesAreCheckedBeforeAnyWork() {
        for (key, nonce, tag) in [
            (SecretBytes(count: 16), nonce, tag), (key, Data(), tag), (key, nonce, tag.prefix(12)),
        ] {
            XCTAssertThrowsError(try AESGCM.open(ciphertext, key: key, nonce: nonce, tag: tag)) {
                guard case .invalidInput? = $0 as? CryptoError else { return XCTFail("\($0)") }
            }
        }
    }

    func testAnEmptyMessageHasATagAndNothingElse() throws {
        let sealed = try AESGCM.seal(Data(), key: key, nonce: nonce)
        XCTAssertEqual(sealed.ciphertext, Data())
        XCTAssertEqual(sealed.tag.count, AESGCM.tagSize)
        XCTAssertEqual(try AESGCM.open(Data(), key: key, nonce: nonce, tag: sealed.tag), Data())
    }

    private static func bytes(_ text: String) -> Data {
        (try? Base16.decode(text).unprotectedData()) ?? Data()
    }

    private func hex(_ data: Data) -> String {
        Base16.encode(SecretBytes(data))
    }
}

extension AESGCMTests {
    /// Test case 16 of the same paper: test case 15's key and nonce, 60 bytes
    /// of its plaintext, and associated data, as FreeOTP binds each key to its name.
    func testThePublishedVectorWithAssociatedData() throws {
        let associatedData = Self.bytes("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let tag = Self.bytes("76fc6ece0f4e1768cddf8853bb2d551b")
        let sealed = try AESGCM.seal(plaintext.prefix(60), key: key, nonce: nonce, associatedData: associatedData)
        XCTAssertEqual(sealed.ciphertext, ciphertext.prefix(60))
        XCTAssertEqual(sealed.tag, tag)
        XCTAssertEqual(
            try AESGCM.open(ciphertext.prefix(60), key: key, nonce: nonce, tag: tag, associatedData: associatedData),
            plaintext.prefix(60))
        var other = associatedData
        other[0] ^= 1
        XCTAssertThrowsError(
            try AESGCM.open(ciphertext.prefix(60), key: key, nonce: nonce, tag: tag, associatedData: other)
        ) { XCTAssertEqual($0 as? CryptoError, .authenticationFailed) }
    }
}
