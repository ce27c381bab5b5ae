import AuthCatFront
import XCTest

/// The command lines the front answers itself; everything else is nil (handed to authcat-cli).
final class ShortcutTests: XCTestCase {
    func testTheCommandLinesTheFrontAnswers() {
        XCTAssertEqual(Shortcut(["code", "github"]), shortcut(nil, .code(query: "github", time: nil)))
        XCTAssertEqual(Shortcut(["--home", "/v", "code", "--at", "59", "GitHub:alice"]), shortcut("/v", .code(query: "GitHub:alice", time: 59)))
        XCTAssertEqual(Shortcut(["code", "--at=59", "--home=/v", "q"]), shortcut("/v", .code(query: "q", time: 59)))
        XCTAssertEqual(Shortcut(["code", "--at", "-5", "q"]), shortcut(nil, .code(query: "q", time: -5)),
                       "parsed; the answer then hands it over, as authcat-cli refuses it")
        XCTAssertEqual(Shortcut(["list"]), shortcut(nil, .list(json: false)))
        XCTAssertEqual(Shortcut(["list", "--json"]), shortcut(nil, .list(json: true)))
        XCTAssertEqual(Shortcut(["--home", "/v", "list", "--json"]), shortcut("/v", .list(json: true)))
    }

    func testEverythingElseIsHandedOver() {
        let others: [[String]] = [
            [], ["code"], ["code", "a", "b"], ["code", "q", "--json"], ["code", "--copy", "q"], ["code", "--at", "soon", "q"],
            ["code", "--at"], ["list", "x"], ["list", "--json", "--json"], ["--json", "list"], ["list", "--at", "5"],
            ["--home", "/a", "list", "--home", "/b"], ["--home"], ["--help"], ["show", "q"], ["code", "--", "q"], ["lst"],
        ]
        for arguments in others {
            XCTAssertNil(Shortcut(arguments), "\(arguments)")
        }
    }

    private func shortcut(_ home: String?, _ command: Shortcut.Command) -> Shortcut? {
        var arguments = home.map { ["--home", $0] } ?? []
        switch command {
        case let .code(query, time): arguments += ["code"] + (time.map { ["--at", String($0)] } ?? []) + [query]
        case let .list(json): arguments += ["list"] + (json ? ["--json"] : [])
        }
        let parsed = Shortcut(arguments)
        XCTAssertEqual(parsed?.home, home)
        XCTAssertEqual(parsed?.command, command)
        return parsed
    }
}
