import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FolderFileSystem {
    /// An open folder of the remote's tree; every name given to it is one
    /// component, looked up in this folder only, never through a link.
    final class Folder {
        /// The folder's path, for messages only: nothing is opened by it.
        let path: String
        private let fd: Int32

        private init(fd: Int32, path: String) {
            self.fd = fd
            self.path = path
        }

        deinit { close(fd) }

        /// The remote's root folder, links followed; `nil` if there is no folder at `path`.
        static func root(_ path: String) throws -> Folder? {
            let fd = retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            if fd < 0 {
                if errno == ENOENT || errno == ENOTDIR { return nil }
                throw failure("open", path)
            }
            return Folder(fd: fd, path: path)
        }

        /// The subfolder `name`; `nil` if there is none.
        ///
        /// - Throws: `RemoteError.io` if a link, or anything but a folder, is there.
        func child(_ name: String) throws -> Folder? {
            let fd = retrying { openat(self.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            if fd >= 0 { return Folder(fd: fd, path: pathOf(name)) }
            switch errno {
            case ENOENT: return nil
            case ELOOP, ENOTDIR: throw RemoteError.io(path: pathOf(name), operation: "open", reason: linkRefusal)
            default: throw failure("open", pathOf(name))
            }
        }

        /// The subfolder `name`, made with mode 0700 (and flushed into this folder) if absent.
        func makeChild(_ name: String) throws -> Folder {
            let created = mkdirat(fd, name, 0o700) == 0
            if !created, errno != EEXIST { throw failure("create folder", pathOf(name)) }
            guard let child = try child(name) else { throw failure("open", pathOf(name)) }
            if created {
                // The mode given to mkdir() is reduced by the umask; set it exactly.
                if fchmod(child.fd, 0o700) != 0 { throw failure("set permissions of", child.path) }
                try sync()
            }
            return child
        }

        /// What is at `name`, a link itself rather than what it points to; `nil` if nothing is.
        func status(_ name: String) throws -> stat? {
            var info = stat()
            if fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 { return info }
            if errno == ENOENT { return nil }
            throw failure("inspect", pathOf(name))
        }

        /// The bytes of the plain file `name`, at most `limit` and at most its size when opened; `nil` if absent.
        ///
        /// - Throws: `RemoteError.objectRefused` (as `objectName`) for a link,
        ///   a FIFO, a device or anything else that is not a plain file, for a
        ///   file over `limit`, and for one that grows while it is read.
        func readFile(_ name: String, limit: Int, objectName: String) throws -> Data? {
            // A folder is not an object, as in a listing.
            guard let before = try status(name), before.st_mode & S_IFMT != S_IFDIR else { return nil }
            try Self.requirePlainFile(before, limit: limit, objectName: objectName)
            // O_NONBLOCK: a FIFO swapped in after the check opens at once instead of waiting for a writer.
            let fd = retrying { openat(self.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
            if fd < 0 {
                if errno == ENOENT { return nil }
                if errno == ELOOP { throw RemoteError.objectRefused(name: objectName, reason: "it is a link") }
                throw failure("open", pathOf(name))
            }
            defer { close(fd) }
            var info = stat()
            if fstat(fd, &info) != 0 { throw failure("inspect", pathOf(name)) }
            try Self.requirePlainFile(info, limit: limit, objectName: objectName)
            return try readBytes(fd, size: Int(info.st_size), name: name, objectName: objectName)
        }

        private static func requirePlainFile(_ info: stat, limit: Int, objectName: String) throws {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw RemoteError.objectRefused(
                    name: objectName, reason: "it is \(describe(info.st_mode)), not a plain file")
            }
            guard info.st_size >= 0, info.st_size <= limit else {
                throw RemoteError.objectRefused(
                    name: objectName, reason: "its \(info.st_size) bytes are more than the \(limit) bytes allowed")
            }
        }

        /// Reads `size` bytes, and one more to see whether the file grew meanwhile.
        private func readBytes(_ fd: Int32, size: Int, name: String, objectName: String) throws -> Data {
            var data = Data(count: size + 1)
            let total = try data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) -> Int in
                var offset = 0
                while offset < buffer.count {
                    let count = retrying { read(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset) }
                    if count < 0 { throw failure("read", pathOf(name)) }
                    if count == 0 { break }
                    offset += count
                }
                return offset
            }
            guard total <= size else {
                throw RemoteError.objectRefused(name: objectName, reason: "it grew while it was read")
            }
            return data.prefix(total)
        }

        /// Writes `data` to a new hidden file in this folder, flushed to disk, mode 0600.
        ///
        /// - Returns: the temporary file's name; the caller renames or links it into place.
        func writeTemporary(_ data: Data) throws -> String {
            let name = FolderRemote.temporaryPrefix + randomSuffix()
            let fd = retrying { openat(self.fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
            if fd < 0 { throw failure("create", pathOf(name)) }
            do {
                defer { close(fd) }
                // The mode given to open() is reduced by the umask; set it exactly.
                if fchmod(fd, 0o600) != 0 { throw failure("set permissions of", pathOf(name)) }
                try writeAll(data, to: fd, name: name)
                if retrying({ fsync(fd) }) != 0 { throw failure("flush", pathOf(name)) }
            } catch {
                unlinkat(self.fd, name, 0)
                throw error
            }
            return name
        }

        private func writeAll(_ data: Data, to fd: Int32, name: String) throws {
            try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < bytes.count {
                    let written = retrying { write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset) }
                    if written < 0 { throw failure("write", pathOf(name)) }
                    offset += written
                }
            }
        }

        /// Atomically replaces `target` with `source`, both in this folder; a link at `target` is replaced, not followed.
        func rename(_ source: String, to target: String) throws {
            if renameat(fd, source, fd, target) != 0 { throw failure("rename into", pathOf(target)) }
        }

        /// Gives `source`'s file the additional name `target`, unless `target` exists (even as a link).
        ///
        /// - Returns: `false` if `target` already existed, `nil` if the file system
        ///   has no hard links (FAT, some network and FUSE file systems).
        func linkIfAbsent(_ source: String, to target: String) throws -> Bool? {
            if linkat(fd, source, fd, target, 0) == 0 { return true }
            switch errno {
            case EEXIST: return false
            case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS: return nil
            default: throw failure("link into", pathOf(target))
            }
        }

        /// Removes the name `name` from this folder (a link itself, never its target); a missing name is not an error.
        func remove(_ name: String) throws {
            if unlinkat(fd, name, 0) != 0, errno != ENOENT { throw failure("delete", pathOf(name)) }
        }

        /// Removes the folder `name` in this folder if it is empty; whether it did.
        /// A folder that is not empty, or already gone, stays as it is.
        @discardableResult
        func removeIfEmpty(_ name: String) -> Bool {
            unlinkat(fd, name, AT_REMOVEDIR) == 0
        }

        /// Flushes this folder so that renames and new names in it survive a crash.
        func sync() throws {
            try syncDescriptor(fd, path: path)
        }

        /// The entries of this folder, without `.` and `..`, each described without following links.
        ///
        /// - Throws: `RemoteError.io` once more than `limit` entries were read,
        ///   rather than holding a listing without end.
        func entries(limit: Int) throws -> [Entry] {
            let copy = dup(fd)
            guard copy >= 0, let stream = fdopendir(copy) else {
                if copy >= 0 { close(copy) }
                throw failure("list", path)
            }
            defer { closedir(stream) }
            rewinddir(stream)
            var entries: [Entry] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                guard entries.count < limit else {
                    throw RemoteError.io(path: path, operation: "list", reason: "it holds more than \(limit) entries")
                }
                // d_type is DT_UNKNOWN on some file systems, so ask fstatat.
                guard let info = try status(name) else { continue }
                entries.append(Self.entry(name, info))
            }
            return entries
        }

        private static func entry(_ name: String, _ info: stat) -> Entry {
            let type = info.st_mode & S_IFMT
            let version =
                "\(info.st_ino)-\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            let modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
            return Entry(
                name: name, isDirectory: type == S_IFDIR, isRegularFile: type == S_IFREG, size: Int(info.st_size),
                version: version, modified: modified)
        }

        private static func describe(_ mode: mode_t) -> String {
            switch mode & S_IFMT {
            case S_IFLNK: "a link"
            case S_IFDIR: "a folder"
            case S_IFIFO: "a FIFO"
            case S_IFSOCK: "a socket"
            case S_IFCHR, S_IFBLK: "a device"
            default: "a special file"
            }
        }

        func pathOf(_ name: String) -> String {
            path == "/" ? "/" + name : path + "/" + name
        }
    }
}
