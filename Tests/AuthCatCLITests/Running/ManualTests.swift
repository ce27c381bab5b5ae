import Foundation
import XCTest

/// The man pages in man/man1 are what swift-argument-parser's generate-manual
/// makes from the command tree now (scripts/man-pages), and each renders
/// without a warning, also as installed the README's way.
final class ManualTests: AuthCatTestCase {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let pages = repository.appendingPathComponent("man/man1")

    func testCommittedManPagesAreUpToDate() throws {
        let made = authcat.root.appendingPathComponent("man1")
        // scripts/test builds generate-manual beside authcat-cli; under `swift test`
        // the first run builds it, which takes a minute or two.
        let result = try run(
            "/bin/bash",
            [
                Self.repository.appendingPathComponent("scripts/man-pages").path, made.path,
                AuthCatRunner.fullProgramURL.path,
            ], timeout: 900)
        XCTAssertEqual(result.status, 0, result.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: made.path).sorted()
        XCTAssertTrue(
            names.contains("authcat.1") && names.contains("authcat.code.1") && names.contains("authcat.sync.enable.1"),
            "\(names)")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: Self.pages.path).sorted(), names,
            "man/man1 has other pages than the commands; run scripts/regenerate")
        for name in names {
            // A page's date says when it was made; the rest must match.
            func text(_ folder: URL) throws -> String {
                try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(".Dd ") }.joined(
                        separator: "\n")
            }
            XCTAssertEqual(
                try text(Self.pages), try text(made), "man/man1/\(name) is out of date; run scripts/regenerate")
        }
    }

    /// What the pages say beyond the help text: one date, the statuses
    /// authcat uses, no page for the internal clipboard-clear, and help text
    /// that roff would take for requests (a line starting with ') kept as text.
    func testPagesShareADateListTheStatusesAndKeepTheirText() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.pages.path).filter { $0.hasSuffix(".1") }
        XCTAssertFalse(names.contains("authcat.clipboard-clear.1"))
        var dates: Set<String> = []
        for name in names {
            let text = try String(contentsOf: Self.pages.appendingPathComponent(name), encoding: .utf8)
            dates.formUnion(text.split(separator: "\n").filter { $0.hasPrefix(".Dd ") }.map(String.init))
            XCTAssertFalse(text.contains("clipboard-clear"), name)
            XCTAssertFalse(text.contains(".Ex -std"), name)
            XCTAssertTrue(text.contains(".Sh \"EXIT STATUS\"\n.Bl -tag -width 4n\n.It 0\n"), name)
            XCTAssertTrue(text.contains(".It 64\n"), name)
            XCTAssertFalse(
                text.split(separator: "\n").contains { $0.hasPrefix("'") }, "\(name) has a line roff reads as a request"
            )
        }
        XCTAssertEqual(dates.count, 1, "\(dates)")
        let status = try String(contentsOf: Self.pages.appendingPathComponent("authcat.sync.status.1"), encoding: .utf8)
        XCTAssertTrue(status.contains("7 remote deleted, 8 vault mismatch"), status)
        let add = try run(
            "/usr/bin/man", ["-l", Self.pages.appendingPathComponent("authcat.add.1").path],
            environment: ["MANWIDTH": "200"])
        // groff may print typographic quotes and hyphens; the words are what count.
        let plain = add.stdout.replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(
            of: "\u{2018}", with: "'"
        )
        .replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(of: "\u{2212}", with: "-")
        XCTAssertTrue(
            plain.contains(#"printf '%s\n' "$SECRET" "$PIN" | authcat add Yandex:ivan --type yandex"#),
            plain)
    }

    func testEveryPageRendersAndManFindsThemWhereTheReadmeInstallsThem() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "man is missing; run scripts/setup")
        let userHome = authcat.root.appendingPathComponent("man-home")
        let installed = userHome.appendingPathComponent(".local/share/man/man1")
        try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: userHome.appendingPathComponent(".local/bin"), withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.pages.path).filter { $0.hasSuffix(".1") }
        XCTAssertGreaterThan(names.count, 20)
        for name in names {
            let page = Self.pages.appendingPathComponent(name)
            let rendered = try run("/usr/bin/man", ["-l", page.path], environment: ["MANWIDTH": "80"])
            XCTAssertEqual(rendered.status, 0, name)
            XCTAssertEqual(rendered.stderr, "", "\(name) renders with warnings")
            XCTAssertTrue(rendered.stdout.contains("NAME") && rendered.stdout.contains("authcat"), name)
            try FileManager.default.copyItem(at: page, to: installed.appendingPathComponent(name))
        }
        // man looks in ~/.local/share/man for programs in ~/.local/bin.
        let found = try run(
            "/usr/bin/man", ["-w", "authcat", "authcat.code"],
            environment: ["HOME": userHome.path, "PATH": userHome.path + "/.local/bin:/usr/bin:/bin"])
        XCTAssertEqual(found.status, 0, found.stderr)
        XCTAssertEqual(
            found.stdoutLines,
            [
                installed.appendingPathComponent("authcat.1").path,
                installed.appendingPathComponent("authcat.code.1").path,
            ])
    }

    private func run(
        _ program: String, _ arguments: [String], environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) throws -> AuthCatResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = authcat.root.appendingPathComponent("out-\(UUID().uuidString)")
        let errors = authcat.root.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning {
            process.terminate()
            XCTFail("\(program) still running after \(timeout) s")
        }
        process.waitUntilExit()
        return AuthCatResult(
            status: process.terminationStatus, stdout: try String(contentsOf: output, encoding: .utf8),
            stderr: try String(contentsOf: errors, encoding: .utf8))
    }
}
