import AuthCatEssentials
import Foundation
import XCTest

final class ScryptTests: XCTestCase {
    /// RFC 7914 section 12, third vector.
    func testRFC7914Vector() throws {
        let key = try Scrypt.deriveKey(
            password: SecretBytes(utf8: "password"), salt: Data("NaCl".utf8),
            n: 1024, r: 8, p: 16, length: 64)
        let expected =
            "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
        XCTAssertEqual(key.unprotectedData().map { String(format: "%02x", $0) }.joined(), expected)
    }

    func testHostileParametersAreRefusedBeforeAnyWork() {
        let password = SecretBytes(utf8: "pw")
        let salt = Data("salt".utf8)
        XCTAssertThrowsError(try Scrypt.deriveKey(password: password, salt: salt, n: 1000, r: 8, p: 1))
        XCTAssertThrowsError(try Scrypt.deriveKey(password: password, salt: salt, n: 1 << 40, r: 8, p: 1))
        XCTAssertThrowsError(try Scrypt.deriveKey(password: password, salt: salt, n: 1 << 62, r: UInt32.max, p: 1))
        XCTAssertThrowsError(try Scrypt.deriveKey(password: password, salt: salt, n: 1024, r: 0, p: 1))
        XCTAssertThrowsError(try Scrypt.deriveKey(password: SecretBytes(count: 0), salt: salt, n: 1024, r: 8, p: 1))
        XCTAssertThrowsError(try Scrypt.deriveKey(password: password, salt: Data(), n: 1024, r: 8, p: 1))
    }

    func testMemoryCountsTheBlocksOfEveryLaneAsWellAsTheLargeArray() {
        // The reported attack: N = 2 and r = 1 look cheap, but p = 2^24 lanes take 128 bytes each: 2 GiB.
        assertRefused(
            n: 2, r: 1, p: 1 << 24, .memory((1 << 31) + 256, allowed: 1 << 30),
            "the file asks for 2.0 GiB of memory for its key derivation; authcat allows at most 1 GiB")
        assertRefused(n: 1 << 20, r: 8, p: 1, .memory((1 << 30) + 1024, allowed: 1 << 30))
        assertRefused(n: 1 << 62, r: UInt32.max, p: UInt32.max, .memory(UInt64.max, allowed: 1 << 30))
    }

    func testWorkIsBoundedEvenWhenMemoryIsSmall() {
        assertRefused(
            n: 1 << 16, r: 8, p: 64, .scryptWork(1 << 25, allowed: 1 << 23),
            "the file asks for scrypt work N·r·p of 33554432 for its key derivation; authcat allows at most 8388608")
    }

    func testWhatAegisAsksForIsAllowed() throws {
        XCTAssertNoThrow(try Scrypt.checkParameters(n: 1 << 15, r: 8, p: 1))
        XCTAssertNoThrow(try Scrypt.checkParameters(n: 1 << 19, r: 8, p: 2), "512 MiB, 2^23 work: at both bounds")
    }

    private func assertRefused(
        n: UInt64, r: UInt32, p: UInt32, _ demand: KeyDerivationLimitError.Demand, _ message: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(
            try Scrypt.deriveKey(password: SecretBytes(utf8: "pw"), salt: Data("salt".utf8), n: n, r: r, p: p),
            file: file, line: line
        ) { error in
            XCTAssertEqual((error as? KeyDerivationLimitError)?.demand, demand, file: file, line: line)
            if let message { XCTAssertEqual("\(error)", message, file: file, line: line) }
        }
    }
}
