import AuthCatTestSupport
import Foundation
import XCTest

/// Issue 8 §2: a full disk during vault creation, an import and an HOTP code
/// gives a clean one-line error that says the disk is full (never SQLite's
/// own text), leaves no vault or the last committed one, and the next command
/// works once space is free.
///
/// The vault lives on a small tmpfs, filled to leave 0 to 192 KiB free (a
/// new vault needs about 160): every 8 KiB by default, every 4 KiB with
/// `AUTHCAT_FAULT_DISK=all` (as in `scripts/fault-suite`). The sizes are
/// stepped rather than seeded, so the same ones fail every time.
final class FullDiskTests: FaultTestCase {
    private var disk: TmpfsMount!
    private var results: [String] = []
    private var problems: [String] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        do {
            disk = try TmpfsMount(path: scratch.appendingPathComponent("tmpfs").path, kilobytes: 2048)
        } catch {
            XCTFail("cannot set up the full disk: \(error)")
            throw error
        }
    }

    override func tearDown() {
        if let disk {
            waitForStragglers(under: disk.path, timeout: 20)
            disk.unmount()
        }
        super.tearDown()
    }

    private var freeSizes: [Int] {
        let step = ProcessInfo.processInfo.environment["AUTHCAT_FAULT_DISK"] == "all" ? 4096 : 8192
        return Array(stride(from: 0, through: 192 * 1024, by: step))
    }

    private var home: URL { URL(fileURLWithPath: disk.path).appendingPathComponent("vault", isDirectory: true) }

    func testFullDiskAtEverySize() throws {
        var outcomes: [String: [String: Int]] = [:]
        for free in freeSizes {
            for (scenario, body) in [("first add", firstAdd), ("import", importing), ("HOTP code", hotpCode)] {
                try disk.clear()
                let outcome = try body(free)
                outcomes[scenario, default: [:]][outcome, default: 0] += 1
                results.append("\(scenario) with \(free / 1024) KiB free: \(outcome)")
            }
        }
        results.forEach { print($0) }
        for (scenario, counts) in outcomes.sorted(by: { $0.key < $1.key }) {
            FaultSettings.record(
                "full disk: \(scenario)",
                counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        }
        FaultSettings.record("full disk: sizes tried", freeSizes.count)
        FaultSettings.record("full disk: problems", problems.count)
        XCTAssertEqual(problems, [], "seed \(FaultSettings.seed)")
    }

    /// Checks a failure's message: one line, `authcat: `, saying the disk is full, no SQLite text.
    private func checkCleanFailure(_ run: FaultRun, _ context: String) {
        let message = run.errorLine ?? run.stderr
        let lower = message.lowercased()
        if run.termination == .exited(0) || run.stderrLines.count != 1 || !message.hasPrefix("authcat: ")
            || !(lower.contains("disk is full") || lower.contains("no space left")) || Self.hasRawSQLiteText(message)
        {
            problems.append("\(context): not a clean disk-full error: \(run.termination) \(message)")
        }
        if !run.stdout.isEmpty { problems.append("\(context): printed on failure: \(run.stdout)") }
    }

    /// The first add on an empty folder; then, with space again, the next add.
    private func firstAdd(_ free: Int) throws -> String {
        let context = "first add with \(free) bytes free"
        try disk.fill(leaving: free)
        let first = try run(home, ["add", "first", "--issuer", "D"], stdin: Self.rfcSecret + "\n")
        if !first.succeeded { checkCleanFailure(first, context) }
        // No vault, or a whole one: it lists, or (SQLite may need a page of
        // its shared-memory file) says the disk is full; never "damaged".
        if case .failure(let failure) = try accounts(home) {
            checkCleanFailure(failure.run, "\(context), then list on the full disk")
        }
        disk.free()
        for problem in integrityProblems(in: home) { problems.append("\(context): \(problem)") }
        let next = try run(home, ["add", "second", "--issuer", "D"], stdin: Self.rfcSecret + "\n")
        if !next.succeeded { problems.append("\(context): the next add failed: \(next.stderr)") }
        let labels = Set(((try? accounts(home).get()) ?? []).map(\.label))
        if first.succeeded, !labels.contains("D:first") { problems.append("\(context): the reported account is gone") }
        if next.succeeded, !labels.contains("D:second") { problems.append("\(context): the next account is missing") }
        let code = try run(home, ["code", "D:second", "--at", "59"])
        if code.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != Self.rfcCodeAt59 {
            problems.append("\(context): the vault does not decrypt: \(code.stderr)")
        }
        return first.succeeded ? "succeeded" : "failed"
    }

    /// An import of 40 accounts into a vault with one.
    private func importing(_ free: Int) throws -> String {
        let context = "import with \(free) bytes free"
        try add(home, "kept", issuer: "D")
        let file = try inputFile(
            (1...40).map {
                "otpauth://totp/D:imported\($0)?secret=\(Self.rfcSecret)&issuer=D"
            }.joined(separator: "\n") + "\n")
        let before = try listed(home)
        try disk.fill(leaving: free)
        let attempt = try run(home, ["import", file, "--format", "otpauth"])
        if !attempt.succeeded { checkCleanFailure(attempt, context) }
        if case .failure(let failure) = try accounts(home) {
            checkCleanFailure(failure.run, "\(context), then list on the full disk")
        }
        disk.free()
        for problem in integrityProblems(in: home) { problems.append("\(context): \(problem)") }
        // With space again: what was reported, or the last committed state, is there.
        switch try accounts(home) {
        case .failure(let failure): problems.append("\(context): list once space is free: \(failure)")
        case .success(let after):
            if attempt.succeeded, after.count != before.count + 40 {
                problems.append("\(context): imported \(after.count - before.count) of 40")
            }
            if !attempt.succeeded, after != before { problems.append("\(context): a failed import changed the vault") }
        }
        let again = try run(home, ["import", file, "--format", "otpauth"])
        if !again.succeeded { problems.append("\(context): importing again with space failed: \(again.stderr)") }
        if (try? accounts(home).get())?.count != before.count + 40 {
            problems.append("\(context): the accounts are not all there")
        }
        return attempt.succeeded ? "succeeded" : "failed"
    }

    /// HOTP codes while the disk is full: each is printed once its counter is
    /// saved, or not at all; with space again the next one is new.
    private func hotpCode(_ free: Int) throws -> String {
        let context = "HOTP code with \(free) bytes free"
        try add(home, "h", issuer: "D", ["--type", "hotp", "--digits", "8"])
        var printed = [try succeed(home, ["code", "D:h"]).stdout]
        try disk.fill(leaving: free)
        var failures = 0
        for attempt in 1...3 {
            let result = try run(home, ["code", "D:h"])
            if result.succeeded {
                printed.append(result.stdout)
            } else {
                failures += 1
                checkCleanFailure(result, "\(context), code \(attempt)")
            }
        }
        disk.free()
        for problem in integrityProblems(in: home) { problems.append("\(context): \(problem)") }
        let next = try run(home, ["code", "D:h"])
        if next.succeeded {
            printed.append(next.stdout)
        } else {
            problems.append("\(context): the next code failed: \(next.stderr)")
        }
        if Set(printed).count != printed.count {
            problems.append("\(context): an HOTP code was printed twice: \(printed)")
        }
        return failures == 0 ? "succeeded" : failures == 3 ? "failed" : "some failed"
    }
}
