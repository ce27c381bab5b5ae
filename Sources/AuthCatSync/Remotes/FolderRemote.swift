import Foundation

/// A remote in a local folder (`file:///path`): a Syncthing, Dropbox or NAS folder, a USB drive.
///
/// Each object is a file at `<root>/<name>`; `/` in a name makes subfolders.
/// Files are written to a hidden temporary file in the same folder, flushed,
/// and renamed into place, so a reader (or a file-sync tool) never sees a
/// partial object. Files are mode 0600 and folders 0700.
///
/// The root folder is created only by `prepare()`. Every other operation
/// throws `RemoteError.containerMissing` if it is absent, because a missing
/// root usually means a share or drive that is not mounted, and writing into
/// the empty mount point would silently fork the sync history.
///
/// Listing ignores hidden files (our temporary files, `.stfolder`,
/// `.dropbox.cache`), names that are not valid object names (Dropbox's
/// "conflicted copy" files, Syncthing's `~syncthing~` files) and conflict
/// copies that happen to look valid (`*.sync-conflict-*`).
public final class FolderRemote: Remote {
    /// The start of the names of our temporary files.
    static let temporaryPrefix = ".authcat-tmp-"

    /// The absolute path of the root folder, without a trailing `/`.
    public let rootPath: String

    /// A remote rooted at `path`, which must be absolute.
    ///
    /// - Throws: `RemoteError.invalidLocation` if `path` is relative or empty.
    public init(path: String) throws {
        guard path.hasPrefix("/") else {
            throw RemoteError.invalidLocation(location: path, reason: "the folder path must be absolute")
        }
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        rootPath = trimmed
    }

    public var displayLocation: String {
        URL(fileURLWithPath: rootPath, isDirectory: true).absoluteString
    }

    /// Creates the root folder (and missing parents) with mode 0700.
    public func prepare() async throws {
        var path = ""
        for component in rootPath.split(separator: "/") {
            let parent = path.isEmpty ? "/" : path
            path += "/" + component
            if try FolderFileSystem.makeDirectory(path) {
                try FolderFileSystem.syncDirectory(parent)
            }
        }
    }

    public func list(prefix: String) async throws -> [RemoteObject] {
        try RemoteObjectName.validatePrefix(prefix)
        try requireRoot()
        // Only the folder that the prefix's complete components name can hold matches.
        let start = prefix.range(of: "/", options: .backwards).map { String(prefix[..<$0.lowerBound]) } ?? ""
        var found: [RemoteObject] = []
        try collect(relative: start, prefix: prefix, into: &found)
        return found.sorted { $0.name < $1.name }
    }

    public func get(_ name: String) async throws -> Data? {
        try RemoteObjectName.validate(name)
        try requireRoot()
        let path = self.path(of: name)
        guard let info = try FolderFileSystem.status(path), info.st_mode & S_IFMT == S_IFREG else { return nil }
        return try FolderFileSystem.readFile(path)
    }

    public func put(_ name: String, data: Data) async throws {
        try RemoteObjectName.validate(name)
        try requireRoot()
        let directory = try makeParentFolders(of: name)
        let temporary = try FolderFileSystem.writeTemporary(data, in: directory)
        do {
            try FolderFileSystem.renameFile(temporary, to: path(of: name))
        } catch {
            try? FolderFileSystem.remove(temporary)
            throw error
        }
        try FolderFileSystem.syncDirectory(directory)
    }

    public func create(_ name: String, data: Data) async throws -> Bool {
        try RemoteObjectName.validate(name)
        try requireRoot()
        let directory = try makeParentFolders(of: name)
        let temporary = try FolderFileSystem.writeTemporary(data, in: directory)
        defer { try? FolderFileSystem.remove(temporary) }
        let target = path(of: name)
        // link() fails if the target exists, so it never overwrites, and the
        // target appears complete or not at all.
        if let created = try FolderFileSystem.linkIfAbsent(temporary, to: target) {
            if created { try FolderFileSystem.syncDirectory(directory) }
            return created
        }
        // Without hard links the best left is check-then-rename, which two
        // writers on this same folder could race; file-sync tools cannot
        // offer create-only across machines anyway.
        if try FolderFileSystem.status(target) != nil { return false }
        try FolderFileSystem.renameFile(temporary, to: target)
        try FolderFileSystem.syncDirectory(directory)
        return true
    }

    /// Removes our temporary files (hidden, so never listed) in the folder
    /// `prefix` names, last modified before `cutoff`.
    public func removeStaleTemporaries(under prefix: String, changedBefore cutoff: Date) async throws -> Int {
        try RemoteObjectName.validatePrefix(prefix)
        try requireRoot()
        let folder = prefix.hasSuffix("/") ? path(of: String(prefix.dropLast())) : rootPath
        var removed = 0
        for entry in try FolderFileSystem.entries(of: folder)
        where entry.isRegularFile && entry.name.hasPrefix(Self.temporaryPrefix) && entry.modified < cutoff {
            try FolderFileSystem.remove(folder + "/" + entry.name)
            removed += 1
        }
        return removed
    }

    public func delete(_ name: String) async throws {
        try RemoteObjectName.validate(name)
        try requireRoot()
        let path = self.path(of: name)
        // A folder is not an object, so there is nothing to delete.
        guard let info = try FolderFileSystem.status(path), info.st_mode & S_IFMT != S_IFDIR else { return }
        try FolderFileSystem.remove(path)
    }
}
