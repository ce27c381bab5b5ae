import AuthCatTestSupport
import Foundation
import XCTest

/// Issue 8: any mix of concurrent authcat processes gives the result of some
/// serial order of them. Each trial starts its writers together and checks
/// the result against what every serial order gives (the mixes are chosen
/// so that all serial orders agree), on one vault and on an empty folder.
///
/// `AUTHCAT_FAULT_TRIALS` sets the trials per test (default 3;
/// `scripts/fault-suite` runs 100).
final class ConcurrentWriterTests: FaultTestCase {
    private var trials: Int { FaultSettings.integer("AUTHCAT_FAULT_TRIALS", default: 3) }

    /// Starts every command at once and waits for all of them.
    private func together(_ commands: [(home: URL, arguments: [String], stdin: String?)]) throws -> [FaultRun] {
        let children = try commands.map { try spawn($0.home, $0.arguments, stdin: $0.stdin) }
        return children.map { child in
            let termination = child.wait()
            defer { child.removeFiles() }
            return FaultRun(termination: termination, stdout: child.stdout, stderr: child.stderr)
        }
    }

    /// Issue 8 §1: eight `edit --tag` at once keep all eight tags.
    func testEightParallelEditsKeepEveryTag() throws {
        var lost = 0
        var unusable = 0
        var failed: [String] = []
        for trial in 1...trials {
            let home = makeHome("edits")
            try add(home, "t", issuer: "T")
            let tags = (1...8).map { "x\($0)" }
            let runs = try together(tags.map { (home, ["edit", "T:t", "--tag", $0], nil) })
            for (tag, run) in zip(tags, runs) where !run.succeeded || !run.stdout.hasPrefix("updated T:t") {
                failed.append("trial \(trial) edit --tag \(tag): \(run.termination) \(run.stderr)")
            }
            guard case .success(let listing) = try accounts(home) else {
                unusable += 1
                continue
            }
            let kept = Set(listing.first { $0.label == "T:t" }?.tags ?? [])
            let missing = tags.filter { !kept.contains($0) }
            if !missing.isEmpty { print("trial \(trial): tags lost: \(missing)") }
            lost += missing.count
            try? FileManager.default.removeItem(at: home)
        }
        FaultSettings.record("concurrent edits: trials", trials)
        FaultSettings.record("concurrent edits: lost updates", lost)
        FaultSettings.record("concurrent edits: unusable vaults", unusable)
        XCTAssertEqual(failed, [], "every edit reports success")
        XCTAssertEqual(lost, 0, "tags lost by concurrent edits (seed \(FaultSettings.seed))")
        XCTAssertEqual(unusable, 0)
    }

    /// Issue 8 §2: four first adds at once on an empty folder give one usable
    /// vault holding every account whose add succeeded; a failed add says why
    /// in one clean line.
    func testFourSimultaneousFirstAddsGiveOneVault() throws {
        var unusable: [String] = []
        var lost: [String] = []
        var unclean: [String] = []
        var failedAdds = 0
        for trial in 1...trials {
            let home = makeHome("first")
            let names = (1...4).map { "f\($0)" }
            let runs = try together(names.map { (home, ["add", $0, "--issuer", "F"], Self.rfcSecret + "\n") })
            for (name, run) in zip(names, runs) where !run.succeeded {
                failedAdds += 1
                if run.stderrLines.count != 1 || !run.stderr.hasPrefix("authcat: ") || Self.hasRawSQLiteText(run.stderr)
                {
                    unclean.append("trial \(trial) add \(name): \(run.termination) \(run.stderr)")
                }
            }
            guard case .success(let listing) = try accounts(home) else {
                unusable.append("trial \(trial): list fails")
                continue
            }
            let labels = Set(listing.map(\.label))
            for (name, run) in zip(names, runs) where run.succeeded && !labels.contains("F:\(name)") {
                lost.append("trial \(trial): F:\(name)")
            }
            // One vault whose key decrypts every account, and that takes the next add.
            for label in labels.sorted() {
                let code = try run(home, ["code", label, "--at", "59"])
                if code.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != Self.rfcCodeAt59 {
                    unusable.append("trial \(trial): code \(label): \(code.termination) \(code.stderr)")
                }
            }
            let next = try run(home, ["add", "next", "--issuer", "F"], stdin: Self.rfcSecret + "\n")
            if !next.succeeded { unusable.append("trial \(trial): the next add: \(next.stderr)") }
            for problem in integrityProblems(in: home) { unusable.append("trial \(trial): \(problem)") }
            try? FileManager.default.removeItem(at: home)
        }
        FaultSettings.record("simultaneous first adds: trials", trials)
        FaultSettings.record("simultaneous first adds: failed adds", failedAdds)
        FaultSettings.record("simultaneous first adds: unusable vaults", unusable.count)
        FaultSettings.record("simultaneous first adds: lost accounts", lost.count)
        XCTAssertEqual(unusable, [], "seed \(FaultSettings.seed)")
        XCTAssertEqual(lost, [], "adds that succeeded but are not in the vault")
        XCTAssertEqual(unclean, [], "a failed add says why in one line, without SQLite's text")
        XCTAssertEqual(failedAdds, 0, "under an exclusive lock, every simultaneous first add succeeds")
    }

