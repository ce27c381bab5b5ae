import AuthCatEssentials
import AuthCatTesting
import Foundation
import XCTest

/// The bounds every Argon2id derivation passes, whoever wrote its parameters.
final class PasswordHashTests: XCTestCase {
    func testLimitsBeyondTheBoundsAreRefusedBeforeAnyMemoryIsTaken() throws {
        var parameters = try KDFParameters.minimumForTesting()
        parameters.memLimit = 12 << 30
        XCTAssertThrowsError(try parameters.deriveKey(from: SecretBytes(utf8: "passphrase"))) { error in
            XCTAssertEqual(
                (error as? KeyDerivationLimitError)?.from("the remote vault's manifest").description,
                "the remote vault's manifest asks for 12 GiB of memory for its key derivation; authcat allows at most 1 GiB"
            )
        }
        parameters = try KDFParameters.minimumForTesting()
        parameters.opsLimit = UInt64(UInt32.max)
        XCTAssertThrowsError(try parameters.deriveKey(from: SecretBytes(utf8: "passphrase"))) { error in
            XCTAssertEqual(
                error as? KeyDerivationLimitError,
                KeyDerivationLimitError(demand: .passes(UInt64(UInt32.max), allowed: 16)))
        }
        parameters.opsLimit = 0
        XCTAssertThrowsError(try parameters.checkLimits()) { XCTAssertTrue($0 is CryptoError) }
        parameters = try KDFParameters.minimumForTesting()
        parameters.salt = Data()
        XCTAssertThrowsError(try parameters.checkLimits()) { XCTAssertTrue($0 is CryptoError) }
    }

    func testEveryPresetAuthcatWritesIsWithinTheBounds() throws {
        XCTAssertNoThrow(try KDFParameters.interactive().checkLimits())
        XCTAssertNoThrow(try KDFParameters.moderate().checkLimits())
        XCTAssertNoThrow(try KDFParameters(opsLimit: 4, memLimit: 1 << 30).checkLimits(), "backup --kdf sensitive")
        XCTAssertNoThrow(
            try KDFParameters(opsLimit: KDFParameters.maximumOpsLimit, memLimit: KDFParameters.maximumMemLimit)
                .checkLimits())
    }

    func testSizesAreWrittenAsPeopleReadThem() {
        let sizes: [(UInt64, String)] = [
            (1 << 30, "1 GiB"), ((1 << 31) + 256, "2.0 GiB"), (12 << 30, "12 GiB"), (256 << 20, "256 MiB"),
            ((1 << 20) + (1 << 19), "1.5 MiB"), (8192, "8192 bytes"),
        ]
        for (bytes, text) in sizes {
            XCTAssertEqual(
                KeyDerivationLimitError(demand: .memory(bytes, allowed: 1 << 30)).description,
                "the file asks for \(text) of memory for its key derivation; authcat allows at most 1 GiB")
        }
    }
}
