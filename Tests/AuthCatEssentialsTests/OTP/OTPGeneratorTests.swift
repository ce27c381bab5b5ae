import Foundation
import XCTest

@testable import AuthCatEssentials

final class OTPGeneratorTests: XCTestCase {
    private let rfcSecret = SecretBytes(utf8: "12345678901234567890")

    // MARK: Published vectors

    func testRFC4226AppendixD() throws {
        let vectors = try VectorLoader.load("rfc4226.txt")
        XCTAssertEqual(vectors.count, 10)
        for vector in vectors {
            let counter = try UInt64(vector.int64("counter"))
            XCTAssertEqual(try OTPGenerator.hotp(secret: rfcSecret, counter: counter), vector["hotp"], "\(vector)")
            let truncated = OTPGenerator.truncatedHMAC(secret: rfcSecret, counter: counter, algorithm: .sha1)
            XCTAssertEqual(String(truncated), vector["truncated"], "\(vector)")
        }
    }

    func testRFC6238AppendixB() throws {
        let vectors = try VectorLoader.load("rfc6238.txt")
        XCTAssertEqual(vectors.count, 18)
        for vector in vectors {
            let time = try Date(timeIntervalSince1970: TimeInterval(vector.int64("time")))
            let algorithm = try XCTUnwrap(OTPAlgorithm(rawValue: vector["algorithm"]), "\(vector)")
            let seed = SecretBytes(utf8: vector["seed"])
            XCTAssertEqual(OTPGenerator.timeStep(at: time, period: 30), Int64(vector["step"], radix: 16), "\(vector)")
            XCTAssertEqual(
                try OTPGenerator.totp(secret: seed, time: time, algorithm: algorithm, digits: 8), vector["totp"],
                "\(vector)")
            let parameters = OTPParameters(kind: .totp, algorithm: algorithm, digits: 8)
            XCTAssertEqual(
                try OTPGenerator.code(secret: seed, parameters: parameters, at: time).value, vector["totp"], "\(vector)"
            )
        }
    }

    func testTenDigitCodesAreTheWholeTruncatedValueZeroPadded() throws {
        for vector in try VectorLoader.load("rfc4226.txt") {
            let counter = try UInt64(vector.int64("counter"))
            let code = try OTPGenerator.hotp(secret: rfcSecret, counter: counter, digits: 10)
            XCTAssertEqual(code.count, 10)
            XCTAssertEqual(Int(code), Int(vector["truncated"]), "\(vector)")
        }
        XCTAssertEqual(try OTPGenerator.hotp(secret: rfcSecret, counter: 2, digits: 10), "0137359152")
        XCTAssertEqual(try OTPGenerator.hotp(secret: rfcSecret, counter: 7, digits: 10), "0082162583")
    }

    func testSteamGuardVectors() throws {
        for vector in try VectorLoader.load("steam.txt") {
            let secret = try Base32.decode(vector["secret"])
            let time = try Date(timeIntervalSince1970: TimeInterval(vector.int64("time")))
            XCTAssertEqual(try OTPGenerator.steam(secret: secret, time: time), vector["steam"], "\(vector)")
            let code = try OTPGenerator.code(secret: secret, parameters: OTPParameters(kind: .steam), at: time)
            XCTAssertEqual(code.value, vector["steam"], "\(vector)")
            XCTAssertTrue(code.value.allSatisfy { OTPGenerator.steamAlphabet.contains($0) })
        }
    }

    func testOtherDigitsPeriodsAndTimesBefore1970() throws {
        for vector in try VectorLoader.load("totp-extra.txt") {
            let secret = try Base32.decode(vector["secret"])
            let time = try Date(timeIntervalSince1970: TimeInterval(vector.int64("time")))
            let algorithm = try XCTUnwrap(OTPAlgorithm(rawValue: vector["algorithm"]))
            let parameters = try OTPParameters(
                kind: .totp, algorithm: algorithm, digits: Int(vector.int64("digits")),
                period: Int(vector.int64("period")))
            let code = try OTPGenerator.code(secret: secret, parameters: parameters, at: time)
            XCTAssertEqual(code.value, vector["totp"], "\(vector)")
        }
    }

