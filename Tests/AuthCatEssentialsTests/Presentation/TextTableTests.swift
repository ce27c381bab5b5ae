import AuthCatEssentials
import XCTest

final class TextTableTests: XCTestCase {
    func testColumnsAreAlignedTwoSpacesApartWithoutTrailingSpaces() {
        let lines = TextTable.lines([["a", "bb", ""], ["ccc", "d", "e"], ["f", "", ""]])
        XCTAssertEqual(lines, ["a    bb", "ccc  d   e", "f"])
    }

    func testCellsAreSanitizedAndWideTextIsCountedByCharacters() {
        let lines = TextTable.lines([["é\u{1B}[2J", "x"], ["ab", "y"]])
        XCTAssertEqual(lines, ["é\\u{1b}[2J  x", "ab          y"])
    }

    func testSpacesEndingACellAreTrimmedAtTheEndOfALine() {
        XCTAssertEqual(TextTable.lines([["bob  ", ""]]), ["bob"])
    }

    /// A space after a "prepend" mark (U+0D4E) belongs to the mark's
    /// character, so trimming spaces as characters stops before it.
    func testASpaceJoinedToThePreviousCharacterStays() {
        XCTAssertEqual(TextTable.lines([["a\u{0D4E}", ""]]), ["a\u{0D4E} "])
    }

    /// For a terminal: the cut column gives up what the widest line is over
    /// the width, its long cells ending in `…`; the other columns stay whole.
    func testALongCellIsCutSoThatEachLineFitsTheWidth() {
        let rows = [["GitHub:alice-with-a-long-name", "totp", "30s"], ["Bank:bob", "hotp", "counter 1"]]
        let lines = TextTable.lines(rows, width: 30, cut: 0)
        XCTAssertEqual(lines, ["GitHub:alice…  totp  30s", "Bank:bob       hotp  counter 1"])
        for line in lines { XCTAssertLessThanOrEqual(line.count, 30, line) }
        XCTAssertEqual(TextTable.lines(rows, width: nil), TextTable.lines(rows), "no width, nothing cut")
        XCTAssertEqual(TextTable.lines(rows, width: 200), TextTable.lines(rows), "nothing cut where all fits")
    }

    /// Wide characters take two columns, in the padding and in a cut, which
    /// never splits one: the line stays within the width.
    func testWideCharactersCountTwoColumns() {
        XCTAssertEqual(TextTable.lines([["李雷", "x"], ["abcde", "y"]]), ["李雷   x", "abcde  y"])
        XCTAssertEqual(TextTable.lines([["a🐱", "x"], ["abcd", "y"]]), ["a🐱   x", "abcd  y"])
        let cut = TextTable.lines([["韓国語の長い名前です", "totp"], ["ab", "hotp"]], width: 16, cut: 0)
        XCTAssertEqual(cut, ["韓国語の…   totp", "ab" + String(repeating: " ", count: 10) + "hotp"])
    }

    /// A cut keeps a few characters, even when the line then stays wider than the terminal.
    func testACutKeepsAFewCharacters() {
        let lines = TextTable.lines([["123456", "Example:a-long-label", "29s left"]], width: 10, cut: 1)
        XCTAssertEqual(lines, ["123456  Example…  29s left"])
    }
}
