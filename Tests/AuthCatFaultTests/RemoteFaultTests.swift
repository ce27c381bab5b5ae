import AuthCatSync
import AuthCatTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 8 §4: a remote that is tampered with, cut, rolled back, left with a
/// gap, emptied or deleted never shows as `succeeded` (exit 0) in `sync
/// status` while the problem stands, and shows healthy again once it is put
/// right. Two devices share the remote: B writes, A reads and is asked.
///
/// The objects are reached through AuthCatSync's own remotes, so the same
/// steps run on a folder (`FolderRemoteFaultTests`) and on S3 through moto
/// (`S3RemoteFaultTests`). Each step first checks that A is healthy, so that
/// what follows is that step's fault only.
class RemoteFaultTestCase: FaultTestCase {
    private var a: URL!
    private var b: URL!
    private var remote: (any Remote)!
    private var location = ""
    private var extraEnvironment: [String: String] = [:]
    private var bDevice = ""
    private var vaultPrefix = ""
    private var serial = 0
    private var figures: [String] = []

    /// The remote's location URL and the environment authcat needs for it; subclasses say.
    func remoteLocation() throws -> (url: String, environment: [String: String]) {
        fatalError("a subclass names its remote")
    }

    var remoteName: String { "remote" }

    /// Makes the remote unreachable until `unhideRemote()`, keeping what it holds; subclasses say how.
    func hideRemote() throws {
        fatalError("a subclass hides its remote")
    }

    func unhideRemote() throws {
        fatalError("a subclass brings its remote back")
    }

    private var environment: [String: String] {
        extraEnvironment.merging([
            "AUTHCAT_PASSPHRASE_FILE": passphraseFile.path,
            "AUTHCAT_SYNC_PASSPHRASE_FILE": passphraseFile.path,
        ]) { $1 }
    }

    override func tearDown() {
        if let remote { try? blocking { try await remote.close() } }
        super.tearDown()
    }

    /// Runs every fault in turn on one pair of devices.
    func runEveryFault() throws {
        (location, extraEnvironment) = try remoteLocation()
        let home = userHome.path
        remote = try blocking { [location, extraEnvironment] in
            try await makeRemote(location: location, environment: extraEnvironment, homeDirectory: home)
        }
        a = makeHome("device-a")
        b = makeHome("device-b")
        try add(a, "a", issuer: "A", environment: environment)
        try succeed(a, ["sync", "enable", "--remote", location], environment: environment)
        try succeed(b, ["sync", "enable", "--remote", location], environment: environment)
        bDevice = try thisDevice(b)
        try newBatchFromB()
        try succeed(a, ["sync", "now"], environment: environment)
        XCTAssertEqual(try status(a).exit, 0, "healthy to begin with")

        try tamperedObject()
        try objectCutShort()
        try gapInChain()
        try rolledBackRemote()
        try emptiedRemote()
        try backgroundPushWithATypedPassphrase()
        try backgroundPushToAnUnreachableRemote()
        try remoteDeletedByAnotherDevice()
        figures.forEach { FaultSettings.record("sync status (\(remoteName)): \($0)", "") }
    }

    // MARK: - The faults

    private func tamperedObject() throws {
        try expectHealthy("before tampering")
        let (name, label) = try newBatchFromB()
        let original = try get(name)
        var flipped = original
        flipped[flipped.count / 2] ^= 0x01
        try put(name, flipped)
        try expectProblem("tampered object", syncFirst: true, concerning: bDevice)
        try put(name, original)
        try expectResolved("tampered object put back unchanged in size", label: label)
    }

    private func objectCutShort() throws {
        try expectHealthy("before cutting an object")
        let (name, label) = try newBatchFromB()
        let original = try get(name)
        try put(
            name, original.prefix(original.count - 1 - Int.random(in: 0..<min(100, original.count - 1), using: &random))
        )
        try expectProblem("object cut short", syncFirst: true, concerning: bDevice)
        try put(name, original)
        try expectResolved("object cut short, repaired", label: label)
    }

    private func gapInChain() throws {
        try expectHealthy("before the gap")
        _ = try newBatchFromB()
        let (middle, label) = try newBatchFromB()
        let (_, last) = try newBatchFromB()
        let original = try get(middle)
        try blocking { [remote] in try await remote.delete(middle) }
        try expectProblem("gap (a batch deleted from the middle of a chain)", syncFirst: true, concerning: bDevice)
        try put(middle, original)
        try expectResolved("gap filled", label: label)
        XCTAssertTrue(try labels(a).contains(last), "the batches after the gap are read once it is filled")
    }

