// authcat-bench: measures the sync engine on a folder remote, as scripts/bench/sync runs it.
//
// It prints, for each step, the wall time and what went over the wire: the
// first sync of a 1,000-account vault (the key derivation is done before and
// not timed), a second device's first sync, an incremental sync after one
// edit, and a sync with nothing new. Not a test: timings depend on the machine.
import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// Drops events: the benchmark measures the engine, not the monitor.
struct NoEvents: SyncEventRecorder {
    func record(_ event: SyncEvent) {}
}

struct Step {
    var name: String
    var seconds: Double
    var counts: RemoteRequestCounts
}

func measure(_ name: String, _ remote: CountingRemote, _ body: () async throws -> Void) async throws -> Step {
    remote.reset()
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return Step(name: name, seconds: seconds, counts: remote.counts)
}

func makeDevice(_ name: String, in folder: URL, accounts: Int) throws -> Vault {
    let vault = try Vault.openOrCreate(at: VaultLocation(folder: folder.appendingPathComponent(name)), deviceName: name)
    try vault.write(author: .import) { writer in
        for index in 0..<accounts {
            let secret = SecretBytes((0..<20).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) })
            try writer.insert(AccountDraft(issuer: "Issuer\(index)", name: "user\(index)@example.com", secret: secret))
        }
    }
    return vault
}

func sync(_ vault: Vault, _ remote: any Remote) async throws -> SyncReport {
    try await SyncService(vault: vault, remotes: .fixed(remote), recorder: NoEvents()).now().report
}

/// Turns sync on without the first sync, which the benchmark times on its own.
func enable(_ vault: Vault, _ remote: any Remote, passphrase: SecretBytes, kdf: KDFParameters?) async throws {
    _ = try await SyncService(vault: vault, remotes: .fixed(remote), recorder: NoEvents()).enable(
        remoteURL: remote.displayLocation, makeRemote: { remote }, isOnAlready: { _ in false },
        ask: { _, _ in .passphrase(passphrase) }, kdf: kdf, announce: { _, _ in }, firstSync: false)
}

func run() async throws {
    let accounts = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 1000
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authcat-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let remote = CountingRemote(try FolderRemote(path: folder.appendingPathComponent("remote").path))
    let passphrase = SecretBytes(utf8: "benchmark passphrase")

    let first = try makeDevice("first", in: folder, accounts: accounts)
    try await enable(first, remote, passphrase: passphrase, kdf: KDFParameters.moderate())
    var steps: [Step] = []
    steps.append(
        try await measure("first sync, \(accounts) accounts (export)", remote) { _ = try await sync(first, remote) })

    let second = try makeDevice("second", in: folder, accounts: 0)
    try await enable(second, remote, passphrase: passphrase, kdf: nil)
    steps.append(
        try await measure("second device's first sync (import)", remote) { _ = try await sync(second, remote) })

    let account = try first.accounts()[accounts / 2]
    try first.write(author: .cli) { writer in _ = try writer.update(account.id, AccountEdit(note: "edited")) }
    steps.append(try await measure("incremental sync, one edit", remote) { _ = try await sync(first, remote) })
    steps.append(try await measure("sync with nothing new", remote) { _ = try await sync(first, remote) })
    steps.append(try await measure("other device picks up the edit", remote) { _ = try await sync(second, remote) })

    for step in steps {
        let c = step.counts
        let name = step.name.padding(toLength: 40, withPad: " ", startingAt: 0)
        print(
            name
                + String(
                    format: "%8.1f ms   requests %3d (list %d, get %d, put %d, delete %d)   written %8d bytes",
                    step.seconds * 1000, c.total, c.list, c.get, c.put, c.delete, c.bytesWritten))
    }
    let firstSync = steps[0].seconds
    let incremental = steps[2].counts
    print(
        "targets: first sync \(String(format: "%.0f", firstSync * 1000)) ms (< 1000); "
            + "incremental \(incremental.put) objects, \(incremental.bytesWritten) bytes (<= 2, < 4096); "
            + "no-op \(steps[3].counts.total) request(s) (1 listing)")
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("authcat-bench: \(error)\n".utf8))
    exit(1)
}
