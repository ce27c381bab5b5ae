import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

extension ImportContext {
    /// A context that answers `password` when asked.
    static func answering(_ password: String) -> ImportContext {
        ImportContext(password: { SecretBytes(utf8: password) })
    }

    /// A context whose prompt fails the test: for files that must be refused
    /// before the password is asked for.
    static func failingIfAsked(file: StaticString = #filePath, line: UInt = #line) -> ImportContext {
        ImportContext(password: {
            XCTFail("asked for the password of a file that should have been refused first", file: file, line: line)
            return SecretBytes(utf8: "unused")
        })
    }
}

/// Asserts that each of `fixtures` is refused as `wrongPassword(format)` with
/// the password `wrong`, and as `passwordRequired` with no way to ask for one.
func assertWrongPasswordOrNone(
    _ format: ImportFormat, _ fixtures: [String], wrong: String, file: StaticString = #filePath, line: UInt = #line
) throws {
    for name in fixtures {
        let data = try Fixture.data(name, file: file, line: line)
        XCTAssertThrowsError(try format.parse(data, context: .answering(wrong)), name, file: file, line: line) {
            XCTAssertEqual($0 as? ImportError, .wrongPassword(format), name, file: file, line: line)
        }
        XCTAssertThrowsError(try format.parse(data, context: ImportContext()), name, file: file, line: line) {
            XCTAssertEqual($0 as? ImportError, .passwordRequired, name, file: file, line: line)
        }
    }
}
