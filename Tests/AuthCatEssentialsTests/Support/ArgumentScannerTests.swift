import AuthCatEssentials
import XCTest

/// The one reading of argument lists both programs share: words, options with
/// and without values, and `--`.
final class ArgumentScannerTests: XCTestCase {
    func testWordsOptionsAndValues() {
        XCTAssertEqual(
            tokens(["--home", "/v", "code", "--at=59", "-h", "--json", "q"], valued: ["--home", "--at"]),
            [
                .option("--home", value: "/v"), .word("code"), .option("--at", value: "59"), .option("-h", value: nil),
                .option("--json", value: nil), .word("q"),
            ])
        // Only the options named take the next word; `=` gives any long option its value.
        XCTAssertEqual(
            tokens(["--at", "5", "--json=x"], valued: ["--home"]),
            [.option("--at", value: nil), .word("5"), .option("--json", value: "x")])
        // A value is the next word whatever it looks like, and may be empty.
        XCTAssertEqual(
            tokens(["--home", "--json", "--home="], valued: ["--home"]),
            [.option("--home", value: "--json"), .option("--home", value: "")])
        // An option that takes a value but ends the line has none.
        XCTAssertEqual(tokens(["code", "--home"], valued: ["--home"]), [.word("code"), .option("--home", value: nil)])
        // A single dash with `=` is not split: only long options are.
        XCTAssertEqual(tokens(["-x=1", "-"], valued: []), [.option("-x=1", value: nil), .option("-", value: nil)])
    }

    func testEverythingAfterTheEndOfOptionsIsAWord() {
        XCTAssertEqual(
            tokens(["code", "--", "--home", "x", "--"], valued: ["--home"]),
            [.word("code"), .endOfOptions, .word("--home"), .word("x"), .word("--")])
        XCTAssertEqual(tokens([], valued: ["--home"]), [])
    }

    func testFirstValue() {
        XCTAssertEqual(ArgumentScanner.firstValue(of: "--home", in: ["code", "--home", "/a", "--home=/b"]), "/a")
        XCTAssertEqual(ArgumentScanner.firstValue(of: "--home", in: ["--home=/b", "code", "--home", "/a"]), "/b")
        XCTAssertEqual(ArgumentScanner.firstValue(of: "--home", in: ["code", "--home"]), nil)
        XCTAssertEqual(ArgumentScanner.firstValue(of: "--home", in: ["code", "--home", "--home", "/a"]), "--home")
        XCTAssertEqual(ArgumentScanner.firstValue(of: "--home", in: ["code", "--", "--home", "/a"]), nil)
    }

    /// The completion of account names reads the vault the command would
    /// open: ArgumentParser keeps the last of two `--home`s.
    func testLastValue() {
        XCTAssertEqual(ArgumentScanner.lastValue(of: "--home", in: ["code", "--home", "/a", "--home=/b"]), "/b")
        XCTAssertEqual(ArgumentScanner.lastValue(of: "--home", in: ["--home=/b", "code", "--home", "/a"]), "/a")
        XCTAssertEqual(ArgumentScanner.lastValue(of: "--home", in: ["code", "--home"]), nil)
        XCTAssertEqual(ArgumentScanner.lastValue(of: "--home", in: ["--home", "/a", "--", "--home", "/b"]), "/a")
    }

    private func tokens(_ arguments: [String], valued: [String]) -> [ArgumentScanner.Token] {
        Array(ArgumentScanner(arguments, optionsTakingValue: valued))
    }
}
