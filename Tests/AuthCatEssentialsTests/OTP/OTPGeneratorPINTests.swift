import Foundation
import XCTest

@testable import AuthCatEssentials

/// Yandex and mOTP codes against the published vectors, and the rules for their PINs and secrets.
final class OTPGeneratorPINTests: XCTestCase {
    private func date(_ vector: Vector) throws -> Date {
        Date(timeIntervalSince1970: TimeInterval(try vector.int64("time")))
    }

    func testYandexVectors() throws {
        let vectors = try VectorLoader.load("yandex.txt")
        XCTAssertEqual(vectors.count, 5)
        for vector in vectors {
            let secret = try OTPPIN.yandexSecret(try Base32.decode(vector["secret"]))
            XCTAssertEqual(secret.count, 16, "\(vector)")
            let code = try OTPGenerator.code(
                secret: secret, parameters: OTPParameters(kind: .yandex), at: date(vector),
                pin: SecretBytes(utf8: vector["pin"]))
            XCTAssertEqual(code.value, vector["code"], "\(vector)")
            let step = OTPGenerator.timeStep(at: try date(vector), period: 30)
            XCTAssertEqual(code.validFrom, Date(timeIntervalSince1970: TimeInterval(step * 30)))
            XCTAssertEqual(code.validUntil, Date(timeIntervalSince1970: TimeInterval(step * 30 + 30)))
        }
    }

    func testYandexCodeDependsOnThePIN() throws {
        let vector = try XCTUnwrap(VectorLoader.load("yandex.txt").first)
        let secret = try OTPPIN.yandexSecret(try Base32.decode(vector["secret"]))
        let other = try OTPGenerator.code(
            secret: secret, parameters: OTPParameters(kind: .yandex), at: date(vector),
            pin: SecretBytes(utf8: "5238"))
        XCTAssertNotEqual(other.value, vector["code"])
        XCTAssertEqual(other.value.count, 8)
        XCTAssertTrue(other.value.allSatisfy { ("a"..."z").contains($0) })
    }

    func testMOTPVectors() throws {
        let vectors = try VectorLoader.load("motp.txt")
        XCTAssertEqual(vectors.count, 6)
        for vector in vectors {
            let code = try OTPGenerator.code(
                secret: try Base16.decode(vector["secret"]), parameters: OTPParameters(kind: .motp),
                at: date(vector), pin: SecretBytes(utf8: vector["pin"]))
            XCTAssertEqual(code.value, vector["code"], "\(vector)")
            XCTAssertEqual(code.validUntil?.timeIntervalSince(try XCTUnwrap(code.validFrom)), 10)
        }
    }

    func testCodesWithoutTheirPINAreRefused() {
        for kind in [OTPKind.yandex, .motp] {
            XCTAssertThrowsError(
                try OTPGenerator.code(secret: SecretBytes(count: 16), parameters: OTPParameters(kind: kind), at: Date())
            ) {
                XCTAssertEqual($0 as? OTPParameterError, .missingPIN(kind))
            }
        }
    }

    func testFixedParameters() throws {
        XCTAssertEqual(
            OTPParameters(kind: .yandex), OTPParameters(kind: .yandex, algorithm: .sha256, digits: 8, period: 30))
        XCTAssertEqual(OTPParameters(kind: .motp), OTPParameters(kind: .motp, algorithm: .md5, digits: 6, period: 10))
        XCTAssertNoThrow(try OTPParameters(kind: .yandex).validate())
        XCTAssertNoThrow(try OTPParameters(kind: .motp).validate())
        for otp in [
            OTPParameters(kind: .yandex, digits: 6), OTPParameters(kind: .motp, period: 30),
            OTPParameters(kind: .yandex, algorithm: .sha1), OTPParameters(kind: .motp, algorithm: .sha1),
        ] {
            XCTAssertThrowsError(try otp.validate()) { XCTAssertEqual($0 as? OTPParameterError, .fixed(otp.kind)) }
        }
        for kind in [OTPKind.totp, .hotp, .steam] {
            XCTAssertThrowsError(try OTPParameters(kind: kind, algorithm: .md5).validate()) {
                XCTAssertEqual($0 as? OTPParameterError, .md5)
            }
        }
        XCTAssertThrowsError(try OTPGenerator.totp(secret: SecretBytes(count: 20), time: Date(), algorithm: .md5))
        XCTAssertThrowsError(try OTPGenerator.hotp(secret: SecretBytes(count: 20), counter: 0, algorithm: .md5))
    }

    // MARK: Yandex secrets