    /// Issue 8 §1: writers of every kind at once on one vault. The mix is
    /// chosen so that every serial order of it gives the same vault, which
    /// the result must equal exactly.
    func testMixedWritersOnOneVaultEqualASerialOrder() throws {
        let otherSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
        var mismatches: [String] = []
        var unusable = 0
        var hotpReuse = 0
        for trial in 1...trials {
            let home = makeHome("mix")
            try add(home, "e", issuer: "M")
            try add(home, "h", issuer: "M", secret: otherSecret, ["--type", "hotp", "--digits", "8"])
            for name in ["r1", "r2", "d1", "d2"] { try add(home, name, issuer: "M") }
            for name in ["d1", "d2"] { try succeed(home, ["rm", "M:\(name)", "--yes"]) }
            let importFile = try inputFile(
                ["i1", "i2", "i3"].map {
                    "otpauth://totp/M:\($0)?secret=\(Self.rfcSecret)&issuer=M"
                }.joined(separator: "\n") + "\n")

            var commands: [(home: URL, arguments: [String], stdin: String?)] = [
                (home, ["add", "n1", "--issuer", "M"], Self.rfcSecret + "\n"),
                (home, ["add", "n2", "--issuer", "M"], Self.rfcSecret + "\n"),
                (home, ["edit", "M:e", "--tag", "m1"], nil),
                (home, ["edit", "M:e", "--tag", "m2"], nil),
                (home, ["edit", "M:e", "--tag", "m3"], nil),
                (home, ["edit", "M:h", "--note", "noted"], nil),
                (home, ["rm", "M:r1", "--yes"], nil),
                (home, ["rm", "M:r2", "--yes"], nil),
                (home, ["restore", "M:d1"], nil),
                (home, ["restore", "M:d2"], nil),
                (home, ["import", importFile, "--format", "otpauth"], nil),
                (home, ["config", "set", "--synced", "user.s1", "v1"], nil),
                (home, ["config", "set", "--synced", "user.s2", "v2"], nil),
                (home, ["config", "set", "user.local1", "w1"], nil),
            ]
            commands += Array(repeating: (home, ["code", "M:h"], nil), count: 4)
            commands.shuffle(using: &random)
            let runs = try together(commands)
            for (command, run) in zip(commands, runs) where !run.succeeded {
                mismatches.append(
                    "trial \(trial) \(command.arguments.joined(separator: " ")): \(run.termination) \(run.stderr)")
            }
            guard case .success(let listing) = try accounts(home) else {
                unusable += 1
                continue
            }
            let expected = ["M:d1", "M:d2", "M:e", "M:h", "M:i1", "M:i2", "M:i3", "M:n1", "M:n2"]
            if listing.map(\.label).sorted() != expected {
                mismatches.append("trial \(trial): accounts \(listing.map(\.label).sorted()), expected \(expected)")
            }
            let tags = listing.first { $0.label == "M:e" }?.tags ?? []
            if tags != ["m1", "m2", "m3"] { mismatches.append("trial \(trial): tags \(tags)") }
            let codes = runs.filter { $0.succeeded && $0.stdout.count == 9 }.map(\.stdout)
            if Set(codes).count != codes.count { hotpReuse += codes.count - Set(codes).count }
            let counter = listing.first { $0.label == "M:h" }?.counter
            if counter != 4 {
                mismatches.append("trial \(trial): HOTP counter \(String(describing: counter)) after 4 codes")
            }
            for (key, value, synced) in [
                ("user.s1", "v1", true), ("user.s2", "v2", true), ("user.local1", "w1", false),
            ] {
                let got = try run(home, ["config", "get", key] + (synced ? ["--synced"] : []))
                if got.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != value {
                    mismatches.append("trial \(trial): config \(key) = \(got.stdout) \(got.stderr)")
                }
            }
            let note = try run(home, ["show", "M:h"]).stdout
            if !note.contains("noted") { mismatches.append("trial \(trial): note lost") }
            for problem in integrityProblems(in: home) { mismatches.append("trial \(trial): \(problem)") }
            try? FileManager.default.removeItem(at: home)
        }
        FaultSettings.record("mixed writers: trials", trials)
        FaultSettings.record("mixed writers: results unlike any serial order", mismatches.count)
        FaultSettings.record("mixed writers: unusable vaults", unusable)
        FaultSettings.record("mixed writers: HOTP reuse", hotpReuse)
        XCTAssertEqual(mismatches, [], "seed \(FaultSettings.seed)")
        XCTAssertEqual(unusable, 0)
        XCTAssertEqual(hotpReuse, 0)
    }

