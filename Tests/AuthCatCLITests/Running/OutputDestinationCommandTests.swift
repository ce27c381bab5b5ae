import Foundation
import XCTest

/// `export --output` and `backup --output` write where the user points, as
/// what it is: files atomically (and only with --force over an existing
/// one), symbolic links followed, FIFOs, devices and /dev/fd/N written
/// through, anything else refused. Each kind is set up by a real shell with
/// real readers, and the path is checked to be what it was afterwards.
final class OutputDestinationCommandTests: InterchangeTests {
    private var passphrase: [String: String] = [:]
    /// The otpauth export of the fixture, as `--stdout` prints it: what every destination must receive.
    private var expected = ""
    /// "N accounts", as the summaries say it.
    private var accounts = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        try succeed(["import", fixture("aegis_plain.json")])
        passphrase = ["AUTHCAT_BACKUP_PASSPHRASE_FILE": try scratch("backup-pass", "backup passphrase\n")]
        expected = try succeed(["export", "--format", "otpauth", "--stdout"])
        let count = expected.split(separator: "\n").count
        XCTAssertGreaterThan(count, 1)
        accounts = "\(count) accounts"
    }

    private func path(_ name: String) -> String { authcat.root.appendingPathComponent(name).path }

    private func contents(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    /// Temporary files authcat left in the test's folder.
    private func leftovers(in folder: String? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder ?? authcat.root.path).filter { $0.hasSuffix(".tmp") }
    }

    private func fileType(_ name: String) throws -> FileAttributeType? {
        try FileManager.default.attributesOfItem(atPath: path(name))[.type] as? FileAttributeType
    }

    // MARK: - Regular files

    func testAnExistingFileIsReplacedOnlyWithForceAndAtomically() throws {
        let file = path("export.txt")
        XCTAssertEqual(
            try succeed(["export", "--format", "otpauth", "--output", file]),
            "exported \(accounts) to \(file) (otpauth)\n")
        XCTAssertEqual(try contents("export.txt"), expected)
        XCTAssertEqual(SecureFileMode.of(file), 0o600)

        try "keep me\n".write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o644)
        assertOneLineError(
            try authcat.run(["export", "--format", "otpauth", "--output", file]),
            containing: "\(file) already exists; add --force to replace it", status: 1)
        XCTAssertEqual(try contents("export.txt"), "keep me\n", "refused without --force: untouched")

        let inode = try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int
        XCTAssertEqual(
            try succeed(["export", "--format", "otpauth", "--output", file, "--force"]),
            "exported \(accounts) to \(file) (otpauth)\n")
        XCTAssertEqual(try contents("export.txt"), expected)
        XCTAssertEqual(SecureFileMode.of(file), 0o600, "the new file is the user's alone, whatever the old one's mode")
        XCTAssertNotEqual(
            try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int, inode,
            "a new file renamed into place, not the old one rewritten")
        XCTAssertEqual(try leftovers(), [])

        assertOneLineError(
            try authcat.run(["export", "--format", "otpauth", "--stdout", "--force"]),
            containing: "--force replaces an existing --output file", status: 64)
    }

    func testBackupFollowsTheSameRule() throws {
        let file = path("vault.authcat")
        try succeed(["backup", "--output", file, "--kdf", "interactive"], environment: passphrase)
        let first = try Data(contentsOf: URL(fileURLWithPath: file))
        assertOneLineError(
            try authcat.run(["backup", "--output", file, "--kdf", "interactive"], environment: passphrase),
            containing: "already exists; add --force", status: 1)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), first)
        try succeed(["backup", "--output", file, "--kdf", "interactive", "--force"], environment: passphrase)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: file)), first, "a new backup, with a new salt")
        XCTAssertTrue(
            try succeed(["backup", "--verify", file], environment: passphrase).contains("valid backup of \(accounts)"))
        XCTAssertEqual(try leftovers(), [])
        assertOneLineError(
            try authcat.run(["backup", "--verify", file, "--force"], environment: passphrase),
            containing: "leave --output, --with-history and --force out", status: 64)
    }

    // MARK: - Symbolic links

    func testASymbolicLinkIsFollowedAndKept() throws {
        try FileManager.default.createDirectory(atPath: path("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: path("link.txt"), withDestinationPath: "real/target.txt")

        // A dangling link: its target is created, the link stays a link.
        try succeed(["export", "--format", "otpauth", "--output", path("link.txt")])
        XCTAssertEqual(try fileType("link.txt"), .typeSymbolicLink)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.txt")), "real/target.txt")
        XCTAssertEqual(try contents("real/target.txt"), expected)

        // Its target now exists: the same rule as for the file itself.
        try "old\n".write(toFile: path("real/target.txt"), atomically: false, encoding: .utf8)
        assertOneLineError(
            try authcat.run(["export", "--format", "otpauth", "--output", path("link.txt")]),
            containing: "already exists; add --force", status: 1)
        XCTAssertEqual(try contents("real/target.txt"), "old\n")
        try succeed(["export", "--format", "otpauth", "--output", path("link.txt"), "--force"])
        XCTAssertEqual(try fileType("link.txt"), .typeSymbolicLink)
        XCTAssertEqual(try contents("real/target.txt"), expected)
        XCTAssertEqual(try leftovers(), [])
        XCTAssertEqual(try leftovers(in: path("real")), [])

        // A link to a link to a FIFO is written through to the FIFO's reader.
        let result = try authcat.shell(
            """
            mkfifo real/fifo
            ln -s real/fifo link-to-fifo
            ln -s link-to-fifo link-to-link
            timeout 20 cat real/fifo > received 2> /dev/null &
            reader=$!
            authcat export --format otpauth --output link-to-link
            wait $reader
            test -p real/fifo && test -L link-to-fifo && test -L link-to-link
            """)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try contents("received"), expected)

        try FileManager.default.createSymbolicLink(atPath: path("loop-a"), withDestinationPath: "loop-b")
        try FileManager.default.createSymbolicLink(atPath: path("loop-b"), withDestinationPath: "loop-a")
        assertOneLineError(
            try authcat.run(["export", "--format", "otpauth", "--output", path("loop-a")]),
            containing: "too many levels of symbolic links", status: 1)
    }

    // MARK: - Written through

    func testAFIFOIsWrittenThroughToItsReader() throws {
        let result = try authcat.shell(
            """
            mkfifo export.fifo backup.fifo
            timeout 20 cat export.fifo > exported 2> /dev/null &
            reader=$!
            authcat export --format otpauth --output export.fifo
            wait $reader
            timeout 20 cat backup.fifo > backed-up 2> /dev/null &
            reader=$!
            authcat backup --kdf interactive --output backup.fifo
            wait $reader
            test -p export.fifo && test -p backup.fifo
            """, environment: passphrase)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try contents("exported"), expected)
        XCTAssertTrue(
            try succeed(["backup", "--verify", path("backed-up")], environment: passphrase).contains(
                "valid backup of \(accounts)"))
        XCTAssertEqual(try leftovers(), [])
    }

    func testDevStdoutIsWrittenThroughAndTheSummaryMovesToStandardError() throws {
        let result = try authcat.shell(
            """
            authcat export --format otpauth --output /dev/stdout > piped 2> piped-summary < /dev/null
            authcat export --format otpauth --output /dev/stdout | cat > through-cat
            echo first > appended
            authcat export --format otpauth --output /dev/stdout >> appended 2> /dev/null
            authcat backup --kdf interactive --output /dev/stdout > backup-via-stdout 2> backup-summary
            test -L /dev/stdout && test -c /dev/null
            """, environment: passphrase)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try contents("piped"), expected)
        XCTAssertEqual(try contents("piped-summary"), "exported \(accounts) to /dev/stdout (otpauth)\n")
        XCTAssertEqual(try contents("through-cat"), expected)
        XCTAssertEqual(
            try contents("appended"), "first\n" + expected, "written at the descriptor's offset: appended, not replaced"
        )
        XCTAssertTrue(try contents("backup-summary").hasPrefix("backed up \(accounts)"))
        XCTAssertTrue(
            try succeed(["backup", "--verify", path("backup-via-stdout")], environment: passphrase)
                .contains("valid backup of \(accounts)"))
    }

    func testABackupIsNotWrittenToATerminalThroughDevStdoutEither() throws {
        let result = try authcat.runInTerminal(
            ["backup", "--kdf", "interactive", "--output", "/dev/stdout"], environment: passphrase)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("refusing to write a binary backup to the terminal"), result.stdout)
        XCTAssertFalse(result.stdout.contains("AUTHCATB"), "no backup bytes on the terminal")
    }

    func testDevFdFromAPipeAndProcessSubstitution() throws {
        let result = try authcat.shell(
            """
            authcat export --format otpauth --output /dev/fd/3 3>&1 > /dev/null | cat > from-fd3
            authcat export --format otpauth --output >(cat > from-substitution)
            wait $!
            authcat export --format otpauth --output /proc/self/fd/4 4> from-proc-self
            authcat backup --kdf interactive --output >(wc -c > backup-size)
            wait $!
            """, environment: passphrase)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try contents("from-fd3"), expected)
        XCTAssertEqual(try contents("from-substitution"), expected)
        XCTAssertEqual(try contents("from-proc-self"), expected)
        XCTAssertGreaterThan(Int(try contents("backup-size").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 100)

        // A process of its own: in this one, descriptor 9 may well be open.
        assertOneLineError(
            try authcat.runAsProcess(["export", "--format", "otpauth", "--output", "/dev/fd/9"]),
            containing: "descriptor 9 is not open", status: 1)
        let readOnly = try authcat.shell("authcat export --format otpauth --output /dev/fd/5 5< /dev/null")
        assertOneLineError(readOnly, containing: "descriptor 5 is not open for writing", status: 1)
    }

    func testACharacterDeviceIsWrittenThroughNotReplaced() throws {
        XCTAssertEqual(
            try succeed(["export", "--format", "otpauth", "--output", "/dev/null"]),
            "exported \(accounts) to /dev/null (otpauth)\n")
        var info = stat()
        XCTAssertEqual(stat("/dev/null", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR)
        XCTAssertEqual(try leftovers(in: "/dev"), [])
        let full = try authcat.run(["export", "--format", "otpauth", "--output", "/dev/full"])
        assertOneLineError(full, containing: "cannot write /dev/full: no space left", status: 1)
    }

    // MARK: - Refused

    func testAFolderASocketAndABlockDeviceAreRefusedAndKept() throws {
        try FileManager.default.createDirectory(atPath: path("folder"), withIntermediateDirectories: false)
        for target in [path("folder"), path("folder") + "/", authcat.root.path] {
            assertOneLineError(
                try authcat.run(["export", "--format", "otpauth", "--output", target, "--force"]),
                containing: "it is a folder, which authcat never replaces", status: 1)
        }
        XCTAssertEqual(try fileType("folder"), .typeDirectory)

        try bindSocket(at: path("socket"))
        assertOneLineError(
            try authcat.run(["export", "--format", "otpauth", "--output", path("socket"), "--force"]),
            containing: "it is a socket", status: 1)
        assertOneLineError(
            try authcat.run(
                ["backup", "--kdf", "interactive", "--output", path("socket"), "--force"],
                environment: passphrase), containing: "it is a socket", status: 1)
        XCTAssertEqual(try fileType("socket"), .typeSocket)

        // A device node that leads nowhere (no such loop device): only its kind matters, and it is never opened.
        if exitStatus("/usr/bin/mknod", ["-m", "600", path("block"), "b", "7", "250"]) == 0 {
            assertOneLineError(
                try authcat.run(["export", "--format", "otpauth", "--output", path("block"), "--force"]),
                containing: "it is a block device", status: 1)
            XCTAssertEqual(try fileType("block"), .typeBlockSpecial)
        }
        XCTAssertEqual(try leftovers(), [])
        assertOneLineError(
            try authcat.run(["export", "--format", "json", "--output", "/nonexistent-dir/x.json"]),
            containing: "cannot write /nonexistent-dir/x.json: the folder /nonexistent-dir does not exist", status: 1)
    }

    // MARK: - A full disk

    func testAFullDiskLeavesTheOldFileAndNoTemporaryFile() throws {
        let disk = path("small-disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        guard getuid() == 0, exitStatus("/bin/mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", disk]) == 0 else {
            throw XCTSkip("mounting a small tmpfs needs root")
        }
        defer { _ = exitStatus("/bin/umount", [disk]) }
        let keep = disk + "/keep.txt"
        let new = disk + "/new.txt"
        try "old\n".write(toFile: keep, atomically: false, encoding: .utf8)
        // Fill what is left, a page at a time: tmpfs counts whole pages.
        _ = exitStatus("/bin/dd", ["if=/dev/zero", "of=\(disk)/filler", "bs=4096"])

        let replaced = try authcat.run(["export", "--format", "otpauth", "--output", keep, "--force"])
        assertOneLineError(
            replaced, containing: "cannot write \(keep): the disk is full (the file was left as it was)", status: 1)
        XCTAssertEqual(try String(contentsOfFile: keep, encoding: .utf8), "old\n")
        let created = try authcat.run(["export", "--format", "otpauth", "--output", new])
        assertOneLineError(created, containing: "the disk is full (nothing was written)", status: 1)
        let backup = try authcat.run(["backup", "--kdf", "interactive", "--output", new], environment: passphrase)
        assertOneLineError(backup, containing: "the disk is full", status: 1)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: disk).sorted(), ["filler", "keep.txt"],
            "no temporary file, no new file")

        try FileManager.default.removeItem(atPath: disk + "/filler")
        try succeed(["export", "--format", "otpauth", "--output", keep, "--force"])
        XCTAssertEqual(try String(contentsOfFile: keep, encoding: .utf8), expected, "works again once there is space")
    }

    // MARK: - Helpers

    /// A listening-free Unix socket bound at `path`, as a server leaves one.
    private func bindSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw XCTSkip("path too long for a socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        XCTAssertEqual(bound, 0, String(cString: strerror(errno)))
    }
}

