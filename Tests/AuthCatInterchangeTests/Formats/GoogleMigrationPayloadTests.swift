import Foundation
import SwiftProtobuf
import XCTest

@testable import AuthCatInterchange

final class GoogleMigrationPayloadTests: XCTestCase {
    /// The bytes make_google_migration.py assembles by hand from the wire format.
    private func canonicalBytes() throws -> Data {
        let hex = try Fixture.text("google_migration_canonical.hex").trimmingCharacters(in: .whitespacesAndNewlines)
        return try XCTUnwrap(Hex.decode(hex))
    }

    func testEncodesExactlyTheHandAssembledBytes() throws {
        var first = GoogleMigrationPayload.OtpParameters()
        first.secret = Data("Hello!".utf8) + Data([0xde, 0xad, 0xbe, 0xef])
        first.name = "GitHub:alice@example.com"
        first.issuer = "GitHub"
        first.algorithm = .sha1
        first.digits = .six
        first.type = .totp
        var second = GoogleMigrationPayload.OtpParameters()
        second.secret = Data("abcdefghij".utf8)
        second.name = "HOTP Corp:bob"
        second.issuer = "HOTP Corp"
        second.algorithm = .sha1
        second.digits = .six
        second.type = .hotp
        second.counter = 42
        var payload = GoogleMigrationPayload()
        payload.otpParameters = [first, second]
        payload.version = 1
        payload.batchSize = 2
        payload.batchIndex = 1
        payload.batchID = 123_456_789
        XCTAssertEqual(try payload.serializedBytes() as Data, try canonicalBytes())
        XCTAssertEqual(try GoogleMigrationPayload(serializedBytes: canonicalBytes()), payload)
    }

    func testUnknownEnumValuesAndFieldsSurvive() throws {
        // otp_parameters { algorithm: 9 }, then an unknown field 15 (varint 1).
        let bytes = Data([0x0a, 0x02, 0x20, 0x09, 0x78, 0x01])
        let payload = try GoogleMigrationPayload(serializedBytes: bytes)
        XCTAssertEqual(payload.otpParameters.first?.algorithm, .UNRECOGNIZED(9))
        XCTAssertEqual(try payload.serializedBytes() as Data, bytes)
    }

    func testTruncatedBytesThrow() throws {
        let bytes = try canonicalBytes()
        XCTAssertThrowsError(try GoogleMigrationPayload(serializedBytes: bytes.prefix(bytes.count / 2)))
    }

    func testTextFormatUsesTheProtoNames() throws {
        var payload = GoogleMigrationPayload()
        payload.batchSize = 2
        var parameters = GoogleMigrationPayload.OtpParameters()
        parameters.digits = .eight
        payload.otpParameters = [parameters]
        let text = payload.textFormatString()
        XCTAssertTrue(text.contains("batch_size: 2"), text)
        XCTAssertTrue(text.contains("DIGIT_COUNT_EIGHT"), text)
    }
}
