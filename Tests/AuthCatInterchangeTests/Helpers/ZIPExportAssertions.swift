import Foundation
import XCTest

@testable import AuthCatInterchange

/// Asserts that the file at `path` of the ZIP fixture `name`, given alone,
/// reads as the whole archive does: the same entries and rejections.
func assertFileAloneReadsAsItsArchive(
    _ name: String, path: String, _ format: ImportFormat, file: StaticString = #filePath, line: UInt = #line
) throws {
    let archive = try Fixture.data(name, file: file, line: line)
    let whole = try format.parse(archive, context: .failingIfAsked())
    let data = try XCTUnwrap(BoundedZIP(archive).contents(of: path), file: file, line: line)
    let alone = try format.parse(data, context: .failingIfAsked())
    XCTAssertEqual(
        alone.entries.map(ExpectedAccount.init), whole.entries.map(ExpectedAccount.init), file: file, line: line)
    XCTAssertEqual(alone.rejections, whole.rejections, file: file, line: line)
    XCTAssertFalse(whole.entries.isEmpty, file: file, line: line)
}
