import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatEssentials

final class Base32Tests: XCTestCase {
    /// RFC 4648 section 10.
    private let rfc4648: [(plain: String, encoded: String)] = [
        ("f", "MY======"), ("fo", "MZXQ===="), ("foo", "MZXW6==="), ("foob", "MZXW6YQ="),
        ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI======"),
    ]

    func testDecodesRFC4648VectorsWithAndWithoutPadding() throws {
        for (plain, encoded) in rfc4648 {
            XCTAssertEqual(try Base32.decode(encoded).unprotectedData(), Data(plain.utf8), encoded)
            let unpadded = encoded.replacingOccurrences(of: "=", with: "")
            XCTAssertEqual(try Base32.decode(unpadded).unprotectedData(), Data(plain.utf8), unpadded)
        }
    }

    func testEncodesRFC4648VectorsUppercaseWithoutPadding() {
        for (plain, encoded) in rfc4648 {
            XCTAssertEqual(
                Base32.encode(SecretBytes(Array(plain.utf8))), encoded.replacingOccurrences(of: "=", with: ""))
        }
        XCTAssertEqual(Base32.encode(SecretBytes(count: 0)), "")
    }

    func testForgivesCaseSpacesDashesAndLineBreaks() throws {
        let expected = Data("Hello!".utf8) + Data([0xDE, 0xAD, 0xBE, 0xEF])
        for text in [
            "JBSWY3DPEHPK3PXP", "jbswy3dpehpk3pxp", "JBSW Y3DP EHPK 3PXP", "jbsw-y3dp-ehpk-3pxp",
            "  JBSWY3DP\tEHPK3PXP\r\n", "JbSw Y3dP-eHpK 3PxP ", "JBSWY3DPEHPK3PXP========",
        ] {
            XCTAssertEqual(try Base32.decode(text).unprotectedData(), expected, text)
        }
    }

    func testPaddingMayBeFollowedBySeparatorsOnly() throws {
        XCTAssertEqual(try Base32.decode("MY== ==  \n").unprotectedData(), Data("f".utf8))
        XCTAssertThrowsError(try Base32.decode("MY==MY")) { error in
            XCTAssertEqual(error as? Base32Error, .misplacedPadding(position: 3))
        }
    }

    func testIgnoresLeftoverBitsAfterTheLastByte() throws {
        // "MY" and "MZ" differ only in the two bits after the first byte.
        XCTAssertEqual(try Base32.decode("MZ").unprotectedData(), Data("f".utf8))
        // 26 random characters, as some sites generate: 16 bytes and 2 spare bits.
        XCTAssertEqual(try Base32.decode("ABCDEFGHIJKLMNOPQRSTUVWXYZ").count, 16)
    }

    func testRejectsEmptyInput() {
        for text in ["", "   ", "====", " - -\n", "-"] {
            XCTAssertThrowsError(try Base32.decode(text), text.debugDescription) { error in
                XCTAssertEqual(error as? Base32Error, .empty)
            }
        }
    }

    func testRejectsInvalidCharactersNamingCharacterAndPosition() {
        let cases: [(String, Unicode.Scalar, Int)] = [
            ("JBSW1Y3D", "1", 5), ("0BSWY3DP", "0", 1), ("JBSWY3D8", "8", 8), ("JBSWY3D9", "9", 8),
            ("JBSWÄY3D", "Ä", 5), ("JB SW-!Y", "!", 7), ("JB\u{7}SW", "\u{7}", 3), ("JB\u{A0}SW", "\u{A0}", 3),
            ("JB👍SW", "👍", 3),
        ]
        for (text, scalar, position) in cases {
            XCTAssertThrowsError(try Base32.decode(text), text.debugDescription) { error in
                XCTAssertEqual(error as? Base32Error, .invalidCharacter(scalar, position: position))
            }
        }
    }

