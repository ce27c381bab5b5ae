import Foundation
import XCTest

/// Files under Tests/AuthCatInterchangeTests/Fixtures.
enum Fixture {
    static func data(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil),
            let data = FileManager.default.contents(atPath: url.path)
        else {
            XCTFail("missing fixture \(name)", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return data
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try data(name), as: UTF8.self)
    }
}
