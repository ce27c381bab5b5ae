import Foundation

/// A password store of pass or gopass: a tree of folders whose files each
/// hold one entry encrypted to the user's key (`.gpg` for GnuPG, `.age` for
/// age), named by its path without the extension (`github.com/alice`).
///
/// The store is read as found, without following a symbolic link (a link is
/// counted and left out, so nothing outside the store is read) and without
/// entering a hidden folder (`.git`, `.public-keys`); every count, depth and
/// size is bounded while the folders are read. Decrypting the entries is the
/// caller's: it runs the user's own gpg or age, which no library may.
public struct PassStore: Sendable {
    /// One encrypted entry of the store.
    public struct File: Sendable {
        /// Its path in the store without the extension, such as `github.com/alice`.
        public let name: String
        public let encryption: Encryption
        /// The encrypted bytes; empty when `tooLarge`.
        public let contents: Data
        /// Larger than `maximumFileSize`, so not read.
        public let tooLarge: Bool

        /// The path in the store, as the user sees it in the folder.
        public var path: String { "\(name).\(encryption.rawValue)" }
    }

    /// What encrypts an entry: its file name's extension.
    public enum Encryption: String, Sendable {
        case gpg
        case age
    }

    /// An entry the user's program could not decrypt (no key, a cancelled
    /// passphrase): the entry is rejected with `reason`, the others read on.
    public struct DecryptionFailure: Error {
        public var reason: String

        public init(reason: String) {
            self.reason = reason
        }
    }

    /// The encrypted entries, in path order.
    public private(set) var files: [File] = []
    /// Symbolic links left out.
    public private(set) var skippedLinks = 0

    /// Far more entries than anyone keeps; each is decrypted by a program of its own.
    public static let maximumFiles = 10_000
    /// Names of any kind read in all folders, so a folder of junk is refused before it is read whole.
    public static let maximumNames = 100_000
    /// pass nests a site and a user in a folder or two; room for much deeper trees.
    public static let maximumDepth = 32
    /// An entry is a few lines; gopass may keep a small file as an entry.
    public static let maximumFileSize = 1 << 20

    private var namesRead = 0

    /// Whether `folder` is marked as a store: pass writes `.gpg-id` at its
    /// root, gopass with age `.age-recipients`.
    public static func isMarked(_ folder: String) -> Bool {
        [".gpg-id", ".age-recipients"].contains { access("\(folder)/\($0)", F_OK) == 0 }
    }

    /// Reads the store at `folder` (a link naming the folder itself is followed: the user named it).
    /// - Throws: `ImportError.malformed` when the folder cannot be read or passes a bound.
    public init(folder: String) throws {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.unreadable(folder, errno) }
        try read(fd, prefix: "", depth: 0)
        files.sort { $0.name < $1.name }
    }

    /// Reads the folder open at `fd` (and closes it), whose entries are named `prefix` + their name.
    private mutating func read(_ fd: Int32, prefix: String, depth: Int) throws {
        guard let folder = fdopendir(fd) else {
            let code = errno
            close(fd)
            throw Self.unreadable(prefix, code)
        }
        defer { closedir(folder) }
        for name in try names(in: folder) where !name.hasPrefix(".") {
            var status = stat()
            guard fstatat(fd, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFLNK:
                skippedLinks += 1
            case S_IFDIR:
                guard depth < Self.maximumDepth else {
                    throw ImportError.malformed(.pass, "its folders nest more than \(Self.maximumDepth) deep")
                }
                let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { throw Self.unreadable(prefix + name, errno) }
                try read(child, prefix: prefix + name + "/", depth: depth + 1)
            case S_IFREG:
                guard let encryption = Self.encryption(of: name) else { continue }
                guard files.count < Self.maximumFiles else {
                    throw ImportError.malformed(.pass, "it holds more than \(Self.maximumFiles) entries")
                }
                let entryName = prefix + name.dropLast(encryption.rawValue.count + 1)
                files.append(try Self.file(named: name, in: fd, as: entryName, encryption))
            default:
                continue
            }
        }
    }

    /// The names in `folder`, at most as many as `maximumNames` leaves room for.
    private mutating func names(in folder: OpaquePointer) throws -> [String] {
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            namesRead += 1
            guard namesRead <= Self.maximumNames else {
                throw ImportError.malformed(.pass, "it holds more than \(Self.maximumNames) files and folders")
            }
            names.append(name)
        }
        return names.sorted()
    }

    private static func encryption(of name: String) -> Encryption? {
        [Encryption.gpg, .age].first { name.count > $0.rawValue.count + 1 && name.hasSuffix(".\($0.rawValue)") }
    }

    /// The entry `name` in the folder open at `folder`, read without following a link swapped in since.
    private static func file(
        named name: String, in folder: Int32, as entryName: String, _ encryption: Encryption
    )
        throws -> File
    {
        let fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw unreadable(entryName, errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw unreadable(entryName, errno)
        }
        guard Int(status.st_size) <= maximumFileSize else {
            return File(name: entryName, encryption: encryption, contents: Data(), tooLarge: true)
        }
        var bytes = [UInt8](repeating: 0, count: maximumFileSize + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + count, $0.count - count) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw unreadable(entryName, errno) }
            if read == 0 { break }
            count += read
        }
        let tooLarge = count > maximumFileSize
        return File(
            name: entryName, encryption: encryption, contents: tooLarge ? Data() : Data(bytes[..<count]),
            tooLarge: tooLarge)
    }

    private static func unreadable(_ path: String, _ code: Int32) -> ImportError {
        let place = path.isEmpty ? "its folder" : path
        return .malformed(.pass, "\(place) cannot be read (\(String(cString: strerror(code)).lowercased()))")
    }
}
