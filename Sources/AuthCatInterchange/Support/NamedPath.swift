import AuthCatEssentials
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one walk of a path the user names for a secret to be read from or
/// written to (`export --output`, backups, recovery key files, passphrase
/// files, import files), shared by input (`InputPath`) and output
/// (`OutputDestination`).
///
/// authcat follows symbolic links itself, one component at a time, so that it
/// can judge each link before following it. The kernel's `protected_symlinks`
/// and `protected_fifos` cannot be relied on: they are often off, the first
/// never applies to a link read with `readlink`, and the second only to an
/// open that may create. The rule:
/// a symbolic link, a FIFO or any other existing file that belongs to another
/// user (neither you nor root), standing in a folder others can write (a
/// folder of another user, or one with write permission for its group or for
/// everyone, such as `/tmp`), is refused: another user could have planted it
/// there. Every hop is judged in the folder where it stands, and so is the
/// final target. What the walk found is checked again, with `fstat`, on the
/// descriptor that is finally opened (`isSame(as:)`).
public enum NamedPath {
    /// What a path leads to.
    public enum Destination: Equatable, Sendable {
        /// Descriptor N of this process (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`).
        case descriptor(Int32)
        /// Nothing is there yet; `folder` exists, with its links resolved.
        case missing(folder: String, name: String)
        /// Something that is not a symbolic link (a file, a FIFO, a device, a folder).
        case existing(Node)
    }

    /// An existing file that the walk judged, as it was then.
    public struct Node: Equatable, Sendable {
        public let folder: String
        public let name: String
        public let device: UInt64
        public let inode: UInt64
        /// `st_mode & S_IFMT`.
        public let type: mode_t
        public let owner: uid_t

        init(folder: String, name: String, status: stat) {
            self.folder = folder
            self.name = name
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            type = status.st_mode & S_IFMT
            owner = status.st_uid
        }

        /// The path with every link resolved.
        public var path: String { folder == "/" ? "/\(name)" : "\(folder)/\(name)" }

        /// Whether `fd` is this very file, of the same type and owner: what
        /// was opened is what was judged, not something put there since.
        public func isSame(as fd: Int32) -> Bool {
            var status = stat()
            guard fstat(fd, &status) == 0 else { return false }
            return Node(folder: folder, name: name, status: status) == self
        }
    }

    /// Why a path could not be walked (a missing folder, a loop of links),
    /// for the caller to word; a planted file is a `PlantedPathError` instead.
    public struct Failure: Error, Equatable {
        /// The `errno` value.
        public let code: Int32
        /// The folder that is missing or unusable, when that is the problem.
        public let folder: String?
    }

    /// Symbolic links followed before giving up, as the kernel's own limit.
    static let maximumLinks = 40

    /// Follows `path` to what it names, judging every link and the final file.
    /// - Parameter userID: who runs authcat (the effective user).
    /// - Throws: `PlantedPathError` for a link or file another user could
    ///   have planted; `Failure` when the path cannot be walked.
    public static func walk(_ path: String, userID: uid_t = geteuid()) throws -> Destination {
        guard !path.isEmpty else { throw Failure(code: ENOENT, folder: nil) }
        var walk = try Walk(path: path, userID: userID)
        return try walk.run()
    }

    /// One walk in progress: the real folder reached so far and the
    /// components still to walk, which a link's target is put in front of.
    private struct Walk {
        let path: String
        let userID: uid_t
        /// The folder reached, as components of a path without links.
        var folder: [String] = []
        /// The components still to walk, the next one last.
        var pending: [String]
        /// Whether the path (or the last link) ends with `/`.
        var mustBeFolder: Bool
        var links = 0

        init(path: String, userID: uid_t) throws {
            self.path = path
            self.userID = userID
            pending = components(path).reversed()
            mustBeFolder = path.hasSuffix("/")
            if !path.hasPrefix("/") {
                guard let current = currentFolder() else { throw Failure(code: errno, folder: ".") }
                folder = components(current)
            }
        }

        var folderPath: String { "/" + folder.joined(separator: "/") }

        mutating func run() throws -> Destination {
            while let name = pending.popLast() {
                if name == ".." {
                    // The folder has no links left in it, so its parent is the real one.
                    _ = folder.popLast()
                    continue
                }
                if let found = try step(name, isLast: pending.isEmpty) { return found }
            }
            // Only `/` (or `..` above it) is left: the root folder itself.
            var status = stat()
            guard lstat("/", &status) == 0 else { throw Failure(code: errno, folder: nil) }
            return .existing(Node(folder: "/", name: "", status: status))
        }

