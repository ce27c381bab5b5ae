import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatInterchange

final class BackupRotationTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!

    func testNamesSortByTimeAndNeverRepeat() {
        let date = Date(timeIntervalSince1970: 1_714_533_300)  // 2024-05-01 03:15:00 UTC
        XCTAssertEqual(BackupRotation.fileName(at: date, timeZone: utc), "authcat-backup-20240501-031500.authcat")
        XCTAssertEqual(
            BackupRotation.fileName(at: date, sequence: 2, timeZone: utc), "authcat-backup-20240501-031500-2.authcat")
        let first = BackupRotation.stamp(of: "authcat-backup-20240501-031500.authcat")
        let second = BackupRotation.stamp(of: "authcat-backup-20240501-031500-2.authcat")
        let tenth = BackupRotation.stamp(of: "authcat-backup-20240501-031500-10.authcat")
        let later = BackupRotation.stamp(of: "authcat-backup-20240501-031501.authcat")
        XCTAssertNotNil(first)
        XCTAssertLessThan(first!, second!)
        XCTAssertLessThan(second!, tenth!, "by number, not by text")
        XCTAssertLessThan(tenth!, later!)
    }

    func testOnlyAuthcatsOwnNamesCount() {
        for name in [
            "notes.txt", "authcat-backup-x.authcat", "authcat-backup-20240501-031500.authcat.bak",
            "authcat-backup-20240501-031500-1.authcat", "authcat-backup-20240501-031500-02.authcat",
            "authcat-backup-2024050-031500.authcat", "my-authcat-backup-20240501-031500.authcat",
            "authcat-backup-20240501-03150a.authcat", "authcat-backup-20240501-031500-.authcat",
            ".authcat-backup-20240501-031500.authcat.ABC.tmp", "authcat-backup-٢٠٢٤٠٥٠١-031500.authcat",
        ] {
            XCTAssertNil(BackupRotation.stamp(of: name), name)
        }
    }

    func testExpiredKeepsTheNewestAndLeavesOtherFiles() {
        let names = [
            "authcat-backup-20240103-000000.authcat", "notes.txt", "authcat-backup-20240101-000000.authcat",
            "authcat-backup-20240102-000000.authcat", "authcat-backup-20240104-000000.authcat",
        ]
        let newest = "authcat-backup-20240104-000000.authcat"
        XCTAssertEqual(
            BackupRotation.expired(among: names, keep: 2, newest: newest),
            ["authcat-backup-20240101-000000.authcat", "authcat-backup-20240102-000000.authcat"])
        XCTAssertEqual(BackupRotation.expired(among: names, keep: 1, newest: newest).count, 3)
        XCTAssertEqual(BackupRotation.expired(among: names, keep: 4, newest: newest), [])
        XCTAssertEqual(BackupRotation.expired(among: names, keep: 10, newest: newest), [])
        // A clock set back makes the new backup sort before older names: it is still kept.
        let early = "authcat-backup-20230101-000000.authcat"
        let expired = BackupRotation.expired(among: names + [early], keep: 1, newest: early)
        XCTAssertFalse(expired.contains(early))
        XCTAssertEqual(expired.count, 4)
    }

    func testPruneDeletesOnlyRegularBackupFiles() throws {
        let folder = try makeTemporaryFolder().path
        let old = ["authcat-backup-20240101-000000.authcat", "authcat-backup-20240102-000000.authcat"]
        let newest = "authcat-backup-20240105-000000.authcat"
        for name in old + [newest, "notes.txt"] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: "\(folder)/\(name)"))
        }
        // A folder and a link with backup names are not backups authcat wrote.
        try FileManager.default.createDirectory(
            atPath: "\(folder)/authcat-backup-20230101-000000.authcat", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: "\(folder)/authcat-backup-20230102-000000.authcat", withDestinationPath: "notes.txt")
        XCTAssertEqual(try BackupRotation.prune(folder: folder, keep: 1, newest: newest), old)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted(),
            ["authcat-backup-20230101-000000.authcat", "authcat-backup-20230102-000000.authcat", newest, "notes.txt"])
        XCTAssertThrowsError(try BackupRotation.prune(folder: folder + "/missing", keep: 1, newest: newest))
    }

    func testPruneLeavesAnotherUsersFilesOutOfTheCount() throws {
        guard geteuid() == 0 else {
            throw XCTSkip("giving a file to another user needs root (CI runs the tests as root)")
        }
        let folder = try makeTemporaryFolder().path
        let mine = "authcat-backup-20240101-000000.authcat"
        let newest = "authcat-backup-20240105-000000.authcat"
        // Planted with later dates, they would take the places --keep leaves, and mine would go.
        let planted = ["authcat-backup-20990101-000000.authcat", "authcat-backup-20990102-000000.authcat"]
        for name in [mine, newest] + planted { try Data("x".utf8).write(to: URL(fileURLWithPath: "\(folder)/\(name)")) }
        for name in planted { XCTAssertEqual(chown("\(folder)/\(name)", 4242, 4242), 0) }
        XCTAssertEqual(try BackupRotation.prune(folder: folder, keep: 2, newest: newest), [])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ([mine, newest] + planted).sorted())
    }
}
