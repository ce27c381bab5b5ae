import AuthCatEssentials
import AuthCatFront
import XCTest

/// The command lines the front answers itself; everything else is nil (handed to authcat-cli).
final class ShortcutTests: XCTestCase {
    func testTheCommandLinesTheFrontAnswers() {
        XCTAssertEqual(Shortcut(["code", "github"]), shortcut(nil, .code(query: "github", time: nil)))
        XCTAssertEqual(
            Shortcut(["--home", "/v", "code", "--at", "59", "GitHub:alice"]),
            shortcut("/v", .code(query: "GitHub:alice", time: 59)))
        XCTAssertEqual(Shortcut(["code", "--at=59", "--home=/v", "q"]), shortcut("/v", .code(query: "q", time: 59)))
        XCTAssertEqual(
            Shortcut(["code", "--at", "-5", "q"]), shortcut(nil, .code(query: "q", time: -5)),
            "parsed; the answer then hands it over, as authcat-cli refuses it")
        XCTAssertEqual(Shortcut(["list"]), shortcut(nil, .list(json: false)))
        XCTAssertEqual(Shortcut(["list", "--json"]), shortcut(nil, .list(json: true)))
        XCTAssertEqual(Shortcut(["--home", "/v", "list", "--json"]), shortcut("/v", .list(json: true)))
    }

    /// The completion scripts' requests for an account argument, read as
    /// swift-argument-parser reads them: the prefix is the last word up to the cursor.
    func testRequestsToCompleteAnAccountName() {
        func request(_ command: String, _ cursor: Int, _ words: [String]) -> Shortcut.Command? {
            Shortcut(["---completion", command, "--", "positional@0", "2", "\(cursor)"] + words)?.command
        }
        XCTAssertEqual(
            request("code", 3, ["authcat", "code", "GitHub"]),
            .completion(.live, words: ["authcat", "code", "GitHub"], prefix: "Git"))
        XCTAssertEqual(
            request("restore", 0, ["authcat", "restore", ""]),
            .completion(.deleted, words: ["authcat", "restore", ""], prefix: ""))
        XCTAssertEqual(request("history", 0, []), .completion(.all, words: [], prefix: ""))
        XCTAssertEqual(
            request("rm", 2, ["authcat", "rm", "é'x"]),
            .completion(.live, words: ["authcat", "rm", "é'x"], prefix: "é'"))
        // Another command or argument, an alias, a malformed request: authcat-cli's.
        XCTAssertNil(request("list", 0, ["authcat", "list", ""]))
        XCTAssertNil(request("remove", 0, ["authcat", "remove", ""]))
        XCTAssertNil(request("history", 1, []))
        XCTAssertNil(request("code", -1, ["authcat", "code", "x"]))
        XCTAssertNil(Shortcut(["---completion", "code", "--", "--home", "2", "0", "authcat", "code", "--home", ""]))
        XCTAssertNil(Shortcut(["---completion", "code", "--", "positional@0", "two", "0", "authcat", "code", ""]))
        XCTAssertNil(Shortcut(["---completion", "code", "positional@0", "2", "0", "authcat", "code", ""]))
    }

    func testEverythingElseIsHandedOver() {
        let others: [[String]] = [
            [], ["code"], ["code", "a", "b"], ["code", "q", "--json"], ["code", "--copy", "q"],
            ["code", "--at", "soon", "q"],
            ["code", "--at"], ["list", "x"], ["list", "--json", "--json"], ["--json", "list"], ["list", "--at", "5"],
            ["--home", "/a", "list", "--home", "/b"], ["--home"], ["--help"], ["show", "q"], ["code", "--", "q"],
            ["lst"],
        ]
        for arguments in others {
            XCTAssertNil(Shortcut(arguments), "\(arguments)")
        }
    }

    private func shortcut(_ home: String?, _ command: Shortcut.Command) -> Shortcut? {
        var arguments = home.map { ["--home", $0] } ?? []
        switch command {
        case .code(let query, let time): arguments += ["code"] + (time.map { ["--at", String($0)] } ?? []) + [query]
        case .list(let json): arguments += ["list"] + (json ? ["--json"] : [])
        case .completion: XCTFail("completion requests are tested on their own")
        }
        let parsed = Shortcut(arguments)
        XCTAssertEqual(parsed?.home, home)
        XCTAssertEqual(parsed?.command, command)
        return parsed
    }
}
