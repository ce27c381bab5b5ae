import AuthCatTestSupport
import Foundation
import XCTest

/// Another local user against authcat, with the built programs run as two
/// real users (`LocalUser`): mallory plants FIFOs, links and files in a
/// sticky, world-writable folder (a stand-in for /tmp made by the test) or
/// offers a vault folder of hers; the victim runs authcat as usual. Every
/// attack must fail with one clear line, nothing written, nothing read, no
/// hang; what the victim does with paths of their own must keep working
/// (docs/SECURITY.md, "Another local user").
final class LocalUserAttackTests: XCTestCase {
    static let secret = "JBSWY3DPEHPK3PXP"

    private var victim: LocalUser!
    private var mallory: LocalUser!
    /// The test's folder, 0755 so that both users can reach what is theirs in it.
    private var root: String!
    /// The programs, linked or copied where both users can run them.
    private var programs: String!
    /// Mode 1777, as /tmp.
    private var shared: String!
    /// The victim's own folder (0700), their HOME, holding their vault.
    private var victimFolder: String!
    /// Mallory's own folder (0755, so that links into it resolve).
    private var malloryFolder: String!

    private var vault: String { victimFolder + "/vault" }

    override func setUpWithError() throws {
        do {
            victim = try LocalUser.ensure("authcat-victim")
            mallory = try LocalUser.ensure("authcat-mallory")
        } catch let needsRoot as LocalUser.NeedsRoot {
            print("LocalUserAttackTests skipped: \(needsRoot)")
            throw XCTSkip(needsRoot.description)
        }
        root = try LocalUser.makeReachableFolder(prefix: "authcat-attack")
        programs = root + "/bin"
        try makeFolder(programs, mode: 0o755)
        for program in [AuthCatRunner.executableURL, AuthCatRunner.fullProgramURL] {
            let copy = programs + "/" + program.lastPathComponent
            if link(program.path, copy) != 0 { try FileManager.default.copyItem(atPath: program.path, toPath: copy) }
        }
        shared = root + "/tmp"
        try makeFolder(shared, mode: 0o1777)
        victimFolder = root + "/victim"
        try makeFolder(victimFolder, mode: 0o700, owner: victim)
        malloryFolder = root + "/mallory"
        try makeFolder(malloryFolder, mode: 0o755, owner: mallory)
        let added = try asVictim(["add", "alice", "--issuer", "GitHub"], stdin: Data("\(Self.secret)\n".utf8))
        XCTAssertEqual(added.status, 0, added.stderr)
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(atPath: root) }
    }

    // MARK: - Output paths

    func testExportIntoAFIFOPlantedInASharedFolderIsRefusedAndMalloryReadsNothing() throws {
        let fifo = shared + "/authcat-export.json"
        try asMallory("/usr/bin/mkfifo", ["-m", "0666", fifo])
        let reader = try MalloryReader(mallory, reading: fifo, in: malloryFolder)
        let export = try asVictim(["export", "--format", "json", "--output", fifo])
        XCTAssertNotEqual(export.status, 0)
        assertRefusal(
            export,
            "refusing \(fifo): it is a FIFO owned by another user (uid \(mallory.uid)) in a folder others can write")
        XCTAssertEqual(try reader.finish(), "", "mallory's FIFO received the export")
    }

    func testLinksPlantedInASharedFolderAreRefusedWhereverTheyLead() throws {
        let loot = malloryFolder + "/loot.json"
        try asMallory("/bin/sh", ["-c", "printf 'bait' > \"$1\" && chmod 666 \"$1\"", "sh", loot])
        try asMallory("/bin/ln", ["-s", loot, shared + "/export.json"])
        let toFile = try asVictim(["export", "--format", "json", "--output", shared + "/export.json", "--force"])
        XCTAssertNotEqual(toFile.status, 0)
        assertRefusal(toFile, "it is a symbolic link owned by another user")
        XCTAssertEqual(try String(contentsOfFile: loot, encoding: .utf8), "bait")

        let fifo = malloryFolder + "/catch"
        try asMallory("/usr/bin/mkfifo", ["-m", "0666", fifo])
        try asMallory("/bin/ln", ["-s", fifo, shared + "/backup.json"])
        let reader = try MalloryReader(mallory, reading: fifo, in: malloryFolder)
        let toFIFO = try asVictim(["export", "--format", "json", "--output", shared + "/backup.json"])
        XCTAssertNotEqual(toFIFO.status, 0)
        assertRefusal(toFIFO, "it is a symbolic link owned by another user")
        XCTAssertEqual(try reader.finish(), "")
    }

    func testAFilePlantedInASharedFolderIsNotReplacedEvenWithForce() throws {
        let planted = shared + "/export.json"
        try asMallory("/bin/sh", ["-c", "printf 'bait' > \"$1\" && chmod 666 \"$1\"", "sh", planted])
        let export = try asVictim(["export", "--format", "json", "--output", planted, "--force"])
        XCTAssertNotEqual(export.status, 0)
        assertRefusal(export, "it is a file owned by another user")
        XCTAssertEqual(try String(contentsOfFile: planted, encoding: .utf8), "bait")
        XCTAssertEqual(try owner(of: planted), mallory.uid)
    }

    func testARecoveryKeyFilePlantedInASharedFolderIsRefusedBeforeSyncStarts() throws {
        let fifo = shared + "/recovery-key.txt"
        try asMallory("/usr/bin/mkfifo", ["-m", "0666", fifo])
        let reader = try MalloryReader(mallory, reading: fifo, in: malloryFolder)
        try victimFile("sync-pass", "correct horse battery staple")
        let enable = try asVictim(
            ["sync", "enable", "--remote", "file://\(victimFolder!)/remote", "--recovery-key-file", fifo],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": victimFolder + "/sync-pass"])
        XCTAssertNotEqual(enable.status, 0)
        assertRefusal(enable, "refusing \(fifo): it is a FIFO owned by another user")
        XCTAssertEqual(try reader.finish(), "", "mallory's FIFO received the recovery key")
        XCTAssertFalse(FileManager.default.fileExists(atPath: vault + "/sync-setup.json"), "sync was set up")
    }

    func testBackupsPlantedInASharedFolderDoNotPushTheVictimsOutOfTheRotation() throws {
        try victimFile("pass", "a passphrase of mine")
        let environment = ["AUTHCAT_BACKUP_PASSPHRASE_FILE": victimFolder + "/pass"]
        let first = try asVictim(["backup", "--output-dir", shared, "--kdf", "interactive"], environment: environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        let mine = try FileManager.default.contentsOfDirectory(atPath: shared)
        XCTAssertEqual(mine.count, 1)
        for name in ["authcat-backup-20990101-000000.authcat", "authcat-backup-20990102-000000.authcat"] {
            try asMallory("/bin/sh", ["-c", "printf 'bait' > \"$1\"", "sh", shared + "/" + name])
        }
        let second = try asVictim(
            ["backup", "--output-dir", shared, "--keep", "2", "--kdf", "interactive"], environment: environment)
        XCTAssertEqual(second.status, 0, second.stderr)
        let left = try FileManager.default.contentsOfDirectory(atPath: shared)
        XCTAssertEqual(left.count, 4, "\(left)")
        XCTAssertTrue(left.contains(mine[0]), "the victim's earlier backup was deleted to make room for mallory's")
    }

    // MARK: - Input paths

    func testAPassphraseFilePlantedInASharedFolderIsRefused() throws {
        // A backup sealed with mallory's passphrase would be hers to open.
        let planted = shared + "/backup-pass"
        try asMallory("/bin/sh", ["-c", "printf 'mallory knows this\\n' > \"$1\" && chmod 644 \"$1\"", "sh", planted])
        let backup = try asVictim(
            ["backup", "--output", victimFolder + "/vault.authcat", "--kdf", "interactive"],
            environment: ["AUTHCAT_BACKUP_PASSPHRASE_FILE": planted])
        XCTAssertNotEqual(backup.status, 0)
        assertRefusal(backup, "refusing \(planted): it is a file owned by another user")
        XCTAssertFalse(FileManager.default.fileExists(atPath: victimFolder + "/vault.authcat"))

        try asMallory("/bin/ln", ["-s", victimFolder + "/sync-pass", shared + "/linked-pass"])
        let linked = try asVictim(
            ["backup", "--output", victimFolder + "/vault.authcat", "--kdf", "interactive"],
            environment: ["AUTHCAT_BACKUP_PASSPHRASE_FILE": shared + "/linked-pass"])
        assertRefusal(linked, "it is a symbolic link owned by another user")
    }

    func testAnImportFilePlantedInASharedFolderIsRefused() throws {
        let planted = shared + "/accounts.txt"
        let uri = "otpauth://totp/Mallory:bank?secret=GEZDGNBVGY3TQOJQ&issuer=Mallory"
        try asMallory("/bin/sh", ["-c", "printf '%s\\n' \"$1\" > \"$2\" && chmod 644 \"$2\"", "sh", uri, planted])
        let before = try asVictim(["list"])
        let imported = try asVictim(["import", planted])
        XCTAssertNotEqual(imported.status, 0)
        assertRefusal(imported, "refusing \(planted): it is a file owned by another user")
        XCTAssertEqual(try asVictim(["list"]).stdout, before.stdout, "the vault changed")
        let restored = try asVictim(["restore-backup", planted])
        assertRefusal(restored, "refusing \(planted): it is a file owned by another user")
    }

    /// A followed file in a shared folder, once its app removed it (to write it
    /// anew), can be replaced by mallory with accounts of hers: `follow now`
    /// refuses her file, and `follow add` refuses to start following one.
    func testAFollowedFilePlantedByAnotherUserIsRefusedAndChangesNothing() throws {
        let followed = shared + "/otp-export.txt"
        let own = "otpauth://totp/Own:victim?secret=\(Self.secret)\n"
        let planted = "otpauth://totp/Mallory:victim?secret=KRSXG5BAMFRGGZDF\n"
        try asVictimRun(
            "/bin/sh", ["-c", "printf '%s' \"$1\" > \"$2\" && touch -d '-1 minute' \"$2\"", "sh", own, followed])
        let added = try asVictim(["follow", "add", followed, "--name", "export"])
        XCTAssertEqual(added.status, 0, added.stderr)
        let listed = try asVictim(["list"]).stdout

        try asVictimRun("/bin/rm", [followed])
        try asMallory(
            "/bin/sh", ["-c", "printf '%s' \"$1\" > \"$2\" && touch -d '-1 minute' \"$2\"", "sh", planted, followed])
        let looked = try asVictim(["follow", "now"])
        XCTAssertEqual(looked.status, 1, looked.stdout)
        XCTAssertTrue(looked.stdout.contains("owned by another user (uid \(mallory.uid))"), looked.stdout)
        XCTAssertEqual(try asVictim(["list"]).stdout, listed, "nothing of mallory's file was applied")

        let refused = try asVictim(["follow", "add", followed, "--name", "again"])
        XCTAssertNotEqual(refused.status, 0)
        assertRefusal(refused, "owned by another user")
        XCTAssertEqual(try asVictim(["list"]).stdout, listed)
    }

    // MARK: - What the victim's own paths still do

    func testTheVictimsOwnFIFOsAndLinksStillWork() throws {
        let ownFIFO = victimFolder + "/export.fifo"
        try asVictimRun("/usr/bin/mkfifo", [ownFIFO])
        let reader = try MalloryReader(victim, reading: ownFIFO, in: victimFolder)
        let throughFIFO = try asVictim(["export", "--format", "json", "--output", ownFIFO])
        XCTAssertEqual(throughFIFO.status, 0, throughFIFO.stderr)
        XCTAssertTrue(try reader.finish().contains(Self.secret), "the export did not go through the victim's own FIFO")

        // The victim's own FIFO and link in the shared folder are theirs: no one else could have planted them.
        let sharedFIFO = shared + "/victim.fifo"
        try asVictimRun("/usr/bin/mkfifo", [sharedFIFO])
        let sharedReader = try MalloryReader(victim, reading: sharedFIFO, in: victimFolder)
        XCTAssertEqual(try asVictim(["export", "--format", "json", "--output", sharedFIFO]).status, 0)
        XCTAssertTrue(try sharedReader.finish().contains(Self.secret))

        try asVictimRun("/bin/ln", ["-s", victimFolder + "/linked.json", shared + "/link.json"])
        let throughLink = try asVictim(["export", "--format", "json", "--output", shared + "/link.json"])
        XCTAssertEqual(throughLink.status, 0, throughLink.stderr)
        XCTAssertTrue(try String(contentsOfFile: victimFolder + "/linked.json", encoding: .utf8).contains(Self.secret))

        try victimFile("pass", "a passphrase of mine")
        let backup = try asVictim(
            ["backup", "--output", shared + "/mine.authcat", "--kdf", "interactive"],
            environment: ["AUTHCAT_BACKUP_PASSPHRASE_FILE": victimFolder + "/pass"])
        XCTAssertEqual(backup.status, 0, backup.stderr)
        let verified = try asVictim(
            ["backup", "--verify", shared + "/mine.authcat"],
            environment: ["AUTHCAT_BACKUP_PASSPHRASE_FILE": victimFolder + "/pass"])
        XCTAssertEqual(verified.status, 0, verified.stderr)
    }

    func testStandardOutputStillWorks() throws {
        let export = try asVictim(["export", "--format", "json", "--output", "/dev/stdout"])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stdout.contains(Self.secret))
    }

    // MARK: - Whose vault is it

    func testAVaultFolderOfAnotherUserIsRefusedByBothPrograms() throws {
        let theirs = malloryFolder + "/vault"
        let made = try mallory.run(
            programs + "/authcat-cli", ["--home", theirs, "add", "alice", "--issuer", "GitHub"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": malloryFolder], in: malloryFolder,
            stdin: Data("\(Self.secret)\n".utf8))
        XCTAssertEqual(made.status, 0, made.stderr)
        // Readable by everyone: before, the victim got only a warning about the modes.
        try asMallory("/bin/chmod", ["-R", "go+rX", theirs])
        let expected = "the vault folder \(theirs) belongs to user \(mallory.uid), not you"
        for (program, arguments) in [
            ("authcat", ["code", "alice"]), ("authcat-cli", ["list"]), ("authcat-cli", ["add", "bob"]),
        ] {
            let result = try asVictim(arguments, home: theirs, program: program, stdin: Data("\(Self.secret)\n".utf8))
            XCTAssertNotEqual(result.status, 0, "\(program) \(arguments)")
            assertRefusal(result, expected)
            XCTAssertEqual(result.stdout, "", "\(program) \(arguments)")
        }
        let doctor = try asVictim(["doctor", "--no-clock"], home: theirs, program: "authcat-cli")
        XCTAssertNotEqual(doctor.status, 0)
        XCTAssertTrue(doctor.stdout.contains("\(theirs) belongs to user \(mallory.uid), not you"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("chown -R \(victim.uid) \(theirs)"), doctor.stdout)
    }

    func testAVaultKeyOfAnotherUserIsRefused() throws {
        try mallory.own(vault + "/vault.key")
        let expected = "the vault file \(vault)/vault.key belongs to user \(mallory.uid), not you"
        for (program, arguments) in [("authcat", ["code", "alice"]), ("authcat-cli", ["list"])] {
            let result = try asVictim(arguments, program: program)
            XCTAssertNotEqual(result.status, 0, "\(program) \(arguments)")
            assertRefusal(result, expected)
        }
        let doctor = try asVictim(["doctor", "--no-clock"], program: "authcat-cli")
        XCTAssertNotEqual(doctor.status, 0)
        XCTAssertTrue(
            doctor.stdout.contains("\(vault)/vault.key belongs to user \(mallory.uid), not you"), doctor.stdout)
    }

    func testNoVaultIsCreatedInAFolderOfAnotherUser() throws {
        let theirs = shared + "/authcat"
        try asMallory("/bin/mkdir", ["-m", "0777", theirs])
        let add = try asVictim(
            ["add", "bob"], home: theirs, program: "authcat-cli", stdin: Data("\(Self.secret)\n".utf8))
        XCTAssertNotEqual(add.status, 0)
        assertRefusal(add, "the vault folder \(theirs) belongs to user \(mallory.uid), not you")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: theirs), [])
    }

    // MARK: - Helpers

    private func makeFolder(_ path: String, mode: mode_t, owner: LocalUser? = nil) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        // chmod, not the creation mode, which the umask would cut.
        XCTAssertEqual(chmod(path, mode), 0)
        try owner?.own(path)
    }

    private func victimFile(_ name: String, _ text: String) throws {
        try asVictimRun(
            "/bin/sh", ["-c", "umask 077 && printf '%s\\n' \"$1\" > \"$2\"", "sh", text, victimFolder + "/" + name])
    }

    private func owner(of path: String) throws -> uid_t {
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0)
        return info.st_uid
    }

    private var victimEnvironment: [String: String] {
        ProgramEnvironment.clean(home: victimFolder)
    }

    /// `authcat --home HOME arguments…` (or another of the programs) as the victim.
    private func asVictim(
        _ arguments: [String], home: String? = nil, program: String = "authcat", stdin: Data? = nil,
        environment: [String: String] = [:]
    ) throws -> LocalUser.Result {
        try victim.run(
            programs + "/" + program, ["--home", home ?? vault] + arguments,
            environment: victimEnvironment.merging(environment) { _, new in new }, in: victimFolder, stdin: stdin)
    }

    @discardableResult
    private func asVictimRun(_ executable: String, _ arguments: [String]) throws -> LocalUser.Result {
        let result = try victim.run(executable, arguments, environment: victimEnvironment, in: victimFolder)
        XCTAssertEqual(result.status, 0, "\(executable) \(arguments): \(result.stderr)")
        return result
    }

    @discardableResult
    private func asMallory(_ executable: String, _ arguments: [String]) throws -> LocalUser.Result {
        let result = try mallory.run(executable, arguments, environment: ["PATH": "/usr/bin:/bin"], in: malloryFolder)
        XCTAssertEqual(result.status, 0, "\(executable) \(arguments): \(result.stderr)")
        return result
    }

    private func assertRefusal(
        _ result: LocalUser.Result, _ text: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("authcat: "), result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(text), "\(result.stderr) lacks \(text)", file: file, line: line)
        XCTAssertFalse(result.stderr.contains(Self.secret), file: file, line: line)
    }
}

/// `cat FIFO` as a user: what a reader of the FIFO would receive. It is
/// started before authcat runs and released afterwards by opening the FIFO
/// for writing and closing it, so that it ends at once, with what it got,
/// without any wait on a clock.
private final class MalloryReader {
    private let process: Process
    private let output = Pipe()
    private let fifo: String

    init(_ user: LocalUser, reading fifo: String, in folder: String) throws {
        self.fifo = fifo
        process = user.process("/bin/cat", [fifo], environment: ["PATH": "/usr/bin:/bin"], in: folder)
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Everything the reader received, once it has ended.
    func finish() throws -> String {
        let deadline = Date().addingTimeInterval(60)
        // The reader opens the FIFO when it runs: wait for that (or for its end), then give it an end of file.
        while process.isRunning, Date() < deadline {
            let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if writer >= 0 {
                close(writer)
                break
            }
            usleep(2_000)
        }
        let received = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: received, as: UTF8.self)
    }
}
