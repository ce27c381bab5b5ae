import Foundation
import XCTest

/// A test case with its own `authcat` runner and vault folder, removed after each test.
class AuthCatTestCase: XCTestCase {
    /// The RFC 6238 test secret ("12345678901234567890"), in Base32.
    static let rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    /// Another 160-bit secret, for a second account.
    static let otherSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

    private(set) var authcat: AuthCatRunner!

    override func setUpWithError() throws {
        try super.setUpWithError()
        authcat = try AuthCatRunner()
    }

    override func tearDown() {
        authcat?.removeFiles()
        super.tearDown()
    }

    /// Adds an account, asserting success; returns its id.
    @discardableResult
    func add(
        _ name: String, issuer: String? = nil, secret: String = rfcSecret, _ options: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let issuerOptions = issuer.map { ["--issuer", $0] } ?? []
        let result = try authcat.run(["add", name] + issuerOptions + options, stdin: Data("\(secret)\n".utf8))
        XCTAssertEqual(result.status, 0, "add failed: \(result.stderr)", file: file, line: line)
        return try XCTUnwrap(
            result.stdout.split(separator: "(").last?.split(separator: ")").first.map(String.init),
            "add printed no id: \(result.stdout)", file: file, line: line)
    }

    /// Runs a program other than authcat (mount, mkfifo…), returning its exit status; output discarded.
    func exitStatus(_ program: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The front copied alone into a folder of its own, with no `authcat-cli`
    /// beside it: what it prints, it answered by itself.
    func loneFront() throws -> URL {
        let folder = authcat.root.appendingPathComponent("lone", isDirectory: true)
        if !FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: AuthCatRunner.executableURL, to: folder.appendingPathComponent("authcat"))
        }
        return folder.appendingPathComponent("authcat")
    }

    /// Runs a command that must succeed and returns its stdout.
    @discardableResult
    func succeed(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let result = try authcat.run(arguments, stdin: stdin, environment: environment)
        XCTAssertEqual(
            result.status, 0, "authcat \(arguments.joined(separator: " ")) failed: \(result.stderr)",
            file: file, line: line)
        return result.stdout
    }

    /// The 30-second time steps from the one before `start` to now: a code made
    /// in that time (`pick` may wait for the next step) is the code of one of them.
    static func timeSteps(since start: Date) -> ClosedRange<Int> {
        (Int(start.timeIntervalSince1970) / 30 - 1)...(Int(Date().timeIntervalSince1970) / 30)
    }

    /// The codes `account` had from `start` to now (`timeSteps(since:)`).
    func codes(of account: String, since start: Date, environment: [String: String] = [:]) throws -> Set<String> {
        try Set(
            Self.timeSteps(since: start).map { step in
                try succeed(["code", account, "--at", "\(step * 30)"], environment: environment)
                    .trimmingCharacters(in: .newlines)
            })
    }

    /// `list --json` as an array of objects; none when it says there are no accounts.
    func listedAccounts(file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let none = try authcat.run(["list", "--json"])
        if none.status == 1, none.stderr.contains(#""message":"no accounts in "#) { return [] }
        let output = try succeed(["list", "--json"], file: file, line: line)
        return try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], file: file, line: line)
    }

    /// Asserts the error convention: a non-zero status, nothing on stdout, and
    /// exactly one line on stderr, `authcat: …`, lowercase after the prefix.
    func assertOneLineError(
        _ result: AuthCatResult, containing fragment: String? = nil, status: Int32? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertNotEqual(result.status, 0, "expected failure, got stdout: \(result.stdout)", file: file, line: line)
        if let status { XCTAssertEqual(result.status, status, file: file, line: line) }
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        XCTAssertEqual(result.stderrLines.count, 1, "stderr: \(result.stderr)", file: file, line: line)
        var message = result.stderrLines.first ?? ""
        // Under --json the error is a JSON object with the same message and the exit status.
        if let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any] {
            XCTAssertEqual(object["level"] as? String, "error", file: file, line: line)
            XCTAssertEqual((object["exit_status"] as? NSNumber)?.int32Value, result.status, file: file, line: line)
            message = "authcat: " + (object["message"] as? String ?? "")
        }
        XCTAssertTrue(message.hasPrefix("authcat: "), message, file: file, line: line)
        let first = message.dropFirst("authcat: ".count).first
        XCTAssertFalse(first?.isUppercase ?? true, "message should start lowercase: \(message)", file: file, line: line)
        if let fragment {
            XCTAssertTrue(message.contains(fragment), "'\(message)' lacks '\(fragment)'", file: file, line: line)
        }
    }
}
