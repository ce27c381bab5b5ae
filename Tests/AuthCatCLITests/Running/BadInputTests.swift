import Foundation
import XCTest

/// Every kind of bad input gets one clear `authcat: …` line, a non-zero
/// status, and leaves the vault exactly as it was.
final class BadInputTests: AuthCatTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try add("existing", issuer: "Example")
        try add("counter", issuer: "Example", ["--type", "hotp"])
    }

    func testInvalidOrEmptyBase32() throws {
        for input in ["not base32!", "JBSWY3DP 1", "", "   \n", "====", "A", "JBSWY3DP=JBSWY3DP", "\u{0}\u{1}"] {
            try assertRejected(["add", "new"], stdin: input, containing: "secret")
        }
        // One of a thing is singular.
        try assertRejected(["add", "new"], stdin: "A", containing: "the secret has 1 Base32 character, a length")
    }

    /// A pasted otpauth URI is one option away: the error names --uri and
    /// never repeats the URI, which holds the secret.
    func testAnOtpauthURIGivenAsASecretPointsToURI() throws {
        let uri = "otpauth://totp/GitHub:alice?secret=\(Self.otherSecret)&issuer=GitHub"
        let result = try assertRejected(
            ["add", "alice"], stdin: uri, containing: "run the same command with --uri", status: 1)
        XCTAssertFalse(result.stderr.contains(Self.otherSecret), result.stderr)
        XCTAssertFalse(result.stderr.contains("otpauth://totp"), result.stderr)
    }

    /// An otpauth URI pasted as an argument (from a QR reader) is refused
    /// whatever the command: it never becomes an account's name or note,
    /// nor a file name echoed in an error, and the error never repeats it.
    func testAnOtpauthURIAsAnArgumentIsRefusedAndNotEchoed() throws {
        let uri = "otpauth://totp/GitHub:alice?secret=\(Self.otherSecret)&issuer=GitHub"
        let commandLines = [
            ["add", uri], ["add", "alice", "--note", uri], ["add", "--uri", uri], ["import", uri],
            ["edit", "existing", "--name", " \(uri)"], ["import", "MOTP://x?secret=\(Self.otherSecret)"],
            ["follow", "add", "otpauth-migration://offline?data=\(Self.otherSecret)"],
        ]
        for arguments in commandLines {
            let result = try assertRejected(
                arguments, stdin: Self.otherSecret, containing: "pipe the URI in instead", status: 64)
            XCTAssertFalse(result.stderr.contains(Self.otherSecret), "\(arguments): \(result.stderr)")
        }
    }

    func testMalformedURIs() throws {
        let secret = Self.otherSecret
        let uris = [
            "https://example.com/?secret=\(secret)",
            "otpauth://totp/?secret=\(secret)",
            "otpauth://totp/alice",
            "otpauth://totp/alice?secret=",
            "otpauth://sms/alice?secret=\(secret)",
            "otpauth://totp/alice?secret=\(secret)&digits=12",
            "otpauth://totp/alice?secret=\(secret)&digits=x",
            "otpauth://totp/alice?secret=\(secret)&period=0",
            "otpauth://totp/alice?secret=\(secret)&algorithm=md5",
            "otpauth://hotp/alice?secret=\(secret)",
            "otpauth://hotp/alice?secret=\(secret)&counter=99999999999999999999",
            "otpauth://totp/alice?secret=\(secret)1",
            "otpauth://totp/%ZZ?secret=\(secret)",
            "otpauth-migration://offline?data=AAAA",
            "",
        ]
        for uri in uris {
            try assertRejected(["add", "--uri"], stdin: uri)
        }
    }

    /// A value out of an option's range is a usage error (64), as a value of the wrong form is.
    func testDigitsOutsideTheirRange() throws {
        for digits in ["5", "11", "0", "12", "100"] {
            try assertRejected(
                ["add", "new", "--digits", digits], stdin: Self.otherSecret,
                containing: "digits must be between 6 and 10, not \(digits) (see 'authcat add --help')", status: 64)
        }
        try assertRejected(
            ["add", "new", "--type", "steam", "--digits", "6"], stdin: Self.otherSecret, containing: "steam", status: 64
        )
        try assertRejected(["add", "new", "--digits", "six"], stdin: Self.otherSecret, status: 64)
    }

    func testPeriodZeroOrNegative() throws {
        try assertRejected(["add", "new", "--period", "0"], stdin: Self.otherSecret, containing: "period", status: 64)
        try assertRejected(["add", "new", "--period=-30"], stdin: Self.otherSecret, containing: "period", status: 64)
    }

    /// A setting's value is checked like an option's: a usage error, before the vault is opened.
    func testASettingValueItDoesNotTakeIsAUsageError() throws {
        try assertRejected(
            ["config", "set", "history.limit", "abc"], containing: "history.limit takes a number", status: 64)
        try assertRejected(["config", "set", "history.limit", "1.5"], containing: "history.limit takes", status: 64)
        try assertRejected(["config", "set", "clipboard.keep", "yes"], containing: "true or false", status: 64)
        try assertRejected(
            ["config", "set", "histroy.limit", "5"], containing: "did you mean \"history.limit\"?", status: 64)
    }

    /// A refused length says which units and how long at most.
    func testAnUnlockLengthItDoesNotTakeSaysWhatItTakes() throws {
        for value in ["31d", "2h30m", "721h", "0", "soon", "-5m"] {
            let result = try assertRejected(["unlock", "--for=\(value)"], status: 64)
            XCTAssertTrue(result.stderr.contains("30d"), "\(value): \(result.stderr)")
        }
        let mixed = try authcat.run(["unlock", "--for", "2h30m"])
        XCTAssertTrue(mixed.stderr.contains("s, m, h or d") && mixed.stderr.contains("150m"), mixed.stderr)
    }

    func testUnknownAlgorithmAndType() throws {
        try assertRejected(
            ["add", "new", "--algorithm", "md5"], stdin: Self.otherSecret, containing: "md5", status: 64)
        try assertRejected(["add", "new", "--type", "sms"], stdin: Self.otherSecret, containing: "sms", status: 64)
        // What is accepted, in one lowercase line: not ArgumentParser's second sentence.
        let format = try authcat.run(["export", "--format", "pdf", "--stdout"])
        assertOneLineError(
            format,
            containing: "the value 'pdf' is invalid for '--format <format>': give one of 'otpauth', 'google', "
                + "'aegis', '2fas' or 'json' (see 'authcat export --help')", status: 64)
    }

    func testCounterThatOverflows() throws {
        try assertRejected(
            ["add", "new", "--type", "hotp", "--counter", "9223372036854775808"], stdin: Self.otherSecret,
            containing: "counter", status: 64)
        try assertRejected(
            ["add", "new", "--type", "hotp", "--counter", "18446744073709551616"], stdin: Self.otherSecret,
            containing: "counter", status: 64)
        try assertRejected(
            ["add", "new", "--type", "hotp", "--counter=-1"], stdin: Self.otherSecret, containing: "counter", status: 64
        )
    }

    /// The read stops at the limit: the error names it, and nothing is read past it.
    func testAMegabyteOfGarbageOnStdinIsRefused() throws {
        var garbage = [UInt8](repeating: 0, count: 1 << 20)
        for index in garbage.indices { garbage[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }
        for arguments in [["add", "new"], ["add", "--uri"]] {
            try assertRejected(arguments, stdin: String(decoding: garbage, as: UTF8.self), containing: "longer than")
        }
    }

    func testGroupOrWorldWritableFolderIsRefused() throws {
        let before = try VaultSnapshot.take(authcat)
        try FileManager.default.setAttributes([.posixPermissions: 0o770], ofItemAtPath: authcat.home.path)
        for arguments in [["code", "existing"], ["list"], ["add", "new"], ["rm", "existing", "--yes"]] {
            let result = try authcat.run(arguments, stdin: Data(Self.otherSecret.utf8))
            assertOneLineError(result, containing: "writable by other users", status: 1)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: authcat.home.path)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    func testReadableFolderOrFileOnlyWarns() throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: authcat.home.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: authcat.keyFileURL.path)
        let result = try authcat.run(["code", "existing", "--at", "59"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "287082\n")
        XCTAssertEqual(result.stderrLines.count, 2, result.stderr)
        XCTAssertTrue(
            result.stderrLines.allSatisfy { $0.hasPrefix("authcat: warning: ") && $0.contains("chmod") }, result.stderr)
    }

    func testCorruptVaultFileIsReportedAndNeverOverwritten() throws {
        let garbage = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: authcat.databaseURL)
        try assertDamagedVaultUntouched(expected: garbage)
    }

    func testTruncatedVaultFileIsReportedAndNeverOverwritten() throws {
        let original = try Data(contentsOf: authcat.databaseURL)
        for length in [0, 100, 4096] {
            let truncated = original.prefix(length)
            try truncated.write(to: authcat.databaseURL)
            try assertDamagedVaultUntouched(expected: truncated)
        }
    }

    func testMissingKeyFileIsReportedAndNoNewKeyIsMade() throws {
        try FileManager.default.removeItem(at: authcat.keyFileURL)
        let database = try Data(contentsOf: authcat.databaseURL)
        for arguments in [["code", "existing"], ["add", "new"], ["show", "existing", "--uri"], ["list"]] {
            let result = try authcat.run(arguments, stdin: Data(Self.otherSecret.utf8))
            assertOneLineError(result, containing: "key file", status: 1)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: authcat.keyFileURL.path))
        XCTAssertEqual(try Data(contentsOf: authcat.databaseURL), database)
    }

    func testDamagedKeyFileIsReported() throws {
        try Data("{ not a key file".utf8).write(to: authcat.keyFileURL)
        try assertRejected(["code", "existing"], containing: "key file", status: 1)
    }

    /// A key file that parses but lacks what its protection needs is damaged, not "failed unexpectedly".
    func testIncompleteKeyFileIsReportedAsDamaged() throws {
        var keyFile = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: authcat.keyFileURL)) as? [String: Any])
        keyFile["key"] = nil
        try JSONSerialization.data(withJSONObject: keyFile).write(to: authcat.keyFileURL)
        try assertRejected(["code", "existing"], containing: "is damaged or in an unknown format", status: 1)
    }

    func testWrongPassphrase() throws {
        let right = authcat.root.appendingPathComponent("right")
        let wrong = authcat.root.appendingPathComponent("wrong")
        try "right horse\n".write(to: right, atomically: true, encoding: .utf8)
        try "wrong horse\n".write(to: wrong, atomically: true, encoding: .utf8)
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": right.path])
        try assertRejected(
            ["code", "counter"], environment: ["AUTHCAT_PASSPHRASE_FILE": wrong.path], containing: "wrong passphrase",
            status: 1)
    }

    func testUnknownCommandsAndOptionsAreUsageErrors() throws {
        try assertRejected(["frobnicate"], status: 64)
        try assertRejected(["code", "--bogus"], containing: "--bogus", status: 64)
        try assertRejected(["code", "existing", "--at", "soon"], status: 64)
    }

    // MARK: - Helpers

    /// Runs a command that must fail with one line, changing nothing in the vault.
    @discardableResult
    private func assertRejected(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        containing fragment: String? = nil, status: Int32? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> AuthCatResult {
        let before = try VaultSnapshot.take(authcat)
        let result = try authcat.run(arguments, stdin: stdin.map { Data($0.utf8) }, environment: environment)
        assertOneLineError(result, containing: fragment, status: status, file: file, line: line)
        let after = try VaultSnapshot.take(authcat)
        XCTAssertEqual(after.changedFiles(comparedTo: before), [], "\(arguments)", file: file, line: line)
        XCTAssertEqual(after, before, "\(arguments)", file: file, line: line)
        return result
    }

    private func assertDamagedVaultUntouched(expected: Data, file: StaticString = #filePath, line: UInt = #line) throws
    {
        for arguments in [["code", "existing"], ["list"], ["add", "new"], ["history"]] {
            let result = try authcat.run(arguments, stdin: Data(Self.otherSecret.utf8))
            assertOneLineError(result, containing: "damaged", status: 1, file: file, line: line)
            XCTAssertEqual(
                try Data(contentsOf: authcat.databaseURL), expected, "\(arguments) changed the file", file: file,
                line: line)
        }
    }
}