    func testYandexSecretChecksum() throws {
        // Aegis's YandexInfoTest: a correct 26-byte secret, the 16-byte form from a QR code,
        // one with its first letter changed, and one of a wrong size.
        let full = try Base32.decode("LA2V6KMCGYMWWVEW64RNP3JA3IAAAAAAHTSG4HRZPI")
        XCTAssertEqual(try OTPPIN.yandexSecret(full), try Base32.decode("LA2V6KMCGYMWWVEW64RNP3JA3I"))
        let fromQR = try Base32.decode("LA2V6KMCGYMWWVEW64RNP3JA3I")
        XCTAssertEqual(try OTPPIN.yandexSecret(fromQR), fromQR)
        XCTAssertThrowsError(try OTPPIN.yandexSecret(try Base32.decode("AA2V6KMCGYMWWVEW64RNP3JA3IAAAAAAHTSG4HRZPI"))) {
            XCTAssertEqual($0 as? OTPPINError, .yandexChecksum)
        }
        let wrongSize = try Base32.decodeSecret("AA2V6KMCGJA3IAAAAAAHTSG4HRZPI").secret
        XCTAssertThrowsError(try OTPPIN.yandexSecret(wrongSize)) {
            XCTAssertEqual($0 as? OTPPINError, .yandexSecretLength(wrongSize.count))
        }
    }

    func testEveryVectorSecretHasAValidChecksumAndAnyFlippedBitBreaksIt() throws {
        for vector in try VectorLoader.load("yandex.txt") {
            let full = try Base32.decode(vector["secret"]).unprotectedData()
            XCTAssertNoThrow(try OTPPIN.yandexSecret(SecretBytes(full)), "\(vector)")
            for bit in 0..<(26 * 8) {
                var damaged = full
                damaged[bit / 8] ^= 0x80 >> UInt8(bit % 8)
                XCTAssertThrowsError(try OTPPIN.yandexSecret(SecretBytes(damaged)), "\(vector) bit \(bit)")
            }
        }
    }

    // MARK: PINs

    func testPINRules() {
        XCTAssertNoThrow(try OTPPIN.check(SecretBytes(utf8: "1234")))
        XCTAssertNoThrow(try OTPPIN.check(SecretBytes(utf8: "5210481216086702")))
        XCTAssertThrowsError(try OTPPIN.check(SecretBytes(utf8: ""))) { XCTAssertEqual($0 as? OTPPINError, .empty) }
        XCTAssertThrowsError(try OTPPIN.check(SecretBytes(utf8: String(repeating: "1", count: 65)))) {
            XCTAssertEqual($0 as? OTPPINError, .tooLong)
        }
        XCTAssertThrowsError(try OTPPIN.check(SecretBytes(utf8: "12\n34"))) {
            XCTAssertEqual($0 as? OTPPINError, .invalid)
        }
        XCTAssertThrowsError(try OTPPIN.check(SecretBytes([0x31, 0xff]))) {
            XCTAssertEqual($0 as? OTPPINError, .invalid)
        }
    }

    func testDraftsHaveAPINExactlyWhenTheirKindNeedsOne() throws {
        let sixteen = SecretBytes(count: 16)
        XCTAssertNoThrow(
            try AccountDraft(
                name: "a", otp: OTPParameters(kind: .yandex), secret: sixteen, pin: SecretBytes(utf8: "1234")
            ).checkPIN())
        XCTAssertThrowsError(try AccountDraft(name: "a", otp: OTPParameters(kind: .yandex), secret: sixteen).checkPIN())
        {
            XCTAssertEqual($0 as? OTPParameterError, .missingPIN(.yandex))
        }
        XCTAssertThrowsError(
            try AccountDraft(
                name: "a", otp: OTPParameters(kind: .yandex), secret: SecretBytes(count: 20),
                pin: SecretBytes(utf8: "1234")
            ).checkPIN())
        XCTAssertThrowsError(try AccountDraft(name: "a", secret: sixteen, pin: SecretBytes(utf8: "1234")).checkPIN()) {
            XCTAssertEqual($0 as? OTPPINError, .unexpected(.totp))
        }
    }

    func testMessagesNeverQuoteThePIN() {
        let errors: [any Error & CustomStringConvertible] = [
            OTPPINError.empty, OTPPINError.tooLong, OTPPINError.invalid,
            OTPPINError.yandexChecksum, OTPPINError.yandexSecretLength(3),
        ]
        for error in errors { XCTAssertFalse(error.description.contains("1234"), error.description) }
    }

    // MARK: Hex secrets (mOTP)

    func testBase16() throws {
        XCTAssertEqual(
            try Base16.decode("E3 15-2a fe\ne6 25 99 c8").unprotectedData(),
            Data([0xe3, 0x15, 0x2a, 0xfe, 0xe6, 0x25, 0x99, 0xc8]))
        XCTAssertEqual(Base16.encode(SecretBytes([0xe3, 0x15, 0x0a])), "e3150a")
        XCTAssertThrowsError(try Base16.decode("e31")) { XCTAssertEqual($0 as? Base16Error, .oddLength(3)) }
        XCTAssertThrowsError(try Base16.decode("e3g1")) {
            XCTAssertEqual($0 as? Base16Error, .invalidCharacter(position: 3))
        }
        XCTAssertThrowsError(try Base16.decode(" - ")) { XCTAssertEqual($0 as? Base16Error, .empty) }
        XCTAssertFalse(Base16Error.invalidCharacter(position: 3).description.contains("e3g1"))
    }
}