    private func rolledBackRemote() throws {
        try expectHealthy("before the rollback")
        let old = try everything()
        let (_, label) = try newBatchFromB()
        try succeed(a, ["sync", "now"], environment: environment)
        XCTAssertTrue(try labels(a).contains(label))
        let newer = try everything()
        try restore(old)
        try expectProblem("rolled-back remote (an old copy put back)", syncFirst: true, concerning: bDevice)
        try restore(newer)
        try expectResolved("rollback undone", label: label)
    }

    private func emptiedRemote() throws {
        try expectHealthy("before emptying the remote")
        let saved = try everything()
        try restore([:])
        // The live check alone must see it, before any sync runs.
        try expectProblem("emptied remote (live check, no sync)", syncFirst: false)
        try expectProblem("emptied remote (after a sync)", syncFirst: true)
        try restore(saved)
        try expectResolved("emptied remote put back", label: nil)
    }

    /// A passphrase-protected vault whose user typed the passphrase on a
    /// terminal: the background push after `edit` has neither terminal nor
    /// file, so `edit` hands it the key over a pipe, and the change goes out
    /// with nothing failed. (A push that does fail is the next fault.)
    private func backgroundPushWithATypedPassphrase() throws {
        try expectHealthy("before the background push with a typed passphrase")
        try succeed(
            a, ["passphrase", "set"],
            environment: environment.merging(["AUTHCAT_NEW_PASSPHRASE_FILE": passphraseFile.path]) { $1 })
        waitForStragglers(under: a.path, timeout: 30)
        try succeed(a, ["sync", "now"], environment: environment)
        try expectHealthy("with a passphrase set")
        var withoutFile = environment
        withoutFile["AUTHCAT_PASSPHRASE_FILE"] = nil
        let edit = try runOnTerminal(
            a, ["edit", "A:a", "--tag", "pushed"], typing: Self.passphrase, environment: withoutFile)
        XCTAssertEqual(edit.termination, .exited(0), "edit with the passphrase typed: \(edit.stdout)")
        waitForStragglers(under: a.path, timeout: 30)
        let offline = try status(a, offline: true)
        record("background push with a typed passphrase", offline, "(offline check)")
        XCTAssertEqual(offline.exit, 0, "the push had the key: \(offline.summary) \(offline.json["message"] ?? "")")
        XCTAssertEqual(offline.json["pending_local_changes"] as? Int, 0, "the push exported the change")
        XCTAssertEqual(try status(a).exit, 0)
    }

    /// The remote is away while `edit` pushes in the background: once it is
    /// back, the failed push still shows until a sync succeeds.
    private func backgroundPushToAnUnreachableRemote() throws {
        try expectHealthy("before the remote goes away")
        try hideRemote()
        try succeed(a, ["edit", "A:a", "--tag", "unreachable"], environment: environment)
        waitForStragglers(under: a.path, timeout: 30)
        try unhideRemote()
        let offline = try status(a, offline: true)
        record("background push to an unreachable remote", offline, "(offline check, remote back)")
        XCTAssertNotEqual(offline.exit, 0, "a failed background push shows until a sync succeeds: \(offline.summary)")
        XCTAssertNotEqual(offline.summary, "succeeded")
        try expectResolved("background push done by hand after the remote came back", label: nil)
    }

    private func remoteDeletedByAnotherDevice() throws {
        try expectHealthy("before another device deletes the remote")
        try succeed(b, ["sync", "disable", "--delete-remote", "--yes"], environment: environment)
        let live = try status(a)
        record("remote deleted by another device", live, "(live check, no sync)")
        XCTAssertEqual(live.summary, "remote deleted", "sync status sees the deletion before the next sync")
        XCTAssertEqual(live.exit, 7)
        let sync = try run(a, ["sync", "now"], environment: environment)
        XCTAssertNotEqual(sync.termination, .exited(0), "sync now on a deleted remote fails and says why")
        let after = try status(a)
        XCTAssertEqual(after.summary, "remote deleted")
        XCTAssertEqual(after.exit, 7)
        XCTAssertEqual(Set(try labels(a)).isSuperset(of: ["A:a"]), true, "local data is kept")
    }

    // MARK: - Checks

    private struct Status {
        var exit: Int32
        var summary: String
        var json: [String: Any]
    }