    // MARK: The code of an account

    func testTOTPCodeCarriesItsWindow() throws {
        let time = Date(timeIntervalSince1970: 1_111_111_109)
        let code = try OTPGenerator.code(secret: rfcSecret, parameters: OTPParameters(digits: 8), at: time)
        XCTAssertEqual(
            code,
            OTPCode(
                value: "07081804", validFrom: Date(timeIntervalSince1970: 1_111_111_080),
                validUntil: Date(timeIntervalSince1970: 1_111_111_110)))
        XCTAssertEqual(code.secondsRemaining(at: time), 1)
        XCTAssertEqual(code.secondsRemaining(at: time - 28.5), 30)
        XCTAssertEqual(code.secondsRemaining(at: time + 100), 0)
    }

    func testCodeChangesExactlyAtTheWindowBoundary() throws {
        let parameters = OTPParameters(period: 60)
        let last = try OTPGenerator.code(
            secret: rfcSecret, parameters: parameters, at: Date(timeIntervalSince1970: 119.999))
        let next = try OTPGenerator.code(
            secret: rfcSecret, parameters: parameters, at: Date(timeIntervalSince1970: 120))
        XCTAssertEqual(last.validUntil, next.validFrom)
        XCTAssertEqual(last.value, try OTPGenerator.hotp(secret: rfcSecret, counter: 1))
        XCTAssertEqual(next.value, try OTPGenerator.hotp(secret: rfcSecret, counter: 2))
    }

    func testHOTPCodeUsesTheCounterAndHasNoWindow() throws {
        let parameters = OTPParameters(kind: .hotp, counter: 9)
        let code = try OTPGenerator.code(
            secret: rfcSecret, parameters: parameters, at: Date(timeIntervalSince1970: 1e9))
        XCTAssertEqual(code, OTPCode(value: "520489"))
        XCTAssertNil(code.secondsRemaining(at: Date()))
    }

    func testSteamCodeHonoursItsPeriodAndAlgorithm() throws {
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let parameters = OTPParameters(kind: .steam, algorithm: .sha256, period: 60)
        let code = try OTPGenerator.code(secret: rfcSecret, parameters: parameters, at: time)
        XCTAssertEqual(
            code.value, try OTPGenerator.steam(secret: rfcSecret, time: time, period: 60, algorithm: .sha256))
        XCTAssertNotEqual(code.value, try OTPGenerator.steam(secret: rfcSecret, time: time))
        XCTAssertEqual(code.validUntil?.timeIntervalSince(try XCTUnwrap(code.validFrom)), 60)
    }

    // MARK: Time steps

    func testTimeStepRoundsDownAlsoBefore1970() {
        let cases: [(TimeInterval, Int, Int64)] = [
            (0, 30, 0), (29.999, 30, 0), (30, 30, 1), (-0.5, 30, -1), (-1, 30, -1), (-30, 30, -1), (-30.5, 30, -2),
            (-31, 30, -2), (59, 1, 59), (-59, 1, -59),
        ]
        for (seconds, period, step) in cases {
            XCTAssertEqual(
                OTPGenerator.timeStep(at: Date(timeIntervalSince1970: seconds), period: period), step,
                "\(seconds)/\(period)")
        }
    }

    func testNegativeStepsUseTheCounterBitPattern() throws {
        let before1970 = Date(timeIntervalSince1970: -1)
        XCTAssertEqual(
            try OTPGenerator.totp(secret: rfcSecret, time: before1970),
            try OTPGenerator.hotp(secret: rfcSecret, counter: .max))
    }

