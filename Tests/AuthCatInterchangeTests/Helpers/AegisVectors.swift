import AuthCatEssentials
import XCTest

@testable import AuthCatInterchange

/// The seven accounts of Aegis's importer test files (Aegis v3.4.2,
/// `plain.txt`, GPL-3 test data): every app's fixture there was made by
/// scanning these into the app and exporting.
extension ExpectedAccount {
    static let deno = ExpectedAccount(issuer: "Deno", name: "Mason", secret: "4SJHB4GSD43FZBAI7C2HLRJGPQ")
    static let spdx = ExpectedAccount(
        issuer: "SPDX", name: "James", algorithm: .sha256, digits: 7, period: 20, secret: "5OM4WOOGPLQEF6UGN3CPEOOLWU")
    static let airbnb = ExpectedAccount(
        issuer: "Airbnb", name: "Elijah", algorithm: .sha512, digits: 8, period: 50,
        secret: "7ELGJSGXNCCTV3O6LKJWYFV2RA")
    static let issuu = ExpectedAccount(
        issuer: "Issuu", name: "James", kind: .hotp, counter: 1, secret: "YOOMIXWS5GN6RTBPUFFWKTW5M4")
    static let airCanada = ExpectedAccount(
        issuer: "Air Canada", name: "Benjamin", kind: .hotp, algorithm: .sha256, digits: 7, counter: 50,
        secret: "KUVJJOM753IHTNDSZVCNKL7GII")
    static let wwe = ExpectedAccount(
        issuer: "WWE", name: "Mason", kind: .hotp, algorithm: .sha512, digits: 8, counter: 10300,
        secret: "5VAML3X35THCEBVRLV24CGBKOY")
    static let boeing = ExpectedAccount(
        issuer: "Boeing", name: "Sophia", kind: .steam, digits: 5, secret: "JRZCL47CMXVOQMNPZR2F7J4RGI")

    /// All seven, in `plain.txt`'s order.
    static let aegisVectors = [deno, spdx, airbnb, issuu, airCanada, wwe, boeing]
}

/// Asserts that `parsed` holds exactly `expected`, in any order (apps that
/// keep accounts in a hash map write them in no order of the user's).
func assertEntriesInAnyOrder(
    _ parsed: ParsedImport, _ expected: [ExpectedAccount], file: StaticString = #filePath, line: UInt = #line
) {
    let actual = parsed.entries.map(ExpectedAccount.init).sorted { $0.secret < $1.secret }
    XCTAssertEqual(actual, expected.sorted { $0.secret < $1.secret }, file: file, line: line)
}
