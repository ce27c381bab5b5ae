#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

extension VaultLocation {
    /// Refuses a vault whose folder, or any entry in it, belongs to another
    /// user: as ssh's StrictModes, since the owner of the folder could swap
    /// `vault.key` or the database, and the owner of a file could rewrite it.
    /// Root may own them only when authcat runs as root. The one rule of both
    /// programs (the quick front through `checkPermissions`, the full program
    /// also when it opens or creates a vault); it costs one `opendir` and one
    /// `fstatat` per entry, the folder's own status read from its descriptor.
    /// A folder that does not exist yet passes: authcat creates it as yours.
    /// - Returns: the permission bits it read on the way, by path: the
    ///   folder's, and each entry's that is a file or a folder (a symbolic
    ///   link's own bits say nothing of what it points to), so that
    ///   `checkPermissions` need not read them again.
    /// - Throws: `VaultError.foreignOwner`.
    @discardableResult
    public func checkOwnership(userID: uid_t = geteuid()) throws -> [String: mode_t] {
        guard let listing = opendir(folderPath) else {
            var status = stat()
            // A folder that cannot be listed (say, another user's, mode 0711) is judged by its owner.
            if stat(folderPath, &status) == 0, status.st_uid != userID {
                throw VaultError.foreignOwner(folderPath, owner: status.st_uid, isFolder: true)
            }
            return [:]
        }
        defer { closedir(listing) }
        let descriptor = dirfd(listing)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return [:] }
        if status.st_uid != userID { throw VaultError.foreignOwner(folderPath, owner: status.st_uid, isFolder: true) }
        var modes = [folderPath: status.st_mode & 0o777]
        while let entry = readdir(listing) {
            guard let (name, status) = Self.status(of: entry, in: descriptor) else { continue }
            if status.st_uid != userID {
                throw VaultError.foreignOwner(path(of: name), owner: status.st_uid, isFolder: false)
            }
            let kind = status.st_mode & S_IFMT
            if kind == S_IFREG || kind == S_IFDIR { modes[path(of: name)] = status.st_mode & 0o777 }
        }
        return modes
    }

    /// The name of a folder entry and its own status (a link's, not its
    /// target's); nil for `.` and `..`, and for an entry gone meanwhile.
    private static func status(of entry: UnsafeMutablePointer<dirent>, in folder: Int32) -> (String, stat)? {
        withUnsafePointer(to: &entry.pointee.d_name) { name in
            name.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                name -> (String, stat)? in
                if name[0] == 0x2E, name[1] == 0 || (name[1] == 0x2E && name[2] == 0) { return nil }
                var status = stat()
                guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
                return (String(cString: name), status)
            }
        }
    }

    /// Refuses to create the vault folder where another user could move it
    /// away and put a folder of theirs in its place: under a folder (the
    /// nearest that exists) that belongs to another user, or that everyone
    /// can write without the sticky bit. `/tmp` (sticky) and folders of
    /// yours or root's are fine. Only for a folder that does not exist yet.
    /// - Throws: `VaultError.foreignParent`.
    public func checkParentForCreation(userID: uid_t = geteuid()) throws {
        var parent = folder.deletingLastPathComponent()
        var status = stat()
        while stat(parent.path, &status) != 0 {
            guard errno == ENOENT, parent.path != "/" else { return }
            parent = parent.deletingLastPathComponent()
        }
        let ownedByOther = status.st_uid != userID && status.st_uid != 0
        // World-writable only: a folder of yours that your group may write is
        // common (umask 002 with a group of your own) and stays usable.
        // 0o1000, the sticky bit: only an entry's owner may then rename it.
        let othersMayRename = status.st_mode & 0o002 != 0 && status.st_mode & 0o1000 == 0
        if ownedByOther || othersMayRename { throw VaultError.foreignParent(parent.path, owner: status.st_uid) }
    }
}
