import AuthCatTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 8: every writing command SIGKILLed at a random moment leaves a vault
/// that passes SQLite's integrity check, opens, still decrypts, holds every
/// change a command reported (printed, or exited 0), and never hands out an
/// HOTP code twice.
///
/// `AUTHCAT_FAULT_KILLS` sets how many kills (default 40 on a folder, a
/// quarter of it on the network remotes; `scripts/fault-suite` runs 300).
/// Each kill picks the next command of a seeded shuffle and a seeded delay
/// between 0 and 1.2 times what that command took unkilled.
///
/// The same kills run on every kind of remote: a folder (`KillTests`), WebDAV
/// and rclone (`WebDAVKillTests`, `RcloneKillTests`); a subclass names the
/// remote.
class KillTestCase: FaultTestCase {
    enum Kind: String, CaseIterable {
        case firstAdd = "first add"
        case add
        case importFile = "import"
        case edit
        case remove = "rm"
        case restore
        case hotpCode = "HOTP code"
        case configSet = "config set"
        case syncNow = "sync now"
        case passphrase = "passphrase set/remove"
    }

    /// What the runs so far promise about the vault.
    private struct Promises {
        var present: Set<String> = []
        var absent: Set<String> = []
        var tags: [String: Set<String>] = [:]
        var synced: [String: String] = [:]
        var hotpCodes: [String] = []
        var passphraseSet: Bool?
    }

    private struct Tally {
        var kills = 0, killedMidway = 0, reported = 0
        var corruptions: [String] = [], lostChanges: Set<String> = [], unopenable: [String] = []
        var partialImports: [String] = [], hotpReused: [String] = []
        var perKind: [Kind: Int] = [:]
    }

    private var home: URL!
    private var remoteLocation = ""
    private var remoteEnvironment: [String: String] = [:]
    private var promises = Promises()
    private var tally = Tally()
    private var serial = 0
    private static let hotpSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    private let hotpCounters = try! HOTPCounters(base32Secret: KillTests.hotpSecret, digits: 8)
    private var highestCounter: UInt64?

    private var environment: [String: String] {
        remoteEnvironment.merging([
            "AUTHCAT_PASSPHRASE_FILE": passphraseFile.path, "AUTHCAT_SYNC_PASSPHRASE_FILE": passphraseFile.path,
        ]) { $1 }
    }

    /// The remote's location and the environment authcat needs for it; subclasses say.
    func makeRemote() throws -> (location: String, environment: [String: String]) {
        fatalError("a subclass names its remote")
    }

    /// What killed syncs left on the remote that is not an object (a temporary, a partial upload).
    func remoteLeftovers() throws -> [String] {
        fatalError("a subclass looks at its remote")
    }

    /// How many kills by default: each is a dozen runs of the built program.
    var defaultKills: Int { 40 }

    private static let editTarget = "Fault:edit-target"
    private static let hotpLabel = "Fault:hotp"

