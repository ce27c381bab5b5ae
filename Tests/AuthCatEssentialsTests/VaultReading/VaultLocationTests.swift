import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatEssentials

/// The vault's folder is kept as a path (issue 22: the quick front makes no
/// `URL`); these prove it is the path the `URL`s made before.
final class VaultLocationTests: XCTestCase {
    /// The folder `resolve` chose when it went through `URL`.
    private func folderThroughURL(override: String?, environment: [String: String]) -> String? {
        let nonEmpty = { (value: String?) in value.flatMap { $0.isEmpty ? nil : $0 } }
        let folder: URL
        if let path = nonEmpty(override) ?? nonEmpty(environment["AUTHCAT_HOME"]) {
            folder = URL(fileURLWithPath: path)
        } else if let data = nonEmpty(environment["XDG_DATA_HOME"]), data.hasPrefix("/") {
            folder = URL(fileURLWithPath: data).appendingPathComponent("authcat")
        } else if let home = nonEmpty(environment["HOME"]) {
            folder = URL(fileURLWithPath: home).appendingPathComponent(".local/share/authcat")
        } else {
            return nil
        }
        return folder.standardizedFileURL.path
    }

    /// Seeded random paths made of the pieces that `URL` treats specially
    /// (empty, `.` and `..` components, `~` at the start, final slashes,
    /// percent signs, spaces, non-ASCII), in each of the three places a
    /// folder comes from: `resolve` gives the folder the `URL`s gave.
    func testResolveGivesTheFolderThatURLGave() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["AUTHCAT_TEST_SEED"] ?? "") ?? 2_026_112_522
        print("VaultLocationTests seed: \(seed) (AUTHCAT_TEST_SEED replays it)")
        var random = SeededRandom(seed: seed)
        let pieces = [
            "", ".", "..", "...", ".a", "a.", "..b", "vault", "b c", "%20", "%2F", "é", "e\u{301}", "~", "~root",
            "~nosuchuser", "a~", ";", "?#", "\\",
        ]
        for _ in 0..<3_000 {
            var path = random.chance(0.6) ? "/" : ""
            for index in 0..<Int.random(in: 0...5, using: &random) {
                path += (index == 0 ? "" : "/") + (random.pick(pieces) ?? "")
            }
            if random.chance(0.2) { path += "/" }
            let place = Int.random(in: 0..<3, using: &random)
            let environment =
                place == 0
                ? ["AUTHCAT_HOME": path] : place == 1 ? ["XDG_DATA_HOME": path, "HOME": "/h"] : ["HOME": path]
            let expected = folderThroughURL(override: nil, environment: environment)
            let location = try? VaultLocation.resolve(override: nil, environment: environment)
            XCTAssertEqual(location?.folderPath, expected, "\(place) \(path.debugDescription)")
            if let location {
                XCTAssertEqual(location.databasePath, location.databaseURL.path)
                XCTAssertEqual(location.databasePath, location.folder.appendingPathComponent("vault.sqlite").path)
                XCTAssertEqual(location.keyFilePath, location.folder.appendingPathComponent("vault.key").path)
                XCTAssertEqual(location.noticeFilePath, location.noticeFileURL.path)
                XCTAssertEqual(location, VaultLocation(folder: location.folder))
            }
        }
    }

    /// What `URL` leaves unchanged is taken as it is, anything else goes through `URL`.
    func testOnlyPathsWithNothingToResolveAreTakenAsTheyAre() {
        for path in ["/", "/a", "/a/b", "/a/.b/c..", "/a/.../b", "/~/a", "/a b/é"] {
            XCTAssertTrue(VaultLocation.isStandardAbsolute(path), path)
        }
        for path in ["", "a", "~/a", "//", "/a/", "/a//b", "/a/./b", "/a/../b", "/.", "/..", "/a/.", "/a/.."] {
            XCTAssertFalse(VaultLocation.isStandardAbsolute(path), path)
            XCTAssertEqual(VaultLocation(path: path).folderPath, URL(fileURLWithPath: path).standardizedFileURL.path)
        }
        XCTAssertEqual(VaultLocation(path: "/").databasePath, "/vault.sqlite")
    }
}
