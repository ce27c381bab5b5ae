import Foundation

/// Walking the remote's tree one open folder at a time, never through a link.
extension FolderRemote {
    /// The root folder, opened (a link to it followed).
    ///
    /// - Throws: `containerMissing` unless the root folder exists.
    func openRoot() throws -> FolderFileSystem.Folder {
        guard let root = try FolderFileSystem.Folder.root(rootPath) else {
            throw RemoteError.containerMissing(location: displayLocation)
        }
        return root
    }

    /// The folder that holds object `name` (already validated) and the object's
    /// last component; `nil` if a folder on the way is absent.
    func existingParent(of name: String) throws -> (FolderFileSystem.Folder, String)? {
        var components = name.split(separator: "/").map(String.init)
        let last = components.removeLast()
        guard let folder = try folder(components, creating: false) else { return nil }
        return (folder, last)
    }

    /// The folder that holds object `name`, made (0700) with every folder between it and the root.
    func makeParent(of name: String) throws -> (FolderFileSystem.Folder, String) {
        var components = name.split(separator: "/").map(String.init)
        let last = components.removeLast()
        guard let folder = try folder(components, creating: true) else {
            throw RemoteError.containerMissing(location: displayLocation)
        }
        return (folder, last)
    }

    /// The folder at `components` below the root; `nil` if one is absent and `creating` is false.
    func folder(_ components: [String], creating: Bool) throws -> FolderFileSystem.Folder? {
        var folder = try openRoot()
        for component in components {
            if creating {
                folder = try folder.makeChild(component)
            } else {
                guard let child = try folder.child(component) else { return nil }
                folder = child
            }
        }
        return folder
    }

    /// Adds the objects in `folder` (the object path `relative`, `""` for the
    /// root) whose names start with `prefix`; counts every entry read against `budget`.
    func collect(
        _ folder: FolderFileSystem.Folder, relative: String, prefix: String, budget: inout Int,
        into found: inout [RemoteObject]
    ) throws {
        let entries = try folder.entries(limit: budget)
        budget -= entries.count
        for entry in entries {
            let name = relative.isEmpty ? entry.name : relative + "/" + entry.name
            // Links, FIFOs, sockets and devices are neither folders nor plain files: skipped, never opened.
            guard RemoteObjectName.isValid(name) else { continue }
            let depth = name.split(separator: "/").count
            // Never deeper than the format's names go: a planted tree thousands of folders deep is not walked.
            if entry.isDirectory, depth < RemoteObjectName.maximumDepth,
                (name + "/").hasPrefix(prefix) || prefix.hasPrefix(name + "/")
            {
                let child: FolderFileSystem.Folder?
                do {
                    child = try folder.child(entry.name)
                } catch let RemoteError.io(_, _, reason) where reason == FolderFileSystem.linkRefusal {
                    continue  // swapped for a link since it was listed: skipped like a link listed as one
                }
                guard let child else { continue }
                try collect(child, relative: name, prefix: prefix, budget: &budget, into: &found)
            } else if entry.isRegularFile, depth <= RemoteObjectName.maximumDepth, name.hasPrefix(prefix) {
                found.append(RemoteObject(name: name, size: entry.size, version: entry.version))
            }
        }
    }
}