    func testInvalidCharacterMessageShowsOnlyTheCharacter() throws {
        let secret = "JBSWY3DPEHPK3PXP"
        let error = try XCTUnwrap(captureError { try Base32.decode(secret + "!") } as? Base32Error)
        XCTAssertEqual(
            error.description,
            "the secret has an invalid character \"!\" (U+0021) at position 17; "
                + "Base32 uses only the letters A to Z and the digits 2 to 7")
        XCTAssertFalse(error.description.contains("JBSW"))
    }

    func testControlCharactersAreShownAsCodePoints() {
        let description = Base32Error.invalidCharacter("\u{1B}", position: 2).description
        XCTAssertTrue(description.contains("U+001B"), description)
        XCTAssertFalse(description.contains("\u{1B}"))
    }

    func testRejectsImpossibleLengths() {
        for (text, count) in [
            ("A", 1), ("ABC", 3), ("ABCDEF", 6), ("ABCDEFGHA", 9), ("ABCD EFGH IJK", 11), ("MZXW6Y==", 6),
        ] {
            XCTAssertThrowsError(try Base32.decode(text), text) { error in
                XCTAssertEqual(error as? Base32Error, .invalidLength(count))
                XCTAssertTrue(
                    String(describing: error).contains(
                        count == 1 ? "has 1 Base32 character," : "has \(count) Base32 characters,"))
            }
        }
    }

    /// 2FAS, Ente Auth and Proton Authenticator keep such secrets and make codes
    /// from their whole bytes; `decodeSecret` reads them the same way and says so.
    func testDecodeSecretReadsNonCanonicalLengthsAsOtherAppsDo() throws {
        let cases: [(String, String, Int)] = [
            ("JBSWY3DPEHP", "48656c6c6f21", 7),  // 11 characters: 6 bytes and 7 bits
            ("JBSWY3DPEHPK3PXPQ", "48656c6c6f21deadbeef", 5),  // 17: 10 bytes and 5 bits
            ("jbsw y3dp ehpk 3pxp 7a2", "48656c6c6f21deadbeeff8", 7),  // 19: 11 bytes and 7 bits
            ("MZXW6Y==", "666f6f", 6),  // 6, padded
        ]
        for (text, hex, bits) in cases {
            let decoded = try Base32.decodeSecret(text)
            XCTAssertEqual(Base16.encode(decoded.secret), hex, text)
            let leftover = try XCTUnwrap(decoded.leftover, text)
            XCTAssertEqual(leftover.bytes, hex.count / 2)
            XCTAssertEqual(leftover.ignoredBits, bits)
            XCTAssertTrue(
                leftover.description.contains("\(leftover.characters) Base32 characters"), leftover.description)
            XCTAssertFalse(leftover.description.contains(text.prefix(6)), leftover.description)
            // The strict reader still refuses them.
            XCTAssertThrowsError(try Base32.decode(text)) {
                XCTAssertEqual($0 as? Base32Error, .invalidLength(leftover.characters))
            }
        }
    }

    func testDecodeSecretAgreesWithDecodeOnCanonicalLengthsAndSaysNothing() throws {
        for text in ["JBSWY3DPEHPK3PXP", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "MZXW6===", "MZXW6YQ", "ME"] {
            let decoded = try Base32.decodeSecret(text)
            XCTAssertNil(decoded.leftover, text)
            XCTAssertEqual(decoded.secret, try Base32.decode(text), text)
        }
    }

    /// Garbage stays refused: one character holds no byte, and bad characters are bad at any length.
    func testDecodeSecretStillRefusesGarbage() {
        XCTAssertThrowsError(try Base32.decodeSecret("A")) { XCTAssertEqual($0 as? Base32Error, .invalidLength(1)) }
        XCTAssertThrowsError(try Base32.decodeSecret("  ")) { XCTAssertEqual($0 as? Base32Error, .empty) }
        XCTAssertThrowsError(try Base32.decodeSecret("JBSWY3DPEH1")) {
            XCTAssertEqual($0 as? Base32Error, .invalidCharacter("1", position: 11))
        }
        XCTAssertThrowsError(try Base32.decodeSecret("JBSW=Y3DPEHP")) {
            XCTAssertEqual($0 as? Base32Error, .misplacedPadding(position: 5))
        }
    }

