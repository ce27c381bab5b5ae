import AuthCatEssentials
import Foundation
import XCTest

final class SecretBytesTests: XCTestCase {
    func testReadingKeepsOnlyWhatTheFillerReports() throws {
        let line = SecretBytes.reading(capacity: 16) { buffer in
            let typed = Array("hunter22\nrest".utf8)
            buffer.copyBytes(from: typed)
            return typed.firstIndex(of: UInt8(ascii: "\n")) ?? typed.count
        }
        XCTAssertEqual(line, SecretBytes(utf8: "hunter22"))
        XCTAssertEqual(SecretBytes.reading(capacity: 4) { _ in 0 }.count, 0)
    }

    func testSlicesAreClampedCopies() {
        let secret = SecretBytes(utf8: "0123456789")
        XCTAssertEqual(secret.slice(2..<5), SecretBytes(utf8: "234"))
        XCTAssertEqual(secret.slice(8..<50), SecretBytes(utf8: "89"))
        XCTAssertEqual(secret.prefix(3), SecretBytes(utf8: "012"))
        XCTAssertEqual(secret.prefix(-1).count, 0)
        XCTAssertEqual(secret, SecretBytes(utf8: "0123456789"), "the original is unchanged")
    }

    func testSizesFromNothingToLargeAreZeroFilledAndUsable() throws {
        for count in [0, 1, 15, 4096, 4097, 8 << 20] {
            let secret = SecretBytes(count: count)
            XCTAssertEqual(secret.count, count)
            XCTAssertTrue(secret.withUnsafeBytes { $0.allSatisfy { $0 == 0 } })
            let random = try SecretBytes.random(count: count)
            XCTAssertEqual(random.slice(0..<count), random)
        }
    }

    func testManySecretsAliveAtOnceAllKeepTheirBytes() throws {
        // Each guarded allocation takes its own pages; past the kernel's limits
        // on locked memory or mappings, SecretBytes carries on in ordinary memory.
        let secrets = try (0..<5000).map { _ in try SecretBytes.random(count: 32) }
        let copies = secrets.map { SecretBytes($0.unprotectedData()) }
        XCTAssertEqual(secrets, copies)
    }
}