    /// Issue 8 §1: `passphrase set` (or `remove`) and a `sync now` that imports
    /// another device's accounts, at the same time as edits, adds and HOTP
    /// codes: every change is kept, the passphrase is as the command said, and
    /// the vault still decrypts. The devices stay for all trials (joining costs
    /// an Argon2id derivation), so there are a fifth as many trials as above.
    func testWritersAlongsidePassphraseAndSyncImport() throws {
        let environment = [
            "AUTHCAT_PASSPHRASE_FILE": passphraseFile.path, "AUTHCAT_SYNC_PASSPHRASE_FILE": passphraseFile.path,
            "AUTHCAT_NEW_PASSPHRASE_FILE": passphraseFile.path,
        ]
        let remote = "file://" + scratch.appendingPathComponent("remote").path
        let home = makeHome("local")
        let other = makeHome("other")
        try add(home, "e", issuer: "P", environment: environment)
        try add(
            home, "h", issuer: "P", secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", ["--type", "hotp", "--digits", "8"],
            environment: environment)
        try succeed(home, ["sync", "enable", "--remote", remote], environment: environment)
        try succeed(other, ["sync", "enable", "--remote", remote], environment: environment)
        var problems: [String] = []
        var codes: [String] = []
        var passphraseSet = false
        let count = max(1, trials / 5)
        for trial in 1...count {
            for index in 1...2 { try add(other, "o\(trial)x\(index)", issuer: "O", environment: environment) }
            waitForStragglers(under: other.path, timeout: 30)
            try succeed(other, ["sync", "now"], environment: environment)
            waitForStragglers(under: home.path, timeout: 30)
            var commands: [(arguments: [String], stdin: String?)] = [
                (["sync", "now"], nil),
                (["passphrase", passphraseSet ? "remove" : "set"], nil),
                (["edit", "P:e", "--tag", "t\(trial)a"], nil),
                (["edit", "P:e", "--tag", "t\(trial)b"], nil),
                (["add", "n\(trial)", "--issuer", "P"], Self.rfcSecret + "\n"),
                (["config", "set", "--synced", "user.trial\(trial)", "yes"], nil),
                (["code", "P:h"], nil), (["code", "P:h"], nil),
            ]
            commands.shuffle(using: &random)
            let children = try commands.map { try spawn(home, $0.arguments, stdin: $0.stdin, environment: environment) }
            for (command, child) in zip(commands, children) {
                let termination = child.wait()
                if termination != .exited(0) {
                    problems.append(
                        "trial \(trial) \(command.arguments.joined(separator: " ")): \(termination) \(child.stderr)")
                }
                if command.arguments == ["code", "P:h"] { codes.append(child.stdout) }
                child.removeFiles()
            }
            passphraseSet.toggle()
            waitForStragglers(under: home.path, timeout: 30)
            // A last sync brings whatever the racing one missed; then everything must be there.
            try succeed(home, ["sync", "now"], environment: environment)
            let labels = Set(try listed(home).map(\.label))
            let expected = ["P:n\(trial)", "O:o\(trial)x1", "O:o\(trial)x2"]
            for label in expected where !labels.contains(label) { problems.append("trial \(trial): \(label) missing") }
            let tags = Set(try listed(home).first { $0.label == "P:e" }?.tags ?? [])
            for tag in ["t\(trial)a", "t\(trial)b"] where !tags.contains(tag) {
                problems.append("trial \(trial): tag \(tag) lost")
            }
            let withFile = try run(home, ["code", "P:e", "--at", "59"], environment: environment)
            if withFile.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != Self.rfcCodeAt59 {
                problems.append("trial \(trial): the vault no longer decrypts: \(withFile.stderr)")
            }
            let withoutFile = try run(home, ["code", "P:e", "--at", "59"])
            if withoutFile.succeeded == passphraseSet {
                problems.append("trial \(trial): passphrase should be \(passphraseSet ? "set" : "removed")")
            }
            let synced = try run(home, ["config", "get", "--synced", "user.trial\(trial)"], environment: environment)
            if synced.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != "yes" {
                problems.append("trial \(trial): config lost")
            }
            for problem in integrityProblems(in: home) { problems.append("trial \(trial): \(problem)") }
        }
        let reused = codes.count - Set(codes).count
        FaultSettings.record("writers with passphrase and sync import: trials", count)
        FaultSettings.record("writers with passphrase and sync import: problems", problems.count)
        FaultSettings.record("writers with passphrase and sync import: HOTP reuse", reused)
        XCTAssertEqual(problems, [], "seed \(FaultSettings.seed)")
        XCTAssertEqual(reused, 0, "HOTP codes printed twice: \(codes)")
    }

