import AuthCatTestSupport
import Foundation
import XCTest

/// The README's crontab lines, run as cron runs them: a fresh HOME with
/// authcat where `scripts/install` puts it by default (`~/.local/bin`), an
/// environment of HOME and cron's PATH alone, and `sh -c`. A line that names
/// a program cron cannot find fails here, as it would at 03:15.
final class ReadmeCronTests: AuthCatTestCase {
    private static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The lines of the README that are crontab entries (five schedule fields first).
    private func crontabLines() throws -> [String] {
        try String(contentsOf: Self.readme, encoding: .utf8).split(separator: "\n").map(String.init).filter {
            $0.range(of: #"^[0-9*/,-]+ [0-9*/,-]+ \* \* \* "#, options: .regularExpression) != nil
        }
    }

    func testEveryCrontabLineOfTheReadmeRunsWithCronsPathAfterTheDefaultInstall() throws {
        let lines = try crontabLines()
        XCTAssertGreaterThanOrEqual(lines.count, 2, "the README's backup section shows crontab lines")
        let home = authcat.root.appendingPathComponent("cron-home")
        let bin = home.appendingPathComponent(".local/bin")
        let nas = authcat.root.appendingPathComponent("nas")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        // The NAS's folders are there, as a mounted share's are.
        try FileManager.default.createDirectory(
            at: nas.appendingPathComponent("authcat"), withIntermediateDirectories: true)
        for program in [AuthCatRunner.executableURL, AuthCatRunner.fullProgramURL] {
            try FileManager.default.copyItem(at: program, to: bin.appendingPathComponent(program.lastPathComponent))
        }
        let passphraseFile = home.appendingPathComponent(".config/authcat/backup-pass")
        try FileManager.default.createDirectory(
            at: passphraseFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("a backup passphrase for cron\n".utf8).write(to: passphraseFile)
        let added = try cron(
            "printf 'JBSWY3DPEHPK3PXP\\n' | $HOME/.local/bin/authcat add alice --issuer Example", home: home)
        XCTAssertEqual(added.status, 0, added.stderr)
        // A phone's export that a folder sync brings, followed (the README's follow line).
        let export = home.appendingPathComponent("Sync/phone.txt")
        try FileManager.default.createDirectory(
            at: export.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("otpauth://totp/Phone:bob?secret=KRSXG5BAMFRGGZDF\n".utf8).write(to: export)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-10)], ofItemAtPath: export.path)
        let followed = try cron("$HOME/.local/bin/authcat follow add $HOME/Sync/phone.txt", home: home)
        XCTAssertEqual(followed.status, 0, followed.stderr)

        for line in lines {
            // The schedule is cron's; `\%` is how a crontab line writes a `%`.
            let command = line.split(separator: " ", maxSplits: 5).last.map(String.init) ?? ""
            let result = try cron(
                command.replacingOccurrences(of: "/mnt/nas", with: nas.path)
                    .replacingOccurrences(of: "\\%", with: "%"), home: home)
            XCTAssertEqual(result.status, 0, "\(line): \(result.stderr)")
        }
        let written = try FileManager.default.subpathsOfDirectory(atPath: nas.path).filter {
            $0.hasSuffix(".authcat")
        }
        XCTAssertEqual(written.count, lines.filter { $0.contains(" backup ") }.count, "\(written)")
        let log = try String(contentsOf: home.appendingPathComponent("authcat-follow.log"), encoding: .utf8)
        XCTAssertTrue(log.contains(#""status" : "unchanged""#), log)
    }

    /// `command` under `sh -c` with HOME, cron's PATH and nothing else of the machine's.
    private func cron(_ command: String, home: URL) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        // cron's PATH is /usr/bin:/bin, as the clean environment's.
        process.environment = ProgramEnvironment.clean(home: home.path)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }
}
