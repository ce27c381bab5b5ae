import Foundation
import Synchronization
import XCTest

/// After how long a line on standard error names an event still awaited.
/// Not a limit: the test goes on waiting for the event, as long as it takes
/// (a busy machine makes nothing fail); a broken exclusion (a lock never
/// released, a signal never fired) would stall the run, and the line says
/// where. Each of these events took under 0.1 s with the machine's load at
/// 15, and on one core.
let stillWaitingNotice: Duration = .seconds(60)

/// The outcome of `event`, waited for as long as it takes; past
/// `stillWaitingNotice`, standard error says which event, where, is awaited.
func awaitEvent<T: Sendable>(
    _ what: String, file: StaticString = #filePath, line: UInt = #line,
    _ event: @escaping @Sendable () async throws -> T
) async throws -> T {
    let notice = Task {
        // Cancelled once the event happened; only a sleep that ran its course says something.
        guard (try? await Task.sleep(for: stillWaitingNotice)) != nil else { return }
        FileHandle.standardError.write(Data("still waiting for \(what) (\(file):\(line))\n".utf8))
    }
    defer { notice.cancel() }
    return try await event()
}

extension Task where Success: Sendable {
    /// The task's value, waited for as long as it takes (see `awaitEvent`).
    func value(_ what: String, file: StaticString = #filePath, line: UInt = #line) async throws -> Success {
        try await awaitEvent(what, file: file, line: line) { try await self.value }
    }
}

/// A one-time signal from one task to those waiting for it, so that a test
/// waits for the event it expects, never for a fixed time.
final class Signal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    func fire() {
        continuation.yield()
        continuation.finish()
    }

    /// Returns once `fire()` was called, at once if it was already.
    func wait(_ what: String = "the signal", file: StaticString = #filePath, line: UInt = #line) async throws {
        let stream = stream
        try await awaitEvent(what, file: file, line: line) {
            for await _ in stream { return }
        }
    }
}

/// What happened, in the order it happened, written from any task.
final class EventLog: Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }
}

/// Waits until someone, this process included, blocks waiting for an `flock`
/// on the file at `path`: the kernel lists waiters in /proc/locks, so the
/// code under test needs no hook to show that it blocks. The kernel tells no
/// one when a waiter arrives, so this looks every few milliseconds.
func waitUntilSomeoneWaitsForLock(at path: String, file: StaticString = #filePath, line: UInt = #line) async throws {
    var info = stat()
    guard stat(path, &info) == 0 else { throw POSIXError(.ENOENT) }
    let inode = UInt64(info.st_ino)
    try await awaitEvent("a waiter for the lock on \(path)", file: file, line: line) {
        while !flockWaiters().contains(inode) {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// The inodes of the files that someone waits to `flock` (the lines of
/// /proc/locks marked `->`, such as `3: -> FLOCK ADVISORY WRITE 42 fe:00:1234 0 EOF`).
private func flockWaiters() -> Set<UInt64> {
    guard let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return [] }
    return Set(
        table.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 6, fields[1] == "->", fields[2] == "FLOCK" else { return nil }
            return fields[6].split(separator: ":").last.flatMap { UInt64($0) }
        })
}