    /// Issue 8 §2: adds and imports at once on an empty folder: one vault with
    /// every account of every command that succeeded, all of them succeeding.
    func testMixedWritersOnAnEmptyFolder() throws {
        var problems: [String] = []
        for trial in 1...trials {
            let home = makeHome("empty-mix")
            let importFiles = try (1...2).map { file in
                try inputFile(
                    ["a", "b"].map { "otpauth://totp/E:imp\(file)\($0)?secret=\(Self.rfcSecret)&issuer=E" }
                        .joined(separator: "\n") + "\n")
            }
            var commands: [(home: URL, arguments: [String], stdin: String?)] = (1...3).map {
                (home, ["add", "add\($0)", "--issuer", "E"], Self.rfcSecret + "\n")
            }
            commands += importFiles.map { (home, ["import", $0, "--format", "otpauth"], nil) }
            commands.shuffle(using: &random)
            let runs = try together(commands)
            for (command, run) in zip(commands, runs) where !run.succeeded {
                problems.append(
                    "trial \(trial) \(command.arguments.joined(separator: " ")): \(run.termination) \(run.stderr)")
            }
            guard case .success(let listing) = try accounts(home) else {
                problems.append("trial \(trial): the vault does not list")
                continue
            }
            let expected = ["E:add1", "E:add2", "E:add3", "E:imp1a", "E:imp1b", "E:imp2a", "E:imp2b"]
            if listing.map(\.label).sorted() != expected {
                problems.append("trial \(trial): accounts \(listing.map(\.label).sorted())")
            }
            for label in listing.map(\.label) {
                let code = try run(home, ["code", label, "--at", "59"])
                if code.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != Self.rfcCodeAt59 {
                    problems.append("trial \(trial): code \(label): \(code.stderr)")
                }
            }
            try? FileManager.default.removeItem(at: home)
        }
        FaultSettings.record("writers on an empty folder: trials", trials)
        FaultSettings.record("writers on an empty folder: problems", problems.count)
        XCTAssertEqual(problems, [], "seed \(FaultSettings.seed)")
    }
}
