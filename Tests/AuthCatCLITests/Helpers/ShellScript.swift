import Foundation
import XCTest

/// Runs a bash script, for what only a shell sets up: FIFOs with a reader in
/// the background, `>(…)`, redirections of extra descriptors. In the script,
/// the function `authcat` runs authcat on the test's vault (`--home HOME`), and
/// the working folder is the test's folder. Background readers should send
/// their errors elsewhere (`2> /dev/null`), or a reader left waiting holds the
/// script's standard error open until its `timeout`.
extension AuthCatRunner {
    @discardableResult
    func shell(
        _ script: String, environment extra: [String: String] = [:], timeout: TimeInterval = 60
    ) throws -> AuthCatResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        // A failing step fails the script; `timeout` keeps a reader that
        // would wait forever (a FIFO replaced by a file) from hanging the test.
        let prelude = """
            set -e -o pipefail
            authcat() { "$AUTHCAT_PROGRAM" --home "$AUTHCAT_VAULT" "$@"; }

            """
        process.arguments = ["-c", prelude + script]
        process.environment = environment.merging(extra) { _, new in new }
            .merging(["AUTHCAT_PROGRAM": Self.executableURL.path, "AUTHCAT_VAULT": home.path]) { _, new in new }
        process.currentDirectoryURL = root
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let done = DispatchGroup()
        let box = ShellOutput()
        DispatchQueue.global().async(group: done) { box.stdout = output.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: done) { box.stderr = errors.fileHandleForReading.readDataToEndOfFile() }
        guard done.wait(timeout: .now() + timeout) == .success else {
            process.terminate()
            throw AuthCatRunnerError.timedOut(["bash", "-c", script], seconds: timeout)
        }
        process.waitUntilExit()
        return AuthCatResult(
            status: process.terminationStatus, stdout: String(decoding: box.stdout, as: UTF8.self),
            stderr: String(decoding: box.stderr, as: UTF8.self))
    }
}

/// Written by one reader thread each, read after both finished.
private final class ShellOutput: @unchecked Sendable {
    var stdout = Data()
    var stderr = Data()
}