/// `sync enable --recovery-key-file` follows the same rule, except that an
/// existing regular file is never replaced.
final class RecoveryKeyFileDestinationTests: SyncTestCase {
    func testTheRecoveryKeyGoesThroughAFIFOAndALink() throws {
        let device = try makeDevice()
        let script = """
            cd '\(scratch.path)'
            mkfifo key.fifo
            ln -s key.fifo key.link
            timeout 20 cat key.fifo > received 2> /dev/null &
            reader=$!
            authcat sync enable --remote '\(remoteURL)' --recovery-key-file key.link
            wait $reader
            test -p key.fifo && test -L key.link
            """
        let result = try device.shell(script)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("the recovery key was written to key.link"), result.stdout)
        let key = try String(contentsOf: scratch.appendingPathComponent("received"), encoding: .utf8)
        XCTAssertGreaterThan(key.trimmingCharacters(in: .whitespacesAndNewlines).count, 20)
        XCTAssertFalse(
            result.stdout.contains(key.trimmingCharacters(in: .whitespacesAndNewlines)), "written, not printed")
    }

    func testAFolderIsRefusedBeforeTheRemoteVaultIsMade() throws {
        let device = try makeDevice()
        let result = try device.run(["sync", "enable", "--remote", remoteURL, "--recovery-key-file", scratch.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("it is a folder, which authcat never replaces"), result.stderr)
        XCTAssertEqual(remoteFiles(), [], "refused before the remote vault was made")
    }
}
