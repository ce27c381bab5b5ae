import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatCore
@testable import AuthCatInterchange

/// An account as a fixture should yield it, secret in Base32.
struct ExpectedAccount: Equatable, CustomStringConvertible {
    var issuer: String
    var name: String
    var kind: OTPKind = .totp
    var algorithm: OTPAlgorithm = .sha1
    var digits: Int = 6
    var period: Int = 30
    var counter: UInt64 = 0
    var secret: String
    var tags: [String] = []
    var note: String = ""

    var description: String {
        "\(issuer):\(name) \(kind) \(algorithm) \(digits)/\(period)/\(counter) tags=\(tags) note=\(note)"
    }

    init(
        issuer: String, name: String, kind: OTPKind = .totp, algorithm: OTPAlgorithm = .sha1, digits: Int = 6,
        period: Int = 30,
        counter: UInt64 = 0, secret: String, tags: [String] = [], note: String = ""
    ) {
        self.issuer = issuer
        self.name = name
        self.kind = kind
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
        self.counter = counter
        self.secret = secret
        self.tags = tags
        self.note = note
    }

    init(_ entry: ImportEntry) {
        let draft = entry.draft
        self.init(
            issuer: draft.issuer, name: draft.name, kind: draft.otp.kind, algorithm: draft.otp.algorithm,
            digits: draft.otp.digits, period: draft.otp.period, counter: draft.otp.counter,
            secret: Base32.encode(draft.secret), tags: draft.tags, note: draft.note)
    }

    init(_ account: Account, secret: SecretBytes) {
        self.init(
            issuer: account.issuer, name: account.name, kind: account.otp.kind, algorithm: account.otp.algorithm,
            digits: account.otp.digits, period: account.otp.period, counter: account.otp.counter,
            secret: Base32.encode(secret), tags: account.tags, note: account.note)
    }

    var draft: AccountDraft {
        // Test data: the Base32 literals above are valid.
        AccountDraft(
            issuer: issuer, name: name,
            otp: OTPParameters(kind: kind, algorithm: algorithm, digits: digits, period: period, counter: counter),
            tags: tags, note: note, secret: try! Base32.decode(secret))
    }

    static let sha512Secret =
        "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA"

    /// The accounts every app fixture describes: TOTP SHA1/SHA256/SHA512,
    /// 8 digits, a 60 s period, unicode names, HOTP with a counter, Steam.
    static let standard: [ExpectedAccount] = [
        ExpectedAccount(issuer: "GitHub", name: "alice@example.com", secret: "JBSWY3DPEHPK3PXP"),
        ExpectedAccount(
            issuer: "Ünïcødé Bank", name: "李雷 🐱", algorithm: .sha256, digits: 8, period: 60,
            secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"),
        ExpectedAccount(issuer: "Example", name: "sha512", algorithm: .sha512, digits: 8, secret: sha512Secret),
        ExpectedAccount(issuer: "HOTP Corp", name: "bob", kind: .hotp, counter: 42, secret: "MFRGGZDFMZTWQ2LK"),
        ExpectedAccount(issuer: "Steam", name: "gamer", kind: .steam, digits: 5, secret: "ONSWG4TFOQ"),
    ]

    /// `standard` with tags and notes, for formats that carry them.
    static func standard(tags: [[String]], notes: [String] = []) -> [ExpectedAccount] {
        standard.enumerated().map { index, account in
            var account = account
            account.tags = index < tags.count ? tags[index] : []
            account.note = index < notes.count ? notes[index] : ""
            return account
        }
    }
}

extension ExpectedAccount {
    /// Aegis's vectors (`AegisVectors.swift`) of `issuers`, in that order.
    static func aegisVectors(_ issuers: [String]) -> [ExpectedAccount] {
        issuers.compactMap { issuer in aegisVectors.first { $0.issuer == issuer } }
    }
}

/// Asserts that `parsed` holds exactly `expected`, in order.
func assertEntries(
    _ parsed: ParsedImport, _ expected: [ExpectedAccount], file: StaticString = #filePath, line: UInt = #line
) {
    let actual = parsed.entries.map(ExpectedAccount.init)
    XCTAssertEqual(actual.count, expected.count, "entries: \(actual)", file: file, line: line)
    for (got, want) in zip(actual, expected) {
        XCTAssertEqual(got, want, file: file, line: line)
    }
}

/// Fails for each rejection whose message quotes `secret`: entries are named by position, never by secret.
func assertNoRejectionQuotes(
    _ secret: String, in parsed: ParsedImport, file: StaticString = #filePath, line: UInt = #line
) {
    for rejection in parsed.rejections {
        XCTAssertFalse(rejection.description.contains(secret), rejection.description, file: file, line: line)
    }
}