    func testExtremeTimesAndPeriodsDoNotCrash() throws {
        let times = [
            Date.distantPast, .distantFuture, Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -1e300),
            Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: -.infinity),
            Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: 9.3e18),
        ]
        for time in times {
            for period in [1, 30, Int.max] {
                for kind in [OTPKind.totp, .steam] {
                    let code = try OTPGenerator.code(
                        secret: rfcSecret, parameters: OTPParameters(kind: kind, period: period), at: time)
                    XCTAssertEqual(code.value.count, kind == .steam ? 5 : 6)
                    XCTAssertNotNil(code.validUntil)
                }
            }
        }
        XCTAssertEqual(OTPGenerator.timeStep(at: Date(timeIntervalSince1970: 1e300), period: 1), .max)
        XCTAssertEqual(OTPGenerator.timeStep(at: Date(timeIntervalSince1970: -1e300), period: 1), .min)
        XCTAssertEqual(OTPGenerator.timeStep(at: Date(timeIntervalSince1970: -1e300), period: 30), .min / 30 - 1)
        XCTAssertEqual(OTPGenerator.timeStep(at: Date(timeIntervalSince1970: .nan), period: 30), 0)
        XCTAssertEqual(OTPGenerator.timeStep(at: Date(timeIntervalSince1970: 100), period: 0), 100)
        XCTAssertEqual(try OTPGenerator.hotp(secret: rfcSecret, counter: .max).count, 6)
    }

    // MARK: Rejections

    func testRejectsParametersOutOfRange() {
        let time = Date(timeIntervalSince1970: 0)
        let cases: [(OTPParameters, OTPParameterError)] = [
            (OTPParameters(digits: 5), .digits(5, steam: false)),
            (OTPParameters(digits: 11), .digits(11, steam: false)),
            (OTPParameters(kind: .hotp, digits: 0), .digits(0, steam: false)),
            (OTPParameters(kind: .steam, digits: 6), .digits(6, steam: true)),
            (OTPParameters(period: 0), .period(0)),
            (OTPParameters(kind: .steam, period: -30), .period(-30)),
            (OTPParameters(kind: .hotp, counter: UInt64(Int64.max) + 1), .counter),
        ]
        for (parameters, expected) in cases {
            XCTAssertThrowsError(
                try OTPGenerator.code(secret: rfcSecret, parameters: parameters, at: time), "\(parameters)"
            ) { error in
                XCTAssertEqual(error as? OTPParameterError, expected)
            }
        }
    }

    func testLowLevelFunctionsRejectParametersOutOfRange() {
        let time = Date(timeIntervalSince1970: 0)
        XCTAssertThrowsError(try OTPGenerator.hotp(secret: rfcSecret, counter: 0, digits: 4)) { error in
            XCTAssertEqual(error as? OTPParameterError, .digits(4, steam: false))
        }
        XCTAssertThrowsError(try OTPGenerator.totp(secret: rfcSecret, time: time, digits: Int.max)) { error in
            XCTAssertEqual(error as? OTPParameterError, .digits(Int.max, steam: false))
        }
        XCTAssertThrowsError(try OTPGenerator.totp(secret: rfcSecret, time: time, period: 0)) { error in
            XCTAssertEqual(error as? OTPParameterError, .period(0))
        }
        XCTAssertThrowsError(try OTPGenerator.steam(secret: rfcSecret, time: time, period: -1)) { error in
            XCTAssertEqual(error as? OTPParameterError, .period(-1))
        }
    }

    // MARK: Many secrets

    /// How fast codes are is scripts/bench/code's figure (`authcat code` on 1,000 accounts against oathtool).
    func testAThousandRandomSecretsEachGiveAnEightDigitCode() throws {
        let secrets = try (0..<1000).map { _ in try SecretBytes.random(count: 20) }
        let parameters = OTPParameters(algorithm: .sha512, digits: 8)
        let now = Date()
        let codes = try secrets.map { try OTPGenerator.code(secret: $0, parameters: parameters, at: now).value }
        XCTAssertEqual(codes.count, 1000)
        XCTAssertTrue(codes.allSatisfy { $0.count == 8 && $0.allSatisfy(\.isASCIIDigit) })
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
