import Foundation

// A plain `swift build` (the README's release build among them) builds this
// target too, where XCTest cannot be imported; only the test targets use the
// extension below.
#if canImport(XCTest)
    import XCTest
#endif

/// A fresh private folder (mode 0700) under the system's temporary folder,
/// for one test or one test class: removed by `remove()`, when the object
/// goes away, or, made with `XCTestCase.makeTemporaryFolder()`, when the test ends.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }

    /// - Parameter label: goes into the folder's name, to tell whose it is when one is left behind.
    public init(_ label: String = "test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("authcat-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit { remove() }

    /// The item `name` in the folder (not created).
    public func url(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Removes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

#if canImport(XCTest)
    extension XCTestCase {
        /// A temporary folder named after the test class, removed when the current test ends.
        public func makeTemporaryFolder() throws -> TemporaryFolder {
            let folder = try TemporaryFolder(String(describing: type(of: self)))
            addTeardownBlock { folder.remove() }
            return folder
        }
    }
#endif
