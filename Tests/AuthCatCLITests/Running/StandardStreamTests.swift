import Foundation
import XCTest

@testable import AuthCatCommandLine

/// When what a command prints reaches its reader.
final class StandardStreamTests: XCTestCase {
    /// Bytes waiting to be read on `fd` now, without blocking.
    private func available(on fd: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        let count = read(fd, &bytes, bytes.count)
        return count > 0 ? String(decoding: bytes[..<count], as: UTF8.self) : ""
    }

    /// Linux's TIOCSPTLCK and TIOCGPTN, which Glibc's module does not bring
    /// (they are made by macros); the same on x86-64 and arm64.
    private static let unlockTerminal: UInt = 0x4004_5431
    private static let terminalNumber: UInt = 0x8004_5430

    func testATerminalGetsEachLineOnceItIsWhole() throws {
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(controller, 0)
        defer { close(controller) }
        var locked: Int32 = 0
        var number: UInt32 = 0
        XCTAssertEqual(ioctl(controller, Self.unlockTerminal, &locked), 0)
        XCTAssertEqual(ioctl(controller, Self.terminalNumber, &number), 0)
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(terminal, 0)
        defer { close(terminal) }
        var settings = termios()
        tcgetattr(terminal, &settings)
        cfmakeraw(&settings)
        tcsetattr(terminal, TCSANOW, &settings)

        let stream = StandardStream(terminal)
        stream.write("recovery key: ")
        XCTAssertEqual(available(on: controller), "", "half a line waits")
        stream.write("ABCD-EFGH\n")
        XCTAssertEqual(
            available(on: controller), "recovery key: ABCD-EFGH\n", "a whole line is shown before any later work")
    }

    func testAPipeGetsOutputWhenFlushed() throws {
        let pipe = Pipe()
        let reader = pipe.fileHandleForReading.fileDescriptor
        let stream = StandardStream(pipe.fileHandleForWriting.fileDescriptor)
        stream.write("one\ntwo\n")
        XCTAssertEqual(available(on: reader), "", "held: a long listing costs few writes")
        stream.flush()
        XCTAssertEqual(available(on: reader), "one\ntwo\n")
    }
}
