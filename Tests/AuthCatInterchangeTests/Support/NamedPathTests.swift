import AuthCatInterchange
import AuthCatTestSupport
import Foundation
import XCTest

/// The one walk of user-named paths: which links and files it refuses as
/// planted by another user, and what it leads to otherwise. Files are
/// given to "another user" with `lchown`, so most cases need root (CI runs
/// as root); the attack itself, with real users, is `LocalUserAttackTests`.
final class NamedPathTests: XCTestCase {
    private var folder: TemporaryFolder!
    /// A user id nobody on the machine has: "another user".
    private let mallory: uid_t = 4242

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        chmod(folder.url.path, 0o755)
    }

    override func tearDown() {
        folder = nil
    }

    private var real: String { URL(fileURLWithPath: folder.url.path).resolvingSymlinksInPath().path }

    private func path(_ name: String) -> String { folder.url(name).path }

    private func requireRoot() throws {
        guard geteuid() == 0 else {
            throw XCTSkip("giving a file to another user needs root (CI runs the tests as root)")
        }
    }

    /// A folder like /tmp: world-writable, sticky.
    private func sticky() throws -> String {
        let sticky = path("sticky")
        XCTAssertEqual(mkdir(sticky, 0o755), 0)
        XCTAssertEqual(chmod(sticky, 0o1777), 0)
        return sticky
    }

    private func file(_ path: String, owner: uid_t? = nil) throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        if let owner { XCTAssertEqual(lchown(path, owner, 0), 0) }
    }

    private func fifo(_ path: String, owner: uid_t? = nil) {
        XCTAssertEqual(mkfifo(path, 0o666), 0)
        if let owner { XCTAssertEqual(lchown(path, owner, 0), 0) }
    }

    private func link(_ path: String, to target: String, owner: uid_t? = nil) {
        XCTAssertEqual(symlink(target, path), 0)
        if let owner { XCTAssertEqual(lchown(path, owner, 0), 0) }
    }

    private func assertPlanted(
        _ path: String, node: String? = nil, kind: String, in folder: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try NamedPath.walk(path), file: file, line: line) { error in
            guard let planted = error as? PlantedPathError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(planted.path, path, file: file, line: line)
            XCTAssertEqual(planted.node, node ?? path, file: file, line: line)
            XCTAssertEqual(planted.kind, kind, file: file, line: line)
            XCTAssertEqual(planted.owner, mallory, file: file, line: line)
            XCTAssertEqual(planted.folder, folder, file: file, line: line)
        }
    }

    func testAnotherUsersFIFOInAStickyFolderIsRefused() throws {
        try requireRoot()
        let sticky = try sticky()
        fifo(sticky + "/export.json", owner: mallory)
        assertPlanted(sticky + "/export.json", kind: "a FIFO", in: real + "/sticky")
        XCTAssertEqual(
            "\(try XCTUnwrap(catching(sticky + "/export.json")))",
            "refusing \(sticky)/export.json: it is a FIFO owned by another user (uid 4242) in a folder others can write "
                + "(\(real)/sticky); choose a path in a folder only you can write")
    }

    func testAnotherUsersLinkIsRefusedWhereverItLeads() throws {
        try requireRoot()
        let sticky = try sticky()
        try file(path("mine"))
        link(sticky + "/out", to: path("mine"), owner: mallory)
        assertPlanted(sticky + "/out", kind: "a symbolic link", in: real + "/sticky")
    }

    func testEveryHopIsJudgedWhereItStands() throws {
        try requireRoot()
        let sticky = try sticky()
        fifo(sticky + "/catch", owner: mallory)
        link(sticky + "/hop", to: sticky + "/catch")
        link(path("out"), to: sticky + "/hop")
        // Your own links lead to another user's FIFO: the FIFO is judged in its folder.
        assertPlanted(path("out"), node: real + "/sticky/catch", kind: "a FIFO", in: real + "/sticky")
    }

    func testAnotherUsersFileIsRefusedInAFolderTheyOwnOrAGroupCanWrite() throws {
        try requireRoot()
        let theirs = path("theirs")
        XCTAssertEqual(mkdir(theirs, 0o755), 0)
        XCTAssertEqual(chown(theirs, mallory, 0), 0)
        try file(theirs + "/import.txt", owner: mallory)
        assertPlanted(theirs + "/import.txt", kind: "a file", in: real + "/theirs")

        let shared = path("shared")
        XCTAssertEqual(mkdir(shared, 0o755), 0)
        XCTAssertEqual(chmod(shared, 0o775), 0)
        try file(shared + "/import.txt", owner: mallory)
        assertPlanted(shared + "/import.txt", kind: "a file", in: real + "/shared")
    }

    func testAnotherUsersFileInAFolderOnlyYouCanWriteIsRead() throws {
        try requireRoot()
        try file(path("given"), owner: mallory)
        guard case .existing(let node) = try NamedPath.walk(path("given")) else { return XCTFail("not found") }
        XCTAssertEqual(node.path, real + "/given")
        XCTAssertEqual(node.owner, mallory)
    }

    func testYourOwnAndRootsFilesInAStickyFolderAreUsed() throws {
        let sticky = try sticky()
        fifo(sticky + "/fifo")
        try file(path("mine"))
        link(sticky + "/link", to: path("mine"))
        guard case .existing(let fifoNode) = try NamedPath.walk(sticky + "/fifo") else { return XCTFail("no FIFO") }
        XCTAssertEqual(fifoNode.type, S_IFIFO)
        guard case .existing(let linked) = try NamedPath.walk(sticky + "/link") else { return XCTFail("no target") }
        XCTAssertEqual(linked.path, real + "/mine")
        // For another user, root's files are no threat either: root could do anything anyway.
        if geteuid() == 0 {
            XCTAssertNoThrow(try NamedPath.walk(sticky + "/fifo", userID: mallory + 1))
        }
    }

    func testDescriptorsMissingFilesAndRelativePaths() throws {
        XCTAssertEqual(try NamedPath.walk("/dev/stdout"), .descriptor(1))
        XCTAssertEqual(try NamedPath.walk("/dev/fd/2"), .descriptor(2))
        XCTAssertEqual(try NamedPath.walk("/proc/self/fd/0"), .descriptor(0))
        XCTAssertEqual(try NamedPath.walk(path("new")), .missing(folder: real, name: "new"))
        XCTAssertEqual(mkdir(path("sub"), 0o700), 0)
        XCTAssertEqual(try NamedPath.walk(path("sub/../new")), .missing(folder: real, name: "new"))
        let previous = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.url.path))
        XCTAssertEqual(try NamedPath.walk("./new"), .missing(folder: real, name: "new"))
    }

    func testFailures() throws {
        link(path("a"), to: path("b"))
        link(path("b"), to: path("a"))
        XCTAssertThrowsError(try NamedPath.walk(path("a"))) { error in
            XCTAssertEqual((error as? NamedPath.Failure)?.code, ELOOP)
        }
        link(path("to-folder"), to: path("nowhere") + "/")
        XCTAssertThrowsError(try NamedPath.walk(path("to-folder")), "a link to `x/` never makes a file x") { error in
            XCTAssertEqual((error as? NamedPath.Failure)?.folder, self.real + "/nowhere")
        }
        XCTAssertThrowsError(try NamedPath.walk(path("missing/out"))) { error in
            XCTAssertEqual((error as? NamedPath.Failure)?.code, ENOENT)
            XCTAssertEqual((error as? NamedPath.Failure)?.folder, self.real + "/missing")
        }
    }

    func testWhatIsOpenedMustBeWhatWasJudged() throws {
        try file(path("one"))
        try file(path("two"))
        guard case .existing(let node) = try NamedPath.walk(path("one")) else { return XCTFail("not found") }
        let one = open(path("one"), O_RDONLY)
        let two = open(path("two"), O_RDONLY)
        defer {
            close(one)
            close(two)
        }
        XCTAssertTrue(node.isSame(as: one))
        XCTAssertFalse(node.isSame(as: two))
    }

    func testOutputDestinationRefusesAPlantedFIFOWithoutOpeningIt() throws {
        try requireRoot()
        let sticky = try sticky()
        // No reader: opening it for writing would wait for ever; the refusal comes first.
        fifo(sticky + "/out.json", owner: mallory)
        XCTAssertThrowsError(try OutputDestination(sticky + "/out.json", replacing: true)) { error in
            XCTAssertTrue(error is PlantedPathError, "\(error)")
        }
    }

    private func catching(_ path: String) -> Error? {
        do {
            _ = try NamedPath.walk(path)
            return nil
        } catch {
            return error
        }
    }
}
