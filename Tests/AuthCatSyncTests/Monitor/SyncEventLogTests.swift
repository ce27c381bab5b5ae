import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import XCTest

@testable import AuthCatSync

final class SyncEventLogTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func makeLog(
        maximumBytes: Int = SyncEventLog.defaultMaximumBytes, processID: Int32 = 4242
    ) throws -> SyncEventLog {
        let folder = try makeTemporaryFolder()
        return SyncEventLog(
            location: VaultLocation(folder: folder.url), processID: processID, maximumBytes: maximumBytes)
    }

    func testAbsentLogHasNoEvents() throws {
        XCTAssertEqual(try makeLog().events(), [])
    }

    func testRecordedEventsComeBackInOrderStampedWithTheProcess() throws {
        let log = try makeLog()
        let failure = SyncFailure(category: .unreachable, message: "cannot reach s3://bucket")
        log.record(SyncEvent(phase: .import, kind: .started, time: start))
        log.record(SyncEvent(phase: .import, kind: .failed, time: start + 1, failure: failure, processID: 7))

        XCTAssertEqual(
            try log.events(),
            [
                SyncEvent(phase: .import, kind: .started, time: start, processID: 4242),
                SyncEvent(phase: .import, kind: .failed, time: start + 1, failure: failure, processID: 7),
            ])
    }

    func testAFailureKeepsItsNextStepWhileOlderAndNewerRecordsStillRead() throws {
        let log = try makeLog()
        let failure = SyncFailure(category: .other, message: "interrupted", nextStep: .syncNow)
        log.record(SyncEvent(phase: .export, kind: .failed, time: start, failure: failure))
        let line = try String(contentsOf: log.fileURL, encoding: .utf8)
        XCTAssertTrue(line.contains(#""nextStep":"syncNow""#), line)
        let older =
            #"{"failure":{"category":"other","message":"old"},"kind":"failed","phase":"import","processID":1,"time":1}"#
        let newer =
            #"{"failure":{"category":"other","message":"new","nextStep":"aStepNotYetNamed"},"kind":"failed","#
            + #""phase":"import","processID":1,"time":2}"#
        try Data((line + older + "\n" + newer + "\n").utf8).write(to: log.fileURL)
        XCTAssertEqual(try log.events().map(\.failure?.nextStep), [.syncNow, nil, nil])
        XCTAssertEqual(try log.events().last?.failure?.message, "new", "a step it does not know keeps the record")
    }

    func testLogFileIsPrivate() throws {
        let log = try makeLog()
        let previous = umask(0o022)
        defer { umask(previous) }
        log.record(SyncEvent(phase: .setup, kind: .started, time: start))
        XCTAssertEqual(SecureFile.mode(of: log.fileURL.path), 0o600)
    }

    func testLogStaysWithinItsBoundAndKeepsTheNewestEvents() throws {
        let log = try makeLog(maximumBytes: 2048)
        for index in 0..<200 {
            log.record(SyncEvent(phase: .export, kind: .succeeded, time: start + Double(index)))
        }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: log.fileURL.path)[.size] as? Int)
        XCTAssertLessThanOrEqual(size, 2048)
        let events = try log.events()
        XCTAssertFalse(events.isEmpty)
        XCTAssertEqual(events.last?.time, start + 199)
        XCTAssertEqual(events.map(\.time), events.map(\.time).sorted())
        XCTAssertEqual(SecureFile.mode(of: log.fileURL.path), 0o600, "a replaced log stays private")
        let folder = log.fileURL.deletingLastPathComponent().path
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted(),
            [SyncEventLog.fileName, SyncEventLog.lockFileName].sorted(), "no temporary file is left")
    }

    func testTornAndForeignLinesAreSkipped() throws {
        let log = try makeLog()
        log.record(SyncEvent(phase: .setup, kind: .started, time: start))
        let handle = try FileHandle(forWritingTo: log.fileURL)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"phase\":\"imp\n not json\n".utf8))
        try handle.close()
        log.record(SyncEvent(phase: .setup, kind: .succeeded, time: start + 1))

        XCTAssertEqual(try log.events().map(\.kind), [.started, .succeeded])
    }

    func testRecordingIntoAMissingFolderDropsTheEventQuietly() throws {
        let folder = try makeTemporaryFolder().url.appendingPathComponent("absent")
        let log = SyncEventLog(location: VaultLocation(folder: folder))
        log.record(SyncEvent(phase: .setup, kind: .started, time: start))
        XCTAssertEqual(try log.events(), [])
    }

    func testConcurrentWritersNeverInterleaveLines() throws {
        let log = try makeLog(maximumBytes: 1_000_000)
        let start = self.start
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<50 {
                log.record(
                    SyncEvent(phase: .export, kind: .started, time: start + Double(index), processID: Int32(worker)))
            }
        }
        XCTAssertEqual(try log.events().count, 400)
    }

    func testALockHolderThatStopsHangsNeitherReadersNorWriters() throws {
        let log = try makeLog()
        log.record(SyncEvent(phase: .import, kind: .started, time: start))
        let before = try Data(contentsOf: log.fileURL)
        // A real process holds the lock and never lets go, as a sync stopped with Ctrl-Z would.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        let lockFile = log.fileURL.deletingLastPathComponent().appendingPathComponent(SyncEventLog.lockFileName)
        holder.arguments = ["--no-fork", "--exclusive", lockFile.path, "sleep", "600"]
        try holder.run()
        defer {
            holder.terminate()
            holder.waitUntilExit()
        }
        let deadline = Date() + 60
        while !Self.isLocked(lockFile), Date() < deadline { usleep(10_000) }
        XCTAssertTrue(Self.isLocked(lockFile), "flock never took the lock")

        let answered = expectation(description: "the reader and the writer returned")
        let start = self.start
        DispatchQueue.global().async {
            XCTAssertEqual(try? log.events().count, 1, "the reader reads without the lock")
            log.record(SyncEvent(phase: .import, kind: .succeeded, time: start + 1))
            log.record(SyncEvent(phase: .export, kind: .started, time: start + 2))
            answered.fulfill()
        }
        wait(for: [answered], timeout: 120)
        XCTAssertEqual(try Data(contentsOf: log.fileURL), before, "the writer dropped its events")
        XCTAssertEqual(log.waitedInVain.withLock { $0 }, true, "and waits no more for the next ones")
    }

    private static func isLocked(_ url: URL) -> Bool {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    func testRemoveAllEmptiesTheLog() throws {
        let log = try makeLog()
        log.record(SyncEvent(phase: .setup, kind: .started, time: start))
        try log.removeAll()
        try log.removeAll()
        XCTAssertEqual(try log.events(), [])
    }

    func testNewestLinesKeepsWholeLinesWithinTheBudget() {
        let data = Data("aaaa\nbbbb\ncccc\n".utf8)
        XCTAssertEqual(SyncEventLog.newestLines(of: data, fitting: 11), Data("bbbb\ncccc\n".utf8))
        XCTAssertEqual(SyncEventLog.newestLines(of: data, fitting: 4), Data())
    }
}