        /// Walks `name` in the folder reached: nil to go on, or what the path leads to.
        private mutating func step(_ name: String, isLast: Bool) throws -> Destination? {
            let folderPath = folderPath
            if isLast, !mustBeFolder, let number = DescriptorPath.number(folder: folderPath, name: name) {
                return .descriptor(number)
            }
            let node = folderPath == "/" ? "/\(name)" : "\(folderPath)/\(name)"
            var status = stat()
            guard lstat(node, &status) == 0 else {
                // A missing name that must be a folder (`x/`) is a missing folder, never a new file.
                if errno == ENOENT, isLast, !mustBeFolder { return .missing(folder: folderPath, name: name) }
                throw Failure(code: errno, folder: isLast && !mustBeFolder ? nil : node)
            }
            switch status.st_mode & S_IFMT {
            case S_IFLNK:
                try follow(node, status, in: folderPath, isLast: isLast)
                return nil
            case S_IFDIR where !isLast:
                folder.append(name)
                return nil
            case _ where !isLast:
                throw Failure(code: ENOTDIR, folder: node)
            default:
                try judge(status, at: node, in: folderPath, path: path, userID: userID)
                if mustBeFolder, status.st_mode & S_IFMT != S_IFDIR { throw Failure(code: ENOTDIR, folder: nil) }
                return .existing(Node(folder: folderPath, name: name, status: status))
            }
        }

        /// Judges the link at `link`, then puts its target in front of what is left.
        private mutating func follow(_ link: String, _ status: stat, in folderPath: String, isLast: Bool) throws {
            links += 1
            guard links <= maximumLinks else { throw Failure(code: ELOOP, folder: nil) }
            try judge(status, at: link, in: folderPath, path: path, userID: userID)
            guard let target = readLink(link), !target.isEmpty else {
                throw Failure(code: errno == 0 ? ENOENT : errno, folder: nil)
            }
            if target.hasPrefix("/") { folder = [] }
            if isLast, target.hasSuffix("/") { mustBeFolder = true }
            pending += components(target).reversed()
        }
    }

    /// Whether users other than `userID` (and root) can add, remove or
    /// rename entries in the folder described by `status`.
    public static func othersCanWrite(folder status: stat, userID: uid_t) -> Bool {
        let ownedByOther = status.st_uid != userID && status.st_uid != 0
        return ownedByOther || status.st_mode & 0o022 != 0
    }

    /// Refuses `status`, found at `node` in `folder`, when another user
    /// owns it and could have put it there.
    private static func judge(_ status: stat, at node: String, in folder: String, path: String, userID: uid_t) throws {
        guard status.st_uid != userID, status.st_uid != 0 else { return }
        var folderStatus = stat()
        guard stat(folder, &folderStatus) == 0, othersCanWrite(folder: folderStatus, userID: userID) else { return }
        throw PlantedPathError(
            path: path, node: node, kind: PlantedPathError.kind(of: status.st_mode), owner: status.st_uid,
            folder: folder)
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    private static func currentFolder() -> String? {
        guard let current = getcwd(nil, 0) else { return nil }
        defer { free(current) }
        return String(cString: current)
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        errno = 0
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The one rule for paths that name a descriptor of this process, for input
/// and output paths alike.
public enum DescriptorPath {
    /// `/proc/PID/fd/N` (what `/dev/fd/N`, `/dev/stdin`, `/dev/stdout` and
    /// `/proc/self/fd/N` lead to), or a thread's `/proc/PID/task/TID/fd/N`,
    /// names descriptor N of this process: the number, given the folder with
    /// its links resolved and the name in it; nil for any other path.
    /// Following that "link" would reach the file behind the descriptor and
    /// replace it, or reopen it at offset 0; the descriptor itself is what the
    /// shell set up.
    public static func number(folder: String, name: String) -> Int32? {
        let process = "/proc/\(getpid())"
        let isOwnFolder =
            folder == "\(process)/fd"
            || (folder.hasPrefix("\(process)/task/") && folder.hasSuffix("/fd"))
        guard isOwnFolder, !name.isEmpty, name.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int32(name)
    }
}