    func killEveryWritingCommandAtRandom() throws {
        let kills = FaultSettings.integer("AUTHCAT_FAULT_KILLS", default: defaultKills)
        home = makeHome("killed")
        (remoteLocation, remoteEnvironment) = try makeRemote()
        try add(home, "edit-target", environment: environment)
        try add(
            home, "hotp", secret: Self.hotpSecret, ["--type", "hotp", "--digits", "8"],
            environment: environment)
        promises.present = [Self.editTarget, Self.hotpLabel]
        try succeed(home, ["sync", "enable", "--remote", remoteLocation], environment: environment)

        // Each command once, unkilled: it must work, and its time sets the range of kill delays.
        var durations: [Kind: TimeInterval] = [:]
        for kind in Kind.allCases {
            let run = try perform(kind, killAfter: nil)
            durations[kind] = lastDuration
            XCTAssertEqual(run.termination, .exited(0), "\(kind.rawValue) failed unkilled: \(run.stderr)")
            try check(after: kind, run: run)
        }
        print(
            "unkilled durations: "
                + durations.map { "\($0.key.rawValue) \(Int($0.value * 1000)) ms" }.sorted().joined(separator: ", "))

        var order: [Kind] = []
        for index in 0..<kills {
            if order.isEmpty { order = Kind.allCases.shuffled(using: &random) }
            let kind = order.removeLast()
            let delay = Double.random(in: 0...1.2, using: &random) * (durations[kind] ?? 0.2)
            let run = try perform(kind, killAfter: delay)
            tally.kills += 1
            tally.perKind[kind, default: 0] += 1
            if case .killed = run.termination { tally.killedMidway += 1 }
            try check(
                after: kind, run: run, context: "kill \(index + 1) (\(kind.rawValue) after \(Int(delay * 1000)) ms)")
        }

        // Once the dust settles: sync still works, and a new device sees every reported change.
        waitForStragglers(under: home.path, timeout: 60)
        try succeed(home, ["sync", "now"], environment: environment)
        let status = try run(home, ["sync", "status", "--json"], environment: environment)
        XCTAssertEqual(status.termination, .exited(0), "sync status after the kills: \(status.stdout)")
        let other = makeHome("joined")
        try succeed(other, ["sync", "enable", "--remote", remoteLocation], environment: environment)
        let joined = Set(try listed(other).map(\.label))
        XCTAssertEqual(
            promises.present.subtracting(joined), [], "reported changes missing on a device that joined after")
        XCTAssertEqual(
            promises.absent.intersection(joined), [], "reported removals undone on a device that joined after")
        XCTAssertEqual(try remoteLeftovers(), [], "issue 8 §5: temporaries of killed syncs left on the remote")

        report()
        XCTAssertEqual(tally.corruptions, [], "corrupt databases after a kill")
        XCTAssertEqual(tally.unopenable, [], "vaults that did not open or decrypt after a kill")
        XCTAssertEqual(tally.lostChanges.sorted(), [], "changes reported and then lost")
        XCTAssertEqual(tally.partialImports, [], "imports that were neither whole nor absent")
        XCTAssertEqual(tally.hotpReused, [], "HOTP codes printed twice")
    }

    private func report() {
        FaultSettings.record("kills", tally.kills)
        FaultSettings.record("kills that stopped a command midway", tally.killedMidway)
        FaultSettings.record(
            "kills per command", tally.perKind.map { "\($0.key.rawValue)=\($0.value)" }.sorted().joined(separator: " "))
        FaultSettings.record("kills: changes reported", tally.reported)
        FaultSettings.record("kills: corruptions", tally.corruptions.count)
        FaultSettings.record("kills: lost changes", tally.lostChanges.count + tally.partialImports.count)
        FaultSettings.record("kills: HOTP codes printed", promises.hotpCodes.count)
        FaultSettings.record("kills: HOTP reuse", tally.hotpReused.count)
        FaultSettings.record("kills: unopenable vaults", tally.unopenable.count)
    }

    /// Runs one command of `kind`, with what it needs set up first (unkilled),
    /// and SIGKILLs it after `killAfter` seconds when given.
    private func perform(_ kind: Kind, killAfter delay: TimeInterval?) throws -> FaultRun {
        serial += 1
        let tag = "k\(serial)"
        var target = home!
        var arguments: [String]
        var stdin: String?
        var extra = environment
        switch kind {
        case .firstAdd:
            target = makeHome("first")
            arguments = ["add", "first", "--issuer", "Fault"]
            stdin = Self.rfcSecret + "\n"
        case .add:
            arguments = ["add", "a\(serial)", "--issuer", "Fault"]
            stdin = Self.rfcSecret + "\n"
        case .importFile:
            let uris = ["a", "b", "c"].map {
                "otpauth://totp/Fault:i\(serial)\($0)?secret=\(Self.rfcSecret)&issuer=Fault"
            }
            let file = try inputFile(uris.joined(separator: "\n") + "\n")
            arguments = ["import", file, "--format", "otpauth"]
        case .edit:
            arguments = ["edit", Self.editTarget, "--tag", tag]
        case .remove:
            // No promise that it exists: a kill may remove it without a word.
            try add(home, "r\(serial)", environment: environment)
            arguments = ["rm", "Fault:r\(serial)", "--yes"]
        case .restore:
            try add(home, "d\(serial)", environment: environment)
            try succeed(home, ["rm", "Fault:d\(serial)", "--yes"], environment: environment)
            arguments = ["restore", "Fault:d\(serial)"]
        case .hotpCode:
            arguments = ["code", Self.hotpLabel]
        case .configSet:
            arguments = ["config", "set", "--synced", "user.key\(serial)", "value\(serial)"]
        case .syncNow:
            arguments = ["sync", "now"]
        case .passphrase:
            if try passphraseIsSet() {
                arguments = ["passphrase", "remove"]
            } else {
                arguments = ["passphrase", "set"]
                extra["AUTHCAT_NEW_PASSPHRASE_FILE"] = passphraseFile.path
            }
        }
        lastTarget = target
        lastArguments = arguments
        let started = Date()
        let child = try spawn(target, arguments, stdin: stdin, environment: extra)
        if let delay {
            usleep(useconds_t(delay * 1_000_000))
            child.kill()
        }
        let termination = child.wait()
        lastDuration = Date().timeIntervalSince(started)
        defer { child.removeFiles() }
        return FaultRun(termination: termination, stdout: child.stdout, stderr: child.stderr)
    }

