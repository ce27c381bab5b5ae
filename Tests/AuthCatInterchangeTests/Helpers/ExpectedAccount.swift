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
    /// The accounts of Aegis's importer test files (Aegis v3.4.2, `plain.txt`),
    /// by issuer: TOTP with each hash, digits and period, HOTP with counters, Steam.
    static let aegisVectors: [String: ExpectedAccount] = Dictionary(
        uniqueKeysWithValues: [
            ExpectedAccount(issuer: "Deno", name: "Mason", secret: "4SJHB4GSD43FZBAI7C2HLRJGPQ"),
            ExpectedAccount(
                issuer: "SPDX", name: "James", algorithm: .sha256, digits: 7, period: 20,
                secret: "5OM4WOOGPLQEF6UGN3CPEOOLWU"),
            ExpectedAccount(
                issuer: "Airbnb", name: "Elijah", algorithm: .sha512, digits: 8, period: 50,
                secret: "7ELGJSGXNCCTV3O6LKJWYFV2RA"),
            ExpectedAccount(
                issuer: "Issuu", name: "James", kind: .hotp, counter: 1, secret: "YOOMIXWS5GN6RTBPUFFWKTW5M4"),
            ExpectedAccount(
                issuer: "Air Canada", name: "Benjamin", kind: .hotp, algorithm: .sha256, digits: 7, counter: 50,
                secret: "KUVJJOM753IHTNDSZVCNKL7GII"),
            ExpectedAccount(
                issuer: "WWE", name: "Mason", kind: .hotp, algorithm: .sha512, digits: 8, counter: 10300,
                secret: "5VAML3X35THCEBVRLV24CGBKOY"),
            ExpectedAccount(
                issuer: "Boeing", name: "Sophia", kind: .steam, digits: 5, secret: "JRZCL47CMXVOQMNPZR2F7J4RGI"),
        ].map { ($0.issuer, $0) })

    /// Aegis's vectors of `issuers`, in that order.
    static func aegisVectors(_ issuers: [String]) -> [ExpectedAccount] {
        issuers.compactMap { aegisVectors[$0] }
    }

    /// All seven of Aegis's vectors, in the order of `plain.txt`.
    static let allAegisVectors = aegisVectors(["Deno", "SPDX", "Airbnb", "Issuu", "Air Canada", "WWE", "Boeing"])
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