    private func status(
        _ device: URL, offline: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Status {
        let result = try run(
            device, ["sync", "status", "--json"] + (offline ? ["--offline"] : []), environment: environment)
        let json = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
        guard case .exited(let code) = result.termination else {
            XCTFail("sync status died: \(result.termination)", file: file, line: line)
            return Status(exit: -1, summary: "", json: json)
        }
        XCTAssertFalse(
            json.isEmpty, "sync status --json printed no object: \(result.stdout) \(result.stderr)", file: file,
            line: line)
        XCTAssertEqual(
            (json["exit_code"] as? Int).map(Int32.init), code, "the exit status is the document's", file: file,
            line: line)
        return Status(exit: code, summary: json["summary"] as? String ?? "", json: json)
    }

    private func record(_ fault: String, _ status: Status, _ when: String) {
        figures.append("\(fault) \(when) -> \(status.summary) (exit \(status.exit))")
    }

    private func expectHealthy(_ step: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let now = try status(a)
        XCTAssertEqual(
            now.exit, 0, "\(step): A should be healthy, is \(now.summary) \(now.json["message"] ?? "")", file: file,
            line: line)
    }

    /// While the problem stands: never succeeded, never exit 0, not even after a second sync.
    /// `concerning`, when given, must appear in the status document: the device or object at fault.
    private func expectProblem(
        _ fault: String, syncFirst: Bool, concerning: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for round in syncFirst ? [1, 2] : [0] {
            if round > 0 { try run(a, ["sync", "now"], environment: environment) }
            let now = try status(a)
            if round <= 1 { record(fault, now, round == 0 ? "(live check)" : "(after sync now)") }
            XCTAssertNotEqual(
                now.exit, 0, "\(fault), round \(round): sync status exit 0 (\(now.summary))", file: file, line: line)
            XCTAssertNotEqual(now.summary, "succeeded", "\(fault), round \(round)", file: file, line: line)
            if let concerning, let data = try? JSONSerialization.data(withJSONObject: now.json) {
                XCTAssertTrue(
                    String(decoding: data, as: UTF8.self).contains(concerning),
                    "\(fault), round \(round): sync status names \(concerning)", file: file, line: line)
            }
        }
    }

    /// Once the problem is put right, the next sync reads what it skipped and is healthy.
    private func expectResolved(
        _ step: String, label: String?, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let sync = try run(a, ["sync", "now"], environment: environment)
        XCTAssertEqual(sync.termination, .exited(0), "\(step): sync now: \(sync.stderr)", file: file, line: line)
        let now = try status(a)
        record(step, now, "(after sync now)")
        XCTAssertEqual(now.exit, 0, "\(step): \(now.summary) \(now.json["message"] ?? "")", file: file, line: line)
        XCTAssertEqual(now.summary, "succeeded", step, file: file, line: line)
        if let label {
            XCTAssertTrue(try labels(a).contains(label), "\(step): \(label) was read", file: file, line: line)
        }
    }

    // MARK: - Devices and objects

    private func labels(_ device: URL) throws -> [String] {
        try listed(device).map(\.label)
    }

    private func thisDevice(_ device: URL) throws -> String {
        let devices = try status(device).json["devices_seen"] as? [[String: Any]] ?? []
        return try XCTUnwrap(devices.first { $0["this_device"] as? Bool == true }?["id"] as? String, "B's device id")
    }

    /// B adds an account and syncs: one new batch of B's. Its name, and the account's label.
    @discardableResult
    private func newBatchFromB() throws -> (String, String) {
        serial += 1
        let label = "B:b\(serial)"
        try add(b, "b\(serial)", issuer: "B", environment: environment)
        waitForStragglers(under: b.path, timeout: 30)
        try succeed(b, ["sync", "now"], environment: environment)
        let names = try blocking { [remote] in try await remote.list(prefix: "") }.map(\.name)
            .filter { $0.contains("/\(bDevice)/b-") }.sorted()
        let newest = try XCTUnwrap(names.last, "B wrote no batch")
        vaultPrefix = String(newest.prefix { $0 != "/" })
        return (newest, label)
    }

    /// Every object of the remote vault (its folder and its markers).
    private func everything() throws -> [String: Data] {
        let names = try blocking { [remote] in try await remote.list(prefix: "") }.map(\.name).filter {
            $0.hasPrefix(vaultPrefix)
        }
        var objects: [String: Data] = [:]
        for name in names { objects[name] = try get(name) }
        return objects
    }

    /// Makes the remote vault hold exactly `objects`.
    private func restore(_ objects: [String: Data]) throws {
        let names = try blocking { [remote] in try await remote.list(prefix: "") }.map(\.name).filter {
            $0.hasPrefix(vaultPrefix)
        }
        for name in names where objects[name] == nil { try blocking { [remote] in try await remote.delete(name) } }
        for (name, data) in objects { try put(name, data) }
    }

    private func get(_ name: String) throws -> Data {
        try XCTUnwrap(try blocking { [remote] in try await remote.get(name) }, "\(name) is on the remote")
    }

    private func put(_ name: String, _ data: Data) throws {
        try blocking { [remote] in try await remote.put(name, data: data) }
    }

    /// Runs authcat on a pseudo-terminal (util-linux `script`), typing `typing`
    /// once it asks, as a person answers a prompt: its input is a FIFO that
    /// the test writes to only when the output ends in a prompt (": ").
    private func runOnTerminal(
        _ home: URL, _ arguments: [String], typing: String, environment: [String: String]
    ) throws -> FaultRun {
        let command = ([Self.executable, "--home", home.path] + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let keyboard = try Keyboard(in: scratch)
        let child = try SpawnedAuthCat(
            executable: "/usr/bin/script", arguments: ["-qec", command, "/dev/null"],
            environment: baseEnvironment.merging(environment) { $1 }, stdinPath: keyboard.path, scratch: scratch)
        defer { child.removeFiles() }
        keyboard.childHasIt()
        let typed = keyboard.type(typing + "\n", once: child, prompts: ": ")
        let termination = child.wait(timeout: 120)
        XCTAssertTrue(typed, "authcat never asked; it printed: \(child.stdout)")
        return FaultRun(termination: termination, stdout: child.stdout, stderr: child.stderr)
    }
}

/// A FIFO that a child reads as its standard input and the test writes to
/// when the child asks. Both ends are opened before the child starts (its
/// `posix_spawn` must not block opening a FIFO nobody writes to), and
/// close-on-exec, so that the child holds only the end it was given.
private final class Keyboard {
    let path: String
    private var reader: Int32
    private var writer: Int32

    init(in folder: URL) throws {
        path = folder.appendingPathComponent("keyboard-\(UUID().uuidString)").path
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        writer = reader < 0 ? -1 : open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard reader >= 0, writer >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    deinit {
        if reader >= 0 { close(reader) }
        if writer >= 0 { close(writer) }
        unlink(path)
    }

    /// Lets go of the test's reading end once the child has opened its own.
    func childHasIt() {
        close(reader)
        reader = -1
    }

    /// Writes `text` once `child`'s output ends in `prompt`, then closes the
    /// FIFO (the end of input); false when the child ended first or did not
    /// ask within two minutes, far longer than a prompt takes on a busy machine.
    func type(_ text: String, once child: SpawnedAuthCat, prompts prompt: String) -> Bool {
        defer {
            close(writer)
            writer = -1
        }
        let deadline = Date().addingTimeInterval(120)
        while !child.stdout.hasSuffix(prompt) {
            guard child.isRunning, Date() < deadline else { return false }
            usleep(5_000)
        }
        return Data(text.utf8).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == text.utf8.count
    }
}

/// Runs async work to its end from synchronous test code.
func blocking<T>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}

final class FolderRemoteFaultTests: RemoteFaultTestCase {
    override var remoteName: String { "folder" }

    override func remoteLocation() throws -> (url: String, environment: [String: String]) {
        ("file://" + folder.path, [:])
    }

    private var folder: URL { scratch.appendingPathComponent("remote") }
    private var hidden: URL { scratch.appendingPathComponent("remote-away") }

    override func hideRemote() throws {
        try FileManager.default.moveItem(at: folder, to: hidden)
    }

    override func unhideRemote() throws {
        try FileManager.default.moveItem(at: hidden, to: folder)
    }

    func testEveryRemoteFaultOnAFolder() throws {
        try runEveryFault()
    }
}

/// The faults on S3: moto_server, reached through a relay that the test
/// closes to hide the remote (connections refused) and opens again.
final class S3RemoteFaultTests: RemoteFaultTestCase {
    private var moto: MotoServer?
    private var relay: LoopbackRelay?

    override var remoteName: String { "S3" }

    override func tearDown() {
        super.tearDown()
        relay?.close()
        moto?.stop()
    }

    override func remoteLocation() throws -> (url: String, environment: [String: String]) {
        let server = try MotoServer(logDirectory: scratch.path)
        moto = server
        let relay = try LoopbackRelay(to: server.port)
        self.relay = relay
        let prefix = "fault-\(UUID().uuidString.prefix(8))"
        return (server.location(prefix: prefix, endpoint: relay.endpoint), server.environment)
    }

    override func hideRemote() throws {
        try XCTUnwrap(relay).close()
    }

    override func unhideRemote() throws {
        try XCTUnwrap(relay).open()
    }

    func testEveryRemoteFaultOnS3() throws {
        try runEveryFault()
    }
}
