import Foundation
import Synchronization

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
/// copies that happen to look valid (`*.sync-conflict-*`). It skips links,
/// FIFOs, sockets and devices too, never opening them.
///
/// The folder's contents are not trusted (see `FolderFileSystem`): below
/// the root, which may itself be a link to a mount, no operation follows a
/// link; an object is read only if it is a plain file of at most
/// `RemoteObject.maximumSize` bytes, and no more than its size is read.
///
/// A write killed part-way leaves its temporary file behind. The first
/// `create` in a folder removes the temporaries there last changed before the
/// remote was made: a job makes its remote after it took the run lock, and
/// creates objects in its own device's folder (its batches), where only this
/// device writes and only under that lock, so such a file belongs to no
/// running write (docs/FORMAT.md, which says where else a create goes).
public final class FolderRemote: Remote {
    /// The start of the names of our temporary files.
    static let temporaryPrefix = ".authcat-tmp-"

    /// The most folder entries one listing reads, over all the folders it
    /// walks: the bound every remote keeps.
    public static let maximumListedEntries = RemoteObject.maximumListed

    /// The absolute path of the root folder, without a trailing `/`.
    public let rootPath: String

    /// When the remote was made: a temporary changed before belongs to no write of the job that made it.
    private let made = Date()
    /// The folders (object paths) whose stale temporaries were removed already.
    private let tidied = Mutex<Set<String>>([])

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

    /// A hard link creates atomically; without one, `create` looks first (see there).
    public var capabilities: RemoteCapabilities { RemoteCapabilities(createOnlyEnforced: true) }

    /// A folder holds nothing open between requests.
    public func close() async throws {}

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
        // Only the folder that the prefix's complete components name can hold matches.
        let start = prefix.range(of: "/", options: .backwards).map { String(prefix[..<$0.lowerBound]) } ?? ""
        let components = start.split(separator: "/").map(String.init)
        let folder: FolderFileSystem.Folder?
        do {
            folder = try self.folder(components, creating: false)
        } catch let RemoteError.io(_, _, reason) where reason == FolderFileSystem.linkRefusal {
            folder = nil  // a link where the prefix's folder should be holds none of our objects
        }
        guard let folder else { return [] }
        var found: [RemoteObject] = []
        var budget = Self.maximumListedEntries
        try collect(folder, relative: start, prefix: prefix, budget: &budget, into: &found)
        return found.sorted { $0.name < $1.name }
    }

    public func get(_ name: String) async throws -> Data? {
        try RemoteObjectName.validate(name)
        let parent: (FolderFileSystem.Folder, String)?
        do {
            parent = try existingParent(of: name)
        } catch let RemoteError.io(_, _, reason) where reason == FolderFileSystem.linkRefusal {
            throw RemoteError.objectRefused(name: name, reason: "a folder on its way is a link or not a folder")
        }
        guard let (folder, file) = parent else { return nil }
        return try folder.readFile(file, limit: RemoteObject.maximumSize, objectName: name)
    }

    public func put(_ name: String, data: Data) async throws {
        try RemoteObjectName.validate(name)
        let (folder, file) = try makeParent(of: name)
        let temporary = try folder.writeTemporary(data)
        do {
            try folder.rename(temporary, to: file)
        } catch {
            try? folder.remove(temporary)
            throw error
        }
        try folder.sync()
    }

    public func create(_ name: String, data: Data) async throws -> Bool {
        try RemoteObjectName.validate(name)
        let (folder, file) = try makeParent(of: name)
        removeStaleTemporaries(in: folder, objectFolder: WebDAVRemote.parent(of: name))
        let temporary = try folder.writeTemporary(data)
        defer { try? folder.remove(temporary) }
        // link() fails if the target exists, so it never overwrites, and the
        // target appears complete or not at all.
        if let created = try folder.linkIfAbsent(temporary, to: file) {
            if created { try folder.sync() }
            return created
        }
        // Without hard links the best left is check-then-rename, which two
        // writers on this same folder could race; file-sync tools cannot
        // offer create-only across machines anyway.
        if try folder.status(file) != nil { return false }
        try folder.rename(temporary, to: file)
        try folder.sync()
        return true
    }

    /// Removes our temporary files (hidden, so never listed) in `folder`, last
    /// changed before the remote was made, once in the remote's life.
    /// Housekeeping: a failure leaves them for the next time.
    private func removeStaleTemporaries(in folder: FolderFileSystem.Folder, objectFolder: String) {
        guard tidied.withLock({ $0.insert(objectFolder).inserted }),
            let entries = try? folder.entries(limit: Self.maximumListedEntries)
        else { return }
        for entry in entries
        where entry.isRegularFile && entry.name.hasPrefix(Self.temporaryPrefix) && entry.modified < made {
            try? folder.remove(entry.name)
        }
    }

    public func delete(_ name: String) async throws {
        try RemoteObjectName.validate(name)
        guard let (folder, file) = try existingParent(of: name) else { return }
        // A folder is not an object, so there is nothing to delete.
        guard let info = try folder.status(file), info.st_mode & S_IFMT != S_IFDIR else { return }
        try folder.remove(file)
        removeEmptyFolders(above: name)
    }

    /// Removes the folders above object `name` that its deletion left empty,
    /// up to (not including) the root: folders are not objects, so an empty
    /// one is only a leftover (a deleted remote would otherwise leave its
    /// `authcat-<vault>/<device>/` folders behind). A folder that is not empty,
    /// or cannot be removed, stays; nothing fails because of it.
    private func removeEmptyFolders(above name: String) {
        var components = name.split(separator: "/").map(String.init).dropLast()
        while let last = components.popLast() {
            guard let parent = try? folder(Array(components), creating: false), parent.removeIfEmpty(last) else {
                return
            }
        }
    }
}
