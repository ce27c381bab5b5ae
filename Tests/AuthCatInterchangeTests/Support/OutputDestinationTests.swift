import AuthCatInterchange
import AuthCatTestSupport
import Foundation
import XCTest

/// The rule for output paths, in-process: what each kind of path resolves
/// to, and what happens when the path changes between resolving and writing.
/// The CLI tests run the same kinds through real shells and readers.
final class OutputDestinationTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    private func path(_ name: String) -> String { folder.url(name).path }

    private var realFolder: String {
        URL(fileURLWithPath: folder.url.path).resolvingSymlinksInPath().path
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") }
    }

    func testNewAndExistingFiles() throws {
        let new = try OutputDestination(path("out"), replacing: false)
        XCTAssertEqual(new.kind, .newFile)
        XCTAssertEqual(new.target, realFolder + "/out")
        XCTAssertEqual(new.path, path("out"))
        try new.write(Data("one".utf8))
        XCTAssertEqual(try String(contentsOfFile: path("out"), encoding: .utf8), "one")
        var info = stat()
        XCTAssertEqual(stat(path("out"), &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)

        XCTAssertThrowsError(try OutputDestination(path("out"), replacing: false)) { error in
            XCTAssertEqual(error as? OutputDestinationError, .exists(path("out")))
            XCTAssertEqual("\(error)", "\(path("out")) already exists")
            XCTAssertEqual((error as? OutputDestinationError)?.nextStep, .replaceFile)
        }
        let existing = try OutputDestination(path("out"), replacing: true)
        XCTAssertEqual(existing.kind, .regularFile)
        try existing.write(Data("two".utf8))
        XCTAssertEqual(try String(contentsOfFile: path("out"), encoding: .utf8), "two")
        XCTAssertEqual(try leftovers(), [])
    }

    func testAFileThatAppearsBeforeTheWriteIsNotReplacedWithoutPermission() throws {
        let destination = try OutputDestination(path("late"), replacing: false)
        try Data("someone else's\n".utf8).write(to: folder.url("late"))
        XCTAssertThrowsError(try destination.write(Data("mine".utf8))) { error in
            XCTAssertEqual(error as? OutputDestinationError, .exists(path("late")))
        }
        XCTAssertEqual(try String(contentsOfFile: path("late"), encoding: .utf8), "someone else's\n")
        XCTAssertEqual(try leftovers(), [])
    }

    func testAFileThatTurnsIntoAFIFOIsNeverReplaced() throws {
        try Data("old".utf8).write(to: folder.url("turns"))
        let destination = try OutputDestination(path("turns"), replacing: true)
        try FileManager.default.removeItem(atPath: path("turns"))
        XCTAssertEqual(mkfifo(path("turns"), 0o600), 0)
        XCTAssertThrowsError(try destination.write(Data("mine".utf8))) { error in
            XCTAssertEqual(error as? OutputDestinationError, .refused(path("turns"), what: "no longer a regular file"))
        }
        var info = stat()
        XCTAssertEqual(lstat(path("turns"), &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO)
        XCTAssertEqual(try leftovers(), [])
    }

    func testSymbolicLinksAreFollowedRelativeToTheirFolder() throws {
        try FileManager.default.createDirectory(atPath: path("inner"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: path("inner/link"), withDestinationPath: "../target")
        try FileManager.default.createSymbolicLink(atPath: path("outer"), withDestinationPath: path("inner/link"))
        let destination = try OutputDestination(path("outer"), replacing: false)
        XCTAssertEqual(destination.kind, .newFile)
        XCTAssertEqual(destination.target, realFolder + "/target")
        try destination.write(Data("through two links".utf8))
        XCTAssertEqual(try String(contentsOfFile: path("target"), encoding: .utf8), "through two links")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("outer")), path("inner/link"))
    }

    func testFIFOsDevicesAndDescriptorsAreWrittenThrough() throws {
        XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
        XCTAssertEqual(try OutputDestination(path("fifo"), replacing: false).kind, .stream)
        XCTAssertEqual(try OutputDestination("/dev/null", replacing: false).kind, .stream)
        XCTAssertEqual(try OutputDestination("/dev/stdout", replacing: false).kind, .descriptor(1))
        XCTAssertTrue(try OutputDestination("/dev/stdout", replacing: false).isStandardOutput)
        XCTAssertFalse(try OutputDestination(path("new"), replacing: false).isStandardOutput)

        let pipe = Pipe()
        let fd = pipe.fileHandleForWriting.fileDescriptor
        for name in ["/dev/fd/\(fd)", "/proc/self/fd/\(fd)"] {
            let destination = try OutputDestination(name, replacing: false)
            XCTAssertEqual(destination.kind, .descriptor(fd), name)
            try destination.write(Data("\(name)\n".utf8))
        }
        try pipe.fileHandleForWriting.close()
        XCTAssertEqual(
            String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            "/dev/fd/\(fd)\n/proc/self/fd/\(fd)\n")

        // A FIFO: the reader gets the bytes, the FIFO stays.
        let reader = DispatchQueue.global()
        let received = Mutex()
        let done = DispatchSemaphore(value: 0)
        let fifo = path("fifo")
        reader.async {
            received.value = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()
            done.signal()
        }
        try OutputDestination(fifo, replacing: false).write(Data("through the fifo".utf8))
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(String(decoding: received.value, as: UTF8.self), "through the fifo")
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO)
    }

    func testWhatIsRefused() throws {
        XCTAssertThrowsError(try OutputDestination(folder.url.path, replacing: true)) { error in
            XCTAssertEqual(error as? OutputDestinationError, .refused(folder.url.path, what: "a folder"))
            XCTAssertEqual(
                "\(error)",
                "cannot write \(folder.url.path): it is a folder, which authcat never replaces; "
                    + "name a file, a FIFO or a device")
        }
        XCTAssertThrowsError(try OutputDestination(path("missing/out"), replacing: true)) { error in
            XCTAssertEqual(
                "\(error)", "cannot write \(path("missing/out")): the folder \(path("missing")) does not exist")
        }
        XCTAssertThrowsError(try OutputDestination("", replacing: true))
        let slashed = folder.url.path + "/not-yet/"
        XCTAssertThrowsError(try OutputDestination(slashed, replacing: true)) { error in
            XCTAssertEqual(
                error as? OutputDestinationError, .cannotWrite(slashed, reason: "a file name cannot end with /"))
        }
        XCTAssertThrowsError(try OutputDestination("/dev/fd/999", replacing: true)) { error in
            XCTAssertEqual(
                error as? OutputDestinationError, .cannotWrite("/dev/fd/999", reason: "descriptor 999 is not open"))
        }
    }

    func testMessagesForAFullDisk() {
        XCTAssertEqual(
            "\(OutputDestinationError.diskFull("/b/x", existed: true))",
            "cannot write /b/x: the disk is full (the file was left as it was); free some space and try again")
        XCTAssertEqual(
            OutputDestinationError.diskFull("/b/x", existed: false).reason,
            "the disk is full (nothing was written); free some space and try again")
    }
}

/// A value one thread writes and another reads after a semaphore.
private final class Mutex: @unchecked Sendable {
    var value = Data()
}
