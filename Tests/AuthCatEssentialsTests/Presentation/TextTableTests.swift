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
}
