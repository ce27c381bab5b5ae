import Foundation
import Synchronization
import XCTest

/// How long a test waits for an event it expects before it fails: not a
/// duration any event should take (each of them took under 0.1 s with the
/// machine's load at 15, and on one core), only what turns a broken exclusion
/// (a lock never released, a signal never fired) into a failure instead of a
/// hang. A wait of 30 s once ran out on a busy machine, not seen again; the
/// one starvation found: lock waits held threads of the pool that also runs
/// every task (the holder's, which would release the lock, among them), and
/// have threads of their own now (`SyncLockFile`).
let eventTimeout: Duration = .seconds(120)

struct EventTimedOut: Error, CustomStringConvertible {
    let what: String

    var description: String { "\(what): not within \(eventTimeout)" }
}

/// The outcome of `event`, or a test failure (thrown as `EventTimedOut`) when
/// it has not finished within `eventTimeout`. A hung event cannot be stopped;
/// it is cancelled and left behind while the test fails.
func awaitEvent<T: Sendable>(
    _ what: String, file: StaticString = #filePath, line: UInt = #line,
    _ event: @escaping @Sendable () async throws -> T
) async throws -> T {
    let (outcomes, continuation) = AsyncStream<Result<T, any Error>>.makeStream()
    let work = Task {
        do {
            continuation.yield(.success(try await event()))
        } catch {
            continuation.yield(.failure(error))
        }
    }
    let timer = Task {
        // Cancelled once the event happened; only a sleep that ran its course is a timeout.
        guard (try? await Task.sleep(for: eventTimeout)) != nil else { return }
        continuation.yield(.failure(EventTimedOut(what: what)))
    }
    defer { timer.cancel() }
    for await outcome in outcomes {
        if case .failure(let timedOut as EventTimedOut) = outcome {
            work.cancel()
            XCTFail(timedOut.description, file: file, line: line)
        }
        return try outcome.get()
    }
    // The stream is never finished: one of the two tasks yields first.
    throw CancellationError()
}

extension Task where Success: Sendable {
    /// The task's value, failing the test when it has not finished within `eventTimeout`.
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

    /// Returns once `fire()` was called, at once if it was already; fails the
    /// test (and throws) if it is not called within `eventTimeout`.
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
/// one when a waiter arrives, so this looks every few milliseconds, within
/// `eventTimeout`.
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
