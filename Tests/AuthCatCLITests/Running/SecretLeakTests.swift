import Foundation
import XCTest

/// No command prints a secret, in any spelling, except `show --uri`, whose job it is.
final class SecretLeakTests: AuthCatTestCase {
    /// "Hello!" followed by 0xDEADBEEF, twice: easy to spot in any encoding.
    static let secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    static let spellings = [secret, secret.lowercased(), "JBSW Y3DP EHPK 3PXP", "48656c6c6f21deadbeef", "Hello!"]

    func testNoCommandPrintsTheSecret() throws {
        var outputs: [(String, AuthCatResult)] = []
        func record(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws {
            let result = try authcat.run(arguments, stdin: stdin.map { Data($0.utf8) }, environment: environment)
            outputs.append((arguments.joined(separator: " "), result))
        }
        let passFile = authcat.root.appendingPathComponent("pass")
        try "passphrase\n".write(to: passFile, atomically: true, encoding: .utf8)
        let pass = ["AUTHCAT_PASSPHRASE_FILE": passFile.path, "AUTHCAT_NEW_PASSPHRASE_FILE": passFile.path]

        try record(["add", "alice", "--issuer", "Leak", "--tag", "t"], stdin: Self.secret)
        try record(["add", "alice", "--issuer", "Leak"], stdin: Self.secret)
        try record(["add", "bad"], stdin: Self.secret + "!")
        try record(["add", "short"], stdin: "JBSWY3DP")
        try record(["add", "--uri"], stdin: "otpauth://totp/Leak:uri?secret=\(Self.secret)&digits=99")
        try record(["add", "--uri"], stdin: "otpauth://hotp/Leak:hotp?secret=\(Self.secret)&counter=1")
        try record(["add", "--uri"], stdin: "otpauth://hotp/Leak:hotp?secret=\(Self.secret)&counter=1")
        try record(["add", "argument", Self.secret])
        try record(["code", "alice"])
        try record(["code", "alice", "--json"])
        try record(["code"])
        try record(["code", "--json"])
        try record(["code", "hotp"])
        try record(["list"])
        try record(["list", "--json"])
        try record(["show", "alice"])
        try record(["edit", "alice", "--note", "n"])
        try record(["history"])
        try record(["history", "--json"])
        try record(["rm", "alice", "--yes"])
        try record(["restore", "alice"])
        try record(["doctor", "--no-clock"])
        try record(["passphrase", "set"], environment: pass)
        try record(["doctor", "--no-clock", "--json"], environment: pass)
        try record(["code", "alice"], environment: pass)
        try record(["code", "alice"])
        try record(["passphrase", "change"], environment: pass)
        try record(["passphrase", "remove"], environment: pass)
        try record(["---completion", "code", "--", "positional@0", "2", "0", "authcat", "code", ""])
        try record(["--help"])

        XCTAssertGreaterThan(outputs.count, 20)
        for (command, result) in outputs {
            for spelling in Self.spellings {
                XCTAssertFalse(result.stdout.contains(spelling), "stdout of '\(command)' shows the secret")
                XCTAssertFalse(result.stderr.contains(spelling), "stderr of '\(command)' shows the secret")
            }
        }
        let uri = try authcat.run(["show", "alice", "--uri"])
        XCTAssertTrue(uri.stdout.contains("secret=\(Self.secret)"), "show --uri prints the secret on purpose")
    }
}