    private var lastTarget: URL!
    /// How long the last command ran, from its start (not its setup) to its end.
    private var lastDuration: TimeInterval = 0
    private var lastArguments: [String] = []

    /// Whether the vault asks for a passphrase: a secret-needing command without the file fails.
    private func passphraseIsSet() throws -> Bool {
        let probe = try run(home, ["code", Self.editTarget, "--at", "59"])
        return !probe.succeeded
    }

    /// Records what `run` reported, then checks every promise made so far.
    private func check(after kind: Kind, run: FaultRun, context: String = "unkilled") throws {
        let reported = run.succeeded
        let replay =
            "AUTHCAT_FAULT_SEED=\(FaultSettings.seed), \(context): authcat \(lastArguments.joined(separator: " "))"
        switch kind {
        case .firstAdd:
            try checkFirstAdd(run: run, replay: replay)
            return
        case .add:
            if reported || run.stdout.contains("added ") { promises.present.insert("Fault:\(lastArguments[1])") }
        case .importFile:
            let names = ["a", "b", "c"].map { "Fault:i\(serial)\($0)" }
            let listed = Set(((try? accounts(home).get()) ?? []).map(\.label))
            let found = names.filter(listed.contains)
            if !found.isEmpty, found.count != names.count { tally.partialImports.append("\(replay): only \(found)") }
            if reported || run.stdout.contains("imported") { promises.present.formUnion(names) }
        case .edit:
            if reported || run.stdout.contains("updated ") {
                promises.tags[Self.editTarget, default: []].insert(lastArguments[3])
            }
        case .remove:
            if reported || run.stdout.contains("removed ") {
                promises.present.remove(lastArguments[1])
                promises.absent.insert(lastArguments[1])
            }
        case .restore:
            if reported || run.stdout.contains("restored ") { promises.present.insert(lastArguments[1]) }
        case .hotpCode:
            noteHOTPCodes(run, replay)
        case .configSet:
            if reported { promises.synced[lastArguments[3]] = lastArguments[4] }
        case .syncNow:
            break
        case .passphrase:
            // A toggle killed after its change and before its report may have happened or not; both
            // are right, and what it left is what later reported toggles must not undo.
            promises.passphraseSet = reported ? lastArguments[1] == "set" : try passphraseIsSet()
        }
        if reported, kind != .hotpCode, kind != .syncNow { tally.reported += 1 }
        if kind == .hotpCode, !promises.hotpCodes.isEmpty, reported { tally.reported += 1 }

        for problem in integrityProblems(in: home) { tally.corruptions.append("\(replay): \(problem)") }
        let listing: [ListedAccount]
        switch try accounts(home, environment: environment) {
        case .success(let accounts): listing = accounts
        case .failure(let failure):
            tally.unopenable.append("\(replay): list: \(failure)")
            return
        }
        let labels = Set(listing.map(\.label))
        for label in promises.present where !labels.contains(label) {
            tally.lostChanges.insert("\(label) (lost by \(replay))")
        }
        for label in promises.absent where labels.contains(label) {
            tally.lostChanges.insert("removal of \(label) (undone by \(replay))")
        }
        let tags = Set(listing.first { $0.label == Self.editTarget }?.tags ?? [])
        for tag in promises.tags[Self.editTarget, default: []] where !tags.contains(tag) {
            tally.lostChanges.insert("tag \(tag) (lost by \(replay))")
        }
        if kind == .configSet || kind == .syncNow || kind == .passphrase {
            for (key, value) in promises.synced {
                let got = try self.run(home, ["config", "get", "--synced", key], environment: environment)
                if got.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != value {
                    tally.lostChanges.insert("synced \(key)=\(value) (lost by \(replay)): \(got.stdout)\(got.stderr)")
                }
            }
        }
        // Still decrypts: the key file and the vault belong together.
        let code = try self.run(home, ["code", Self.editTarget, "--at", "59"], environment: environment)
        if code.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != Self.rfcCodeAt59 {
            tally.unopenable.append("\(replay): code: \(code.termination) \(code.stderr)")
        }
        if kind == .passphrase, let expected = promises.passphraseSet, try passphraseIsSet() != expected {
            tally.lostChanges.insert("passphrase \(expected ? "set" : "removed") (undone by \(replay))")
        }
        // The next HOTP code after any kill is one never printed before.
        let next = try self.run(home, ["code", Self.hotpLabel], environment: environment)
        if next.succeeded {
            noteHOTPCodes(next, "\(replay), then an unkilled code")
        } else {
            tally.unopenable.append("\(replay): HOTP code: \(next.termination) \(next.stderr)")
        }
    }