    /// Every length from 2 characters up reads as its whole bytes, exactly the
    /// bytes the characters' bits start with.
    func testDecodeSecretKeepsTheLeadingBitsForEveryLength() throws {
        var generator = Self.seededGenerator()
        let bytes = (0..<45).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let full = Base32.encode(SecretBytes(bytes))
        for length in 2...full.count {
            let decoded = try Base32.decodeSecret(String(full.prefix(length)))
            XCTAssertEqual(decoded.secret.unprotectedData(), Data(bytes.prefix(length * 5 / 8)), "length \(length)")
            XCTAssertEqual(decoded.leftover != nil, [1, 3, 6].contains(length % 8), "length \(length)")
        }
    }

    func testEveryErrorHasAReason() {
        let errors: [Base32Error] = [
            .empty, .invalidCharacter("x", position: 1), .misplacedPadding(position: 1), .invalidLength(1),
        ]
        for error in errors {
            XCTAssertTrue(error.description.hasPrefix("the secret "), error.description)
        }
    }

    func testRoundTripsEveryLength() throws {
        var generator = Self.seededGenerator()
        for length in 1...70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Base32.encode(SecretBytes(bytes))
            XCTAssertEqual(encoded.count, (length * 8 + 4) / 5)
            XCTAssertEqual(try Base32.decode(encoded).unprotectedData(), Data(bytes), "length \(length)")
            XCTAssertEqual(try Base32.decode(encoded.lowercased()).unprotectedData(), Data(bytes), "length \(length)")
        }
    }

    /// A megabyte gets the same exact answer as a few bytes do: garbage is
    /// refused at its first character, a text valid but for its last
    /// character is refused at that last position (so the whole text was
    /// read), and a megabyte of Base32 made from random bytes decodes to
    /// exactly those bytes (nothing cut, dropped or wrapped at any size).
    /// Nothing here is timed (timings belong in scripts/bench).
    func testCopesWithAMegabyte() throws {
        let megabyte = 1 << 20
        XCTAssertThrowsError(try Base32.decode(String(repeating: "!", count: megabyte))) { error in
            XCTAssertEqual(error as? Base32Error, .invalidCharacter("!", position: 1))
        }
        var generator = Self.seededGenerator()
        let random = String(
            decoding: (0..<megabyte).map { _ in UInt8.random(in: 0...255, using: &generator) }, as: UTF8.self)
        XCTAssertThrowsError(try Base32.decode("A" + random))
        let almost = String(repeating: "ABCDEFGH", count: megabyte / 8) + "1"
        XCTAssertThrowsError(try Base32.decode(almost)) { error in
            XCTAssertEqual(error as? Base32Error, .invalidCharacter("1", position: megabyte + 1))
        }
        // 640 KiB of random bytes are a megabyte of Base32, and come back byte for byte.
        let bytes = (0..<megabyte / 8 * 5).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let encoded = Base32.encode(SecretBytes(bytes))
        XCTAssertEqual(encoded.utf8.count, megabyte)
        XCTAssertTrue(try Base32.decode(encoded).unprotectedData() == Data(bytes), "a megabyte did not round-trip")
        XCTAssertTrue(
            try Base32.decode(encoded.lowercased()).unprotectedData() == Data(bytes), "lowercase did not round-trip")
    }

    private func captureError(_ body: () throws -> Any) -> Error? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    /// Random bytes that a failure can replay: the seed is printed, and
    /// AUTHCAT_TEST_SEED sets it.
    private static func seededGenerator() -> SeededRandom {
        let seed =
            ProcessInfo.processInfo.environment["AUTHCAT_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64.max)
        print("Base32Tests seed \(seed) (AUTHCAT_TEST_SEED=\(seed) replays it)")
        return SeededRandom(seed: seed)
    }
}
