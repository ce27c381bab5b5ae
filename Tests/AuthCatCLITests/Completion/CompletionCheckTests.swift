import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatCommandLine

/// `doctor`'s completion finding, decided from files and the environment.
final class CompletionCheckTests: XCTestCase {
    private var home: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        home = try makeTemporaryFolder().url
    }

    func testInstalledCurrentAndStale() throws {
        let environment = ["HOME": home.path, "SHELL": "/bin/bash"]
        let missing = CompletionCheck.completion(environment: environment) { _ in "script" }
        XCTAssertEqual(missing.status, .warning)
        XCTAssertTrue(missing.advice?.contains("--generate-completion-script bash") == true)

        let completions = home.appendingPathComponent(".local/share/bash-completion/completions")
        try FileManager.default.createDirectory(at: completions, withIntermediateDirectories: true)
        try Data("script\n".utf8).write(to: completions.appendingPathComponent("authcat"))
        XCTAssertEqual(CompletionCheck.completion(environment: environment) { _ in "script" }.status, .ok)
        let stale = CompletionCheck.completion(environment: environment) { _ in "newer script" }
        XCTAssertEqual(stale.status, .warning)
        XCTAssertTrue(stale.message.hasSuffix("is from another version of authcat"), stale.message)
    }

    func testPathsFollowTheReadme() {
        let environment = ["HOME": "/h"]
        XCTAssertEqual(
            CompletionCheck.completionPaths(shell: "bash", environment: environment).first,
            "/h/.local/share/bash-completion/completions/authcat")
        XCTAssertEqual(
            CompletionCheck.completionPaths(shell: "zsh", environment: environment).first, "/h/.zfunc/_authcat")
        XCTAssertEqual(
            CompletionCheck.completionPaths(shell: "fish", environment: environment).first,
            "/h/.config/fish/completions/authcat.fish")
        XCTAssertEqual(
            CompletionCheck.completion(environment: ["HOME": "/h", "SHELL": "/bin/tcsh"]) { _ in nil }.status, .ok)
    }
}