    /// Runs here are one after another, so each code's counter must be above every earlier one.
    private func noteHOTPCodes(_ run: FaultRun, _ replay: String) {
        for code in run.stdoutLines where code.count == 8 && code.allSatisfy(\.isNumber) {
            if promises.hotpCodes.contains(code) { tally.hotpReused.append("\(replay): \(code) again") }
            promises.hotpCodes.append(code)
            let counters = hotpCounters.counters(printing: code)
            if counters.isEmpty { tally.hotpReused.append("\(replay): \(code) is no code of the first 4096 counters") }
            if let next = counters.filter({ counter in highestCounter.map { counter > $0 } ?? true }).min() {
                highestCounter = next
            } else if !counters.isEmpty {
                tally.hotpReused.append("\(replay): \(code) is counter \(counters), not above \(highestCounter ?? 0)")
            }
        }
    }

    /// A killed first add leaves no vault or a whole one: the next add works
    /// there, and a reported first account is in it.
    private func checkFirstAdd(run: FaultRun, replay: String) throws {
        let folder = lastTarget!
        for problem in integrityProblems(in: folder) { tally.corruptions.append("\(replay): \(problem)") }
        let next = try self.run(folder, ["add", "second", "--issuer", "Fault"], stdin: Self.rfcSecret + "\n")
        guard next.succeeded else {
            tally.unopenable.append("\(replay): the next add failed: \(next.termination) \(next.stderr)")
            return
        }
        guard case .success(let listing) = try accounts(folder) else {
            tally.unopenable.append("\(replay): list failed after the next add")
            return
        }
        if run.succeeded || run.stdout.contains("added ") {
            tally.reported += 1
            if !listing.contains(where: { $0.label == "Fault:first" }) {
                tally.lostChanges.insert("Fault:first (lost by \(replay))")
            }
        }
        let code = try self.run(folder, ["code", "Fault:second", "--at", "59"])
        if code.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != Self.rfcCodeAt59 {
            tally.unopenable.append("\(replay): code after the next add: \(code.termination) \(code.stderr)")
        }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The kills on a folder remote.
final class KillTests: KillTestCase {
    private var folder: URL { scratch.appendingPathComponent("remote", isDirectory: true) }

    override func makeRemote() throws -> (location: String, environment: [String: String]) {
        ("file://" + folder.path, [:])
    }

    override func remoteLeftovers() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.contains(".authcat-tmp-") }
    }

    func testRandomKillsOfEveryWritingCommand() throws {
        try killEveryWritingCommandAtRandom()
    }
}
