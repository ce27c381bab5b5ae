import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatCommandLine

/// `list --json` is written by hand for speed; it must be, byte for byte,
/// what `JSONOutput` makes of `AccountSummary` through `JSONEncoder`.
final class AccountListJSONTests: XCTestCase {
    private func account(
        _ issuer: String, _ name: String, _ otp: OTPParameters = OTPParameters(), tags: [String] = []
    ) -> Account {
        Account(id: UUID(), issuer: issuer, name: name, otp: otp, tags: tags, createdAt: Date(), updatedAt: Date())
    }

    func testTheSameBytesAsJSONEncoder() throws {
        var controls = ""
        for value in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(value)!) }
        let accounts = [
            account("GitHub", "alice@example.com", tags: ["work", "code"]),
            account("", "ci", OTPParameters(kind: .hotp, counter: 18_446_744_073_709_551_615)),
            account(
                "Évry \"quoted\" \\ back/slash", "李雷 🐱\u{7F}\u{2028}",
                OTPParameters(algorithm: .sha512, digits: 8, period: 60)),
            account(controls, "tab\there", OTPParameters(kind: .steam), tags: [controls, "/"]),
            account("Yandex", "ivan", OTPParameters(kind: .yandex)),
            account("PfSense", "jimmy", OTPParameters(kind: .motp)),
        ]
        for count in 0...accounts.count {
            let slice = Array(accounts.prefix(count))
            XCTAssertEqual(
                AccountListJSON.text(slice), try JSONOutput.string(slice.map(AccountSummary.init)), "\(count) accounts")
        }
    }
}
