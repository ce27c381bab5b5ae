import Foundation
import XCTest

final class CompletionTests: AuthCatTestCase {
    /// The committed scripts in completions/ must be what the binary generates now.
    func testCommittedCompletionScriptsAreUpToDate() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("completions")
        for (shell, file) in [("bash", "authcat.bash"), ("zsh", "_authcat"), ("fish", "authcat.fish")] {
            let generated = try authcat.run(["--generate-completion-script", shell], withHome: false)
            XCTAssertEqual(generated.status, 0, generated.stderr)
            XCTAssertTrue(generated.stdout.contains("---completion code"), "\(shell) completes account names dynamically")
            let committed = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(committed == generated.stdout,
                          "completions/\(file) is out of date; run: authcat --generate-completion-script \(shell) > completions/\(file)")
        }
    }

    func testAccountNamesCompleteFromTheVaultNamedByHome() throws {
        try add("alice", issuer: "GitHub")
        try add("bob", issuer: "GitLab")
        try add("carol", issuer: "Example")
        let result = try complete(["code", "--home", authcat.home.path, "git"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutLines, ["GitHub:alice", "GitLab:bob"])
    }

    func testCompletionHonoursTheEnvironmentAndScopes() throws {
        let id = try add("alice", issuer: "GitHub")
        try add("bob", issuer: "GitLab")
        try succeed(["rm", id, "--yes"])
        let environment = ["AUTHCAT_HOME": authcat.home.path]
        XCTAssertEqual(try complete(["code", ""], environment: environment).stdoutLines, ["GitLab:bob"])
        XCTAssertEqual(try complete(["restore", ""], command: "restore", environment: environment).stdoutLines, ["GitHub:alice"])
        XCTAssertEqual(try complete(["history", ""], command: "history", environment: environment).stdoutLines,
                       ["GitHub:alice", "GitLab:bob"])
    }

    func testCompletionNeverAsksForAPassphraseOrPrintsAnError() throws {
        try add("alice", issuer: "GitHub")
        let passphrase = authcat.root.appendingPathComponent("pass")
        try "secret words\n".write(to: passphrase, atomically: true, encoding: .utf8)
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": passphrase.path])
        let locked = try complete(["code", "--home", authcat.home.path, "G"])
        XCTAssertEqual(locked.stdoutLines, ["GitHub:alice"], "labels need no passphrase")
        XCTAssertEqual(locked.stderr, "")

        let missing = try complete(["code", "--home", authcat.root.appendingPathComponent("nothing").path, "G"])
        XCTAssertEqual(missing.status, 0)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertEqual(missing.stderr, "")
    }

    func testShellSpecificFormsOfLabelsWithColons() throws {
        try add("alice", issuer: "GitHub")
        let home = ["AUTHCAT_HOME": authcat.home.path]
        // bash has split "GitHub:al" at the colon and replaces only "al".
        let bash = try complete(["code", "GitHub", ":", "al"], environment: home.merging(["SAP_SHELL": "bash"]) { $1 })
        XCTAssertEqual(bash.stdoutLines, ["alice"])
        // zsh's _describe reads "value:description", so the colon is escaped.
        let zsh = try complete(["code", "Git"], environment: home.merging(["SAP_SHELL": "zsh"]) { $1 })
        XCTAssertEqual(zsh.stdoutLines.first, "GitHub\\:alice")
    }

    /// Runs the completion request a shell script makes for the first
    /// argument of `command`, with `words` after "authcat" and the cursor at the end.
    private func complete(_ words: [String], command: String = "code", environment: [String: String] = [:]) throws -> AuthCatResult {
        let line = ["authcat"] + words
        let index = line.count - 1
        return try authcat.run(["---completion", command, "--", "positional@0", "\(index)", "\(line[index].count)"] + line,
                               environment: environment, withHome: false)
    }
}
