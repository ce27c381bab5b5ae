import AuthCatCore
import Foundation
import XCTest

final class AccountQueryTests: XCTestCase {
    private func account(_ issuer: String, _ name: String) -> Account {
        Account(id: UUID(), issuer: issuer, name: name, otp: OTPParameters(), createdAt: Date(), updatedAt: Date())
    }

    func testIdThenExactLabelThenSubstring() {
        let github = account("GitHub", "alice")
        let githubWork = account("GitHub", "alice-work")
        let gitlab = account("GitLab", "bob")
        let all = [github, githubWork, gitlab]
        XCTAssertEqual(AccountQuery(gitlab.id.uuidString.lowercased()).matches(in: all), [gitlab])
        XCTAssertEqual(AccountQuery("github:ALICE").matches(in: all), [github])
        XCTAssertEqual(AccountQuery("alice").matches(in: all), [github, githubWork])
        XCTAssertEqual(AccountQuery("lab").matches(in: all), [gitlab])
        XCTAssertEqual(AccountQuery("nothing").matches(in: all), [])
    }
}
