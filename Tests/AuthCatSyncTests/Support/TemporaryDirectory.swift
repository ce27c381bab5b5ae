import Foundation
import XCTest

/// A fresh, private temporary folder for one test, removed when the test ends.
final class TemporaryDirectory {
    let url: URL
    var path: String { url.path }

    init(_ name: String = "test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("authcat-\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

extension XCTestCase {
    /// A temporary folder that is deleted when the current test finishes.
    func makeTemporaryDirectory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(String(describing: type(of: self)))
        addTeardownBlock { directory.remove() }
        return directory
    }
}
