import AuthCatCore
import AuthCatEssentials
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A path the user named for a command's output (`export --output`,
/// `backup --output`, `sync enable --recovery-key-file`), written as what it is.
///
/// The one rule for every such path:
/// - a new path, or an existing regular file when replacing is allowed, gets a
///   0600 temporary file beside it, flushed to disk and renamed into place:
///   readers see the old file or the new one, and a failure (a full disk)
///   leaves the old file as it was and no temporary file;
/// - a symbolic link is followed, and its target is written by this same rule;
/// - a symbolic link, FIFO or file another user could have planted (one of
///   theirs in a folder others can write, such as `/tmp`) is refused, every
///   hop judged where it stands (`NamedPath`);
/// - a FIFO or a character device is opened for writing and written straight
///   through: nothing is created, truncated or renamed;
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` name a
///   descriptor this process already holds (a shell redirection or `>(…)`);
///   the bytes go to that descriptor, at its offset;
/// - anything else (a folder, a socket, a block device) is refused.
///
/// So nothing that is not a regular file is ever replaced. Resolve the
/// destination before the expensive work, so that a bad path fails first.
public struct OutputDestination: Sendable {
    public enum Kind: Equatable, Sendable {
        /// Nothing is there yet: created by an atomic rename.
        case newFile
        /// A regular file, replaced by an atomic rename.
        case regularFile
        /// A FIFO or a character device, written through.
        case stream
        /// A descriptor this process holds, written through.
        case descriptor(Int32)
    }

    /// The path as the user gave it, for messages.
    public let path: String
    /// Where the bytes go once symbolic links are followed.
    public let target: String
    public let kind: Kind
    /// Whether an existing regular file may be replaced (`--force`).
    public let replacing: Bool
    /// The descriptors that stand for standard input, output and error.
    public let standard: StandardDescriptors
    /// The existing file the path led to when it was judged (`NamedPath`).
    private let checked: NamedPath.Node?

    /// Decides what `path` is and whether it may be written.
    /// - Parameter standard: what descriptors 0, 1 and 2 (`/dev/stdout`,
    ///   `/dev/fd/2`…) stand for: the process's own, or those of a command
    ///   line run inside another program.
    /// - Throws: `OutputDestinationError` for a folder, socket or block device,
    ///   an existing regular file when `replacing` is false, a missing folder,
    ///   a descriptor that is not open for writing, or a loop of links;
    ///   `PlantedPathError` for what another user could have planted.
    public init(_ path: String, replacing: Bool, standard: StandardDescriptors = .ofThisProcess) throws {
        self.path = path
        self.replacing = replacing
        self.standard = standard
        (target, kind, checked) = try Self.resolve(path, replacing: replacing, standard: standard)
    }

    /// Whether the bytes would land on standard output, where a command must
    /// then print nothing else.
    public var isStandardOutput: Bool {
        var output = stat()
        guard fstat(standard.output, &output) == 0 else { return false }
        var info = stat()
        switch kind {
        case .descriptor(let fd): guard fstat(fd, &info) == 0 else { return false }
        case .stream: guard stat(target, &info) == 0 else { return false }
        case .newFile, .regularFile: return false
        }
        return info.st_dev == output.st_dev && info.st_ino == output.st_ino
    }

    /// Whether the bytes would go to a terminal (a descriptor the shell connected to one).
    public var isTerminal: Bool {
        if case .descriptor(let fd) = kind { return isatty(fd) == 1 }
        return false
    }

    /// Writes `data` by the rule above.
    public func write(_ data: Data) throws {
        switch kind {
        case .newFile, .regularFile: try writeAtomically(data)
        case .stream: try writeThrough(data)
        case .descriptor(let fd): try writeAll(data, to: fd, atomic: false)
        }
    }

    // MARK: - Deciding

    private static func resolve(
        _ path: String, replacing: Bool,
        standard: StandardDescriptors
    ) throws -> (String, Kind, NamedPath.Node?) {
        guard !path.isEmpty else { throw OutputDestinationError.cannotWrite(path, reason: "the path is empty") }
        if path.hasSuffix("/") {
            throw isFolder(path)
                ? OutputDestinationError.refused(path, what: "a folder")
                : OutputDestinationError.cannotWrite(path, reason: "a file name cannot end with /")
        }
        let destination: NamedPath.Destination
        do {
            destination = try NamedPath.walk(path)
        } catch let failure as NamedPath.Failure {
            let reason = failure.code == ELOOP ? "too many levels of symbolic links" : describe(failure.code)
            throw OutputDestinationError.cannotWrite(
                path, reason: failure.folder.map { "the folder \($0) \(reason)" } ?? reason)
        }
        switch destination {
        case .descriptor(let fd):
            return ("/dev/fd/\(fd)", try checkDescriptor(standard.standing(for: fd), path: path), nil)
        case .missing(let folder, let name):
            guard access(folder, W_OK) == 0 else {
                throw OutputDestinationError.cannotWrite(path, reason: "the folder \(folder) \(describe(errno))")
            }
            return (folder == "/" ? "/\(name)" : "\(folder)/\(name)", .newFile, nil)
        case .existing(let node):
            switch node.type {
            case S_IFREG:
                guard replacing else { throw OutputDestinationError.exists(path) }
                return (node.path, .regularFile, node)
            case S_IFIFO, S_IFCHR: return (node.path, .stream, node)
            case S_IFDIR: throw OutputDestinationError.refused(path, what: "a folder")
            case S_IFSOCK: throw OutputDestinationError.refused(path, what: "a socket")
            case S_IFBLK: throw OutputDestinationError.refused(path, what: "a block device")
            default: throw OutputDestinationError.refused(path, what: "not a regular file")
            }
        }
    }

    private static func checkDescriptor(_ fd: Int32, path: String) throws -> Kind {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw OutputDestinationError.cannotWrite(path, reason: "descriptor \(fd) is not open")
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw OutputDestinationError.refused(path, what: "a folder") }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, flags & O_ACCMODE != O_RDONLY else {
            throw OutputDestinationError.cannotWrite(path, reason: "descriptor \(fd) is not open for writing")
        }
        return .descriptor(fd)
    }

    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: "does not exist"
        case ENOTDIR: "is not a folder"
        case EACCES, EPERM: "is not writable by you"
        case EROFS: "is on a read-only file system"
        default: String(cString: strerror(code))
        }
    }

    // MARK: - Writing

    private var folder: String { Self.split(target).folder }

    /// A 0600 temporary file beside the target, renamed into place.
    private func writeAtomically(_ data: Data) throws {
        let name = Self.split(target).name
        let temporary = "\(folder)/.\(name).\(UUID().uuidString).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, SecureFile.fileMode)
        guard fd >= 0 else { throw failure(errno, atomic: true) }
        var isOpen = true
        do {
            try writeAll(data, to: fd, atomic: true)
            guard fsync(fd) == 0 else { throw failure(errno, atomic: true) }
            isOpen = false
            // close reports a deferred write error on some file systems (NFS).
            guard close(fd) == 0 else { throw failure(errno, atomic: true) }
        } catch {
            if isOpen { close(fd) }
            unlink(temporary)
            throw error
        }
        do {
            try place(temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            // Makes the rename durable; the file is in place either way.
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// Moves the finished temporary file to the target. Without `replacing`,
    /// `link` puts it there only if the name is still free, in one step.
    private func place(_ temporary: String) throws {
        var info = stat()
        if lstat(target, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                // Something else appeared since the path was resolved; never replace it.
                throw OutputDestinationError.refused(path, what: "no longer a regular file")
            }
            guard replacing else { throw OutputDestinationError.exists(path) }
        }
        if replacing {
            guard rename(temporary, target) == 0 else { throw failure(errno, atomic: true) }
            return
        }
        if link(temporary, target) == 0 {
            unlink(temporary)
            return
        }
        switch errno {
        case EEXIST: throw OutputDestinationError.exists(path)
        case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS:
            // A file system without hard links (FAT, some FUSE): claim the
            // name with O_EXCL, then rename over the claimed, empty file.
            let claim = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, SecureFile.fileMode)
            guard claim >= 0 else {
                throw errno == EEXIST ? OutputDestinationError.exists(path) : failure(errno, atomic: true)
            }
            close(claim)
            guard rename(temporary, target) == 0 else {
                let code = errno
                unlink(target)
                throw failure(code, atomic: true)
            }
        default:
            throw failure(errno, atomic: true)
        }
    }

    /// Opens a FIFO or device for writing, without creating or truncating it,
    /// and writes only if it is the very file that was judged. Opening a
    /// FIFO waits for its reader, as the user who named it expects; a FIFO
    /// swapped in meanwhile is caught by the check before a byte is written.
    private func writeThrough(_ data: Data) throws {
        let fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ELOOP { throw SwappedPathError(path: path) }
            throw failure(errno, atomic: false)
        }
        defer { close(fd) }
        guard let checked, checked.isSame(as: fd) else { throw SwappedPathError(path: path) }
        try writeAll(data, to: fd, atomic: false)
    }

    private func writeAll(_ data: Data, to fd: Int32, atomic: Bool) throws {
        try data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, base.advanced(by: offset), buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure(errno, atomic: atomic)
                }
                offset += written
            }
        }
    }

    private func failure(_ code: Int32, atomic: Bool) -> OutputDestinationError {
        switch code {
        case ENOSPC, EDQUOT:
            atomic ? .diskFull(path, existed: kind == .regularFile) : .cannotWrite(path, reason: "no space left")
        case EPIPE: .cannotWrite(path, reason: "its reader closed it before everything was written")
        default: .cannotWrite(path, reason: Self.describe(code))
        }
    }
}

/// The descriptors that are standard input, output and error where a command
/// runs: 0, 1 and 2 in a process of its own.
public struct StandardDescriptors: Sendable {
    public var input: Int32
    public var output: Int32
    public var error: Int32

    public init(input: Int32, output: Int32, error: Int32) {
        self.input = input
        self.output = output
        self.error = error
    }

    public static let ofThisProcess = StandardDescriptors(
        input: STDIN_FILENO, output: STDOUT_FILENO, error: STDERR_FILENO)

    /// The descriptor that descriptor `fd` of a process of its own would be.
    public func standing(for fd: Int32) -> Int32 {
        switch fd {
        case STDIN_FILENO: input
        case STDOUT_FILENO: output
        case STDERR_FILENO: error
        default: fd
        }
    }
}
