import AuthCatEssentials
import Foundation
import XCTest

final class AccountDisplayOrderTests: XCTestCase {
    private func account(_ issuer: String, _ name: String, id: UUID = UUID()) -> Account {
        Account(id: id, issuer: issuer, name: name, otp: OTPParameters(), createdAt: Date(), updatedAt: Date())
    }

    func testIssuerThenNameIgnoringCase() {
        let accounts = [account("b", "x"), account("A", "z"), account("a", "Y"), account("", "w")]
        XCTAssertEqual(accounts.sortedForDisplay().map(\.label), ["w", "a:Y", "A:z", "b:x"])
    }

    func testDisplayOrderBreaksTiesByTheIdsText() {
        let ids = (0..<50).map { _ in UUID() }
        let accounts = ids.map { account("Same", "same", id: $0) }
        XCTAssertEqual(accounts.sortedForDisplay().map(\.id.vaultString), ids.map(\.vaultString).sorted())
    }
}
