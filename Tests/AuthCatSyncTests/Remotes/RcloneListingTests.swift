import Foundation
import XCTest

@testable import AuthCatSync

/// What of rclone's listing counts as an object: never a path that climbs out of the folder, starts at the root,
/// or goes deeper than the format's names (issue 32 §4).
final class RcloneListingTests: XCTestCase {
    func testPathsOutsideTheFolderOrTooDeepAreIgnored() throws {
        let paths = [
            "authcat-v/manifest", "authcat-v/e-0000000001/d/b-0000000001", "../authcat-v/manifest",
            "authcat-v/../../x", "/authcat-v/manifest", "authcat-v/./manifest", "authcat-v//manifest",
            "a/b/c/d/e", String(repeating: "n", count: 600),
        ]
        let list = paths.map {
            ["Path": $0, "Size": 1, "ModTime": "2026-01-01T00:00:00Z", "IsDir": false] as [String: Any]
        }
        let data = try JSONSerialization.data(withJSONObject: ["list": list])
        let names = try RcloneListing.objects(data, prefix: "").map(\.name)
        XCTAssertEqual(names, ["authcat-v/e-0000000001/d/b-0000000001", "authcat-v/manifest"])
    }
}
