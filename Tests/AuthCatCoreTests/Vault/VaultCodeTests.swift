import Foundation
import XCTest

@testable import AuthCatCore
@testable import AuthCatEssentials

final class VaultCodeTests: VaultTestCase {
    func testTOTPCodeMatchesRFC6238() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice", otp: OTPParameters(digits: 8)))
        let code = try vault.generateCode(for: account, at: Date(timeIntervalSince1970: 59))
        XCTAssertEqual(code.code.value, "94287082")
        XCTAssertNil(code.counter)
        XCTAssertEqual(try vault.history().count, 1, "a TOTP code changes nothing")
    }

    func testHOTPHandsOutEachCounterOnceAndRecordsIt() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice", otp: OTPParameters(kind: .hotp)))
        let codes = try (0..<3).map { _ in try vault.generateCode(for: account, at: clock.now()) }
        XCTAssertEqual(codes.map(\.code.value), ["755224", "287082", "359152"])
        XCTAssertEqual(codes.map(\.counter), [0, 1, 2])
        XCTAssertEqual(try vault.account(id: account.id)?.otp.counter, 3)
        XCTAssertEqual(try vault.history(limit: 1).first?.changes.first?.fields, ["counter"])
    }

    func testConcurrentConnectionsNeverShareACounter() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice", otp: OTPParameters(kind: .hotp)))
        let others = try (0..<4).map { _ in try Vault.open(at: location, clock: clock) }
        let generated = ConcurrentList<UInt64>()
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            if let code = try? others[index % others.count].generateCode(for: account, at: Date()) {
                generated.append(code.counter ?? .max)
            }
        }
        let counters = generated.elements
        XCTAssertEqual(counters.count, 40)
        XCTAssertEqual(Set(counters).count, 40)
        XCTAssertEqual(try vault.account(id: account.id)?.otp.counter, 40)
    }

    func testExhaustedCounterIsRefused() throws {
        let vault = try makeVault()
        let account = try add(
            vault, draft("alice", otp: OTPParameters(kind: .hotp, counter: OTPParameters.maximumCounter)))
        XCTAssertThrowsError(try vault.generateCode(for: account, at: Date())) { error in
            XCTAssertEqual(error as? VaultStoreError, .counterExhausted("Example:alice"))
        }
    }
}
