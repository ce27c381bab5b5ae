import Foundation
import XCTest

/// Conventions every command keeps: where the vault is, how times are
/// shown to people and to scripts, and what an absent field is in JSON.
final class ConventionsTests: AuthCatTestCase {
    /// The XDG Base Directory specification: a relative path in
    /// XDG_DATA_HOME is invalid and ignored. Both programs read it so.
    func testARelativeXDGDataHomeIsIgnored() throws {
        let userHome = try XCTUnwrap(authcat.environment["HOME"])
        let relative = "authcat-relative-xdg-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: relative) }
        let environment = ["XDG_DATA_HOME": relative]
        let result = try authcat.run(
            ["add", "alice", "--issuer", "GitHub"], stdin: Data("\(Self.rfcSecret)\n".utf8),
            environment: environment, withHome: false)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: relative), "the vault followed the working folder")
        XCTAssertTrue(FileManager.default.fileExists(atPath: userHome + "/.local/share/authcat/vault.sqlite"))
        for program in [AuthCatRunner.executableURL, AuthCatRunner.fullProgramURL] {
            let list = try authcat.runAsProcess(program: program, ["list"], environment: environment, withHome: false)
            XCTAssertEqual(list.status, 0, "\(program.lastPathComponent): \(list.stderr)")
            XCTAssertTrue(list.stdout.hasPrefix("GitHub:alice"), list.stdout)
        }
        // An absolute one is used.
        let absolute = authcat.root.appendingPathComponent("data").path
        let moved = try authcat.run(["list"], environment: ["XDG_DATA_HOME": absolute], withHome: false)
        assertOneLineError(moved, containing: "no accounts in \(absolute)/authcat yet", status: 1)
    }

    /// Times for people are in the local time zone (TZ) with its offset;
    /// JSON keeps seconds since 1970.
    func testTimesFollowTheTimeZoneAndJSONKeepsSeconds() throws {
        try add("alice", issuer: "GitHub")
        for (zone, offset) in [("Asia/Kolkata", #"\+05:30"#), ("America/New_York", "-0[45]:00"), ("UTC", "Z")] {
            let show = try authcat.runAsProcess(["show", "alice"], environment: ["TZ": zone])
            XCTAssertEqual(show.status, 0, show.stderr)
            let created = try XCTUnwrap(show.stdoutLines.first { $0.hasPrefix("created") }, show.stdout)
            XCTAssertNotNil(
                created.range(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"# + offset + "$", options: .regularExpression),
                "\(zone): \(created)")
            let history = try authcat.runAsProcess(["history"], environment: ["TZ": zone])
            XCTAssertNotNil(
                history.stdout.range(of: #"T\d\d:\d\d:\d\d"# + offset + " ", options: .regularExpression),
                "\(zone): \(history.stdout)")
        }
        let json = try authcat.runAsProcess(["show", "alice", "--json"], environment: ["TZ": "Asia/Kolkata"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertNotNil(object["created_at"] as? Int, json.stdout)
    }

    /// An absent issuer or note is null under --json (docs/JSON.md), in
    /// both programs' `list --json`, in `code --json` and `show --json`.
    func testAnAbsentIssuerOrNoteIsNull() throws {
        try add("plain")
        for program in [AuthCatRunner.executableURL, AuthCatRunner.fullProgramURL] {
            let list = try authcat.runAsProcess(program: program, ["list", "--json"])
            XCTAssertTrue(list.stdout.contains(#""issuer" : null"#), "\(program.lastPathComponent): \(list.stdout)")
        }
        let show = try succeed(["show", "plain", "--json"])
        XCTAssertTrue(show.contains(#""issuer" : null"#) && show.contains(#""note" : null"#), show)
        let code = try succeed(["code", "plain", "--json"])
        XCTAssertTrue(code.contains(#""issuer" : null"#), code)
        let all = try succeed(["code", "--json"])
        XCTAssertTrue(all.contains(#""issuer" : null"#), all)
        try add("noted", issuer: "Example", ["--note", "in the safe"])
        let noted = try succeed(["show", "noted", "--json"])
        XCTAssertTrue(noted.contains(#""issuer" : "Example""#) && noted.contains(#""note" : "in the safe""#), noted)
    }
}
