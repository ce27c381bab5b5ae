import AuthCatEssentials
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
        XCTAssertEqual(AccountQuery("ali").matches(in: all), [github, githubWork])
        XCTAssertEqual(AccountQuery("lab").matches(in: all), [gitlab])
        XCTAssertEqual(AccountQuery("nothing").matches(in: all), [])
    }

    func testAWholeIssuerOrNameWinsOverAPart() {
        let tiny = account("Tiny", "alice")
        let tiny2 = account("Tiny2", "bob")
        let github = account("GitHub", "alice")
        let githubWork = account("GitHub", "alice-work")
        let all = [tiny, tiny2, github, githubWork]
        XCTAssertEqual(AccountQuery("TINY").matches(in: all), [tiny])
        XCTAssertEqual(AccountQuery("tin").matches(in: all), [tiny, tiny2])
        XCTAssertEqual(AccountQuery("alice").matches(in: all), [tiny, github])
        XCTAssertEqual(AccountQuery("github").matches(in: all), [github, githubWork])
    }
}
