import AuthCatTestSupport
import Foundation
import XCTest

/// `scripts/install` (issue 32 §C): `--uninstall` and an update remove only
/// files under the prefix that the record lists and that still are what was
/// installed; a planted record line naming a file out of the prefix, through
/// a link, with `..`, or one whose content changed, leaves that file where it
/// is and says so. The programs installed are stand-ins (the script copies
/// whatever the build folder holds), so no release build is needed.
/// `scripts/check-install` runs the same script on the real programs.
final class InstallScriptTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private var folder: TemporaryFolder!
    private var prefix: URL { folder.url("prefix") }
    private var record: URL { prefix.appendingPathComponent("share/authcat-install/installed-files") }

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder()
        let build = folder.url("build")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        for program in ["authcat", "authcat-cli"] {
            let url = build.appendingPathComponent(program)
            try Data("#!/bin/sh\necho \(program)\n".utf8).write(to: url)
            XCTAssertEqual(chmod(url.path, 0o755), 0)
        }
    }

    override func tearDown() {
        folder?.remove()
        super.tearDown()
    }

    private struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private func install(_ arguments: [String] = []) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments =
            [Self.repository.appendingPathComponent("scripts/install").path, "--prefix", prefix.path]
            + (arguments.contains("--uninstall") ? [] : ["--build", folder.url("build").path]) + arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DESTDIR")
        process.environment = environment
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    private func sha256(_ url: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [url.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    /// Every file and link under the prefix, relative to it, sorted.
    private func installedFiles() -> [String] {
        let walker = FileManager.default.enumerator(atPath: prefix.path)
        return (walker?.compactMap { $0 as? String } ?? []).filter { path in
            var isFolder: ObjCBool = false
            let full = prefix.appendingPathComponent(path).path
            let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) != nil
            return isLink
                || (FileManager.default.fileExists(atPath: full, isDirectory: &isFolder) && !isFolder.boolValue)
        }.sorted()
    }

    private func appendToRecord(_ lines: [String]) throws {
        let handle = try FileHandle(forWritingTo: record)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
        try handle.close()
    }

    func testTheRecordHoldsEachFilesHashAndUninstallRemovesExactlyThem() throws {
        let installed = try install()
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let lines = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasSuffix("  " + prefix.path + "/bin/authcat") }, "\(lines)")
        for line in lines {
            let (hash, path) = (String(line.prefix(64)), String(line.dropFirst(66)))
            XCTAssertEqual(try sha256(URL(fileURLWithPath: path)), hash, line)
        }
        let removed = try install(["--uninstall"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(removed.stderr, "")
        XCTAssertEqual(installedFiles(), [])
    }

    func testUninstallLeavesWhatAPlantedRecordLineNames() throws {
        XCTAssertEqual(try install().status, 0)
        // A file out of the prefix, named plainly, with its true hash, and through `..`.
        let outside = folder.url("precious")
        try Data("someone else's\n".utf8).write(to: outside)
        // A folder under the prefix that is a link to one out of it.
        let elsewhere = folder.url("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data("also not ours\n".utf8).write(to: elsewhere.appendingPathComponent("file"))
        try FileManager.default.createSymbolicLink(
            at: prefix.appendingPathComponent("share/linked"), withDestinationURL: elsewhere)
        // A file authcat installed that the user changed since.
        let page = prefix.appendingPathComponent("share/man/man1/authcat.1")
        try Data("my own notes\n".utf8).write(to: page)
        let hash = try sha256(outside)
        try appendToRecord([
            outside.path,
            "\(hash)  \(outside.path)",
            "\(hash)  \(prefix.path)/../precious",
            "\(try sha256(elsewhere.appendingPathComponent("file")))  \(prefix.path)/share/linked/file",
            "not a line of ours",
        ])

        let removed = try install(["--uninstall"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try String(contentsOf: outside, encoding: .utf8), "someone else's\n")
        XCTAssertEqual(
            try String(contentsOf: elsewhere.appendingPathComponent("file"), encoding: .utf8), "also not ours\n")
        XCTAssertEqual(try String(contentsOf: page, encoding: .utf8), "my own notes\n")
        XCTAssertTrue(removed.stderr.contains("left \(page.path): it changed since it was installed"), removed.stderr)
        XCTAssertTrue(removed.stderr.contains("left \(outside.path): not a file under"), removed.stderr)
        XCTAssertTrue(removed.stderr.contains("left \(prefix.path)/../precious: not a file under"), removed.stderr)
        XCTAssertTrue(
            removed.stderr.contains("left \(prefix.path)/share/linked/file: not a file under"), removed.stderr)
        for line in removed.stderr.split(separator: "\n") { XCTAssertTrue(line.hasPrefix("install: left "), "\(line)") }
        XCTAssertTrue(removed.stdout.contains("left as said above"), removed.stdout)
        // Everything else it installed is gone; the link is not its to remove.
        XCTAssertEqual(installedFiles(), ["share/linked", "share/man/man1/authcat.1"])
    }

    /// An update removes what the old record lists and the new install does
    /// not, by the same rule; a record from before the hashes (paths alone)
    /// removes only authcat's own names.
    func testAnUpdateFromARecordWithoutHashesRemovesOnlyAuthcatsOwnNames() throws {
        XCTAssertEqual(try install().status, 0)
        let outside = folder.url("precious")
        try Data("someone else's\n".utf8).write(to: outside)
        let stray = prefix.appendingPathComponent("bin/other-tool")
        try Data("mine\n".utf8).write(to: stray)
        let oldPage = prefix.appendingPathComponent("share/man/man1/authcat.gone.1")
        try Data("a page an older version installed\n".utf8).write(to: oldPage)
        let paths = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map {
            String($0.dropFirst(66))
        }
        try Data((paths + [outside.path, stray.path, oldPage.path]).map { $0 + "\n" }.joined().utf8).write(to: record)

        let updated = try install()
        XCTAssertEqual(updated.status, 0, updated.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: stray.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldPage.path), "authcat's own name, not installed now")
        XCTAssertTrue(updated.stderr.contains("left \(outside.path): not a file under"), updated.stderr)
        XCTAssertTrue(updated.stderr.contains("left \(stray.path): the record gives no hash"), updated.stderr)
        let lines = try String(contentsOf: record, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, paths.count)
        XCTAssertTrue(lines.allSatisfy { $0.range(of: "^[0-9a-f]{64}  /", options: .regularExpression) != nil })
    }

    /// Under `~/.local`, `share/authcat` is the vault's folder: an install
    /// writes nothing there, and an update moves a record an earlier version
    /// left there out of it, leaving the vault and making the folder private
    /// again (issue 33 §1).
    func testTheVaultsFolderHoldsNothingOfTheInstallAndAnOldRecordLeavesIt() throws {
        let vaultFolder = prefix.appendingPathComponent("share/authcat")
        XCTAssertEqual(try install().status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: vaultFolder.path), "nothing where the vault lives")

        // As an earlier version left it: the record in the vault's folder, made 0755, beside a vault.
        try FileManager.default.createDirectory(at: vaultFolder, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(vaultFolder.path, 0o755), 0)
        let vault = vaultFolder.appendingPathComponent("vault.sqlite")
        try Data("a vault".utf8).write(to: vault)
        let oldRecord = vaultFolder.appendingPathComponent("installed-files")
        try FileManager.default.moveItem(at: record, to: oldRecord)
        let update = try install()
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldRecord.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: record.path))
        XCTAssertEqual(try Data(contentsOf: vault), Data("a vault".utf8))
        let mode = try XCTUnwrap(
            FileManager.default.attributesOfItem(atPath: vaultFolder.path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o077, 0, "the vault's folder is private again")

        // An old record alone in that folder takes the folder with it; --uninstall reads it too.
        try FileManager.default.removeItem(at: vault)
        try FileManager.default.moveItem(at: record, to: oldRecord)
        let removed = try install(["--uninstall"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: vaultFolder.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("bin/authcat").path))
    }
}
