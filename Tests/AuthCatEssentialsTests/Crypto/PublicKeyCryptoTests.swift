import AuthCatEssentials
import XCTest

final class PublicKeyCryptoTests: XCTestCase {
    /// RFC 8032 §7.1, test 1: libsodium's secret key is the seed followed by the public key.
    func testEd25519MatchesTheRFC8032Vector() throws {
        let seed = try XCTUnwrap(hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        let publicKey = try XCTUnwrap(hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        let expected = try XCTUnwrap(
            hex(
                "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
                    + "d25bf5f0595bbe24655141438e7a100b"))
        let secretKey = SecretBytes(seed + publicKey)
        XCTAssertEqual(try PublicKeyCrypto.signingPublicKey(of: secretKey), publicKey)
        XCTAssertEqual(try PublicKeyCrypto.sign(Data(), secretKey: secretKey), expected)
        XCTAssertTrue(try PublicKeyCrypto.isValidSignature(expected, of: Data(), publicKey: publicKey))
    }

    func testASignatureFailsForAnotherMessageKeyOrAChangedByte() throws {
        let pair = try PublicKeyCrypto.signingKeyPair()
        let other = try PublicKeyCrypto.signingKeyPair()
        let message = Data("rotation to epoch 2".utf8)
        var signature = try PublicKeyCrypto.sign(message, secretKey: pair.secretKey)
        XCTAssertTrue(try PublicKeyCrypto.isValidSignature(signature, of: message, publicKey: pair.publicKey))
        XCTAssertFalse(try PublicKeyCrypto.isValidSignature(signature, of: message + [0], publicKey: pair.publicKey))
        XCTAssertFalse(try PublicKeyCrypto.isValidSignature(signature, of: message, publicKey: other.publicKey))
        XCTAssertFalse(
            try PublicKeyCrypto.isValidSignature(signature.prefix(63), of: message, publicKey: pair.publicKey))
        XCTAssertFalse(try PublicKeyCrypto.isValidSignature(signature, of: message, publicKey: Data(count: 5)))
        signature[10] ^= 1
        XCTAssertFalse(try PublicKeyCrypto.isValidSignature(signature, of: message, publicKey: pair.publicKey))
    }

    func testASealedBoxOpensOnlyWithItsKeyPairAndUnchanged() throws {
        let recipient = try PublicKeyCrypto.boxKeyPair()
        let stranger = try PublicKeyCrypto.boxKeyPair()
        let secret = try SecretBytes.random(count: 32)
        var box = try PublicKeyCrypto.sealed(secret, to: recipient.publicKey)
        XCTAssertEqual(box.count, 32 + PublicKeyCrypto.sealOverhead)
        XCTAssertEqual(try PublicKeyCrypto.openSealed(box, keyPair: recipient), secret)
        XCTAssertEqual(try PublicKeyCrypto.boxPublicKey(of: recipient.secretKey), recipient.publicKey)
        XCTAssertThrowsError(try PublicKeyCrypto.openSealed(box, keyPair: stranger)) {
            XCTAssertEqual($0 as? CryptoError, .authenticationFailed)
        }
        XCTAssertThrowsError(try PublicKeyCrypto.openSealed(box.prefix(20), keyPair: recipient)) {
            XCTAssertEqual($0 as? CryptoError, .authenticationFailed)
        }
        box[box.count - 1] ^= 1
        XCTAssertThrowsError(try PublicKeyCrypto.openSealed(box, keyPair: recipient)) {
            XCTAssertEqual($0 as? CryptoError, .authenticationFailed)
        }
        XCTAssertThrowsError(try PublicKeyCrypto.sealed(secret, to: Data(count: 31))) {
            XCTAssertEqual($0 as? CryptoError, .invalidInput("x25519 public key must be 32 bytes"))
        }
    }

    /// BLAKE2b-256 of the empty message (RFC 7693's algorithm, 32-byte digest).
    func testBlake2bMatchesTheKnownDigestAndDependsOnTheKey() throws {
        XCTAssertEqual(
            try PublicKeyCrypto.hash(Data()),
            hex("0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"))
        let key = try SecretBytes.random(count: 32)
        let keyed = try PublicKeyCrypto.hash(Data("x".utf8), key: key)
        XCTAssertNotEqual(keyed, try PublicKeyCrypto.hash(Data("x".utf8)))
        XCTAssertNotEqual(keyed, try PublicKeyCrypto.hash(Data("x".utf8), key: try SecretBytes.random(count: 32)))
        XCTAssertThrowsError(try PublicKeyCrypto.hash(Data(), key: SecretBytes(count: 8)))
    }

    func testConstantTimeEqualityComparesWholeValues() {
        XCTAssertTrue(PublicKeyCrypto.constantTimeEqual(Data([1, 2, 3]), Data([1, 2, 3])))
        XCTAssertFalse(PublicKeyCrypto.constantTimeEqual(Data([1, 2, 3]), Data([1, 2, 4])))
        XCTAssertFalse(PublicKeyCrypto.constantTimeEqual(Data([1, 2, 3]), Data([1, 2])))
        XCTAssertTrue(PublicKeyCrypto.constantTimeEqual(Data(), Data()))
    }

    private func hex(_ text: String) -> Data? {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return Data(bytes)
    }
}
